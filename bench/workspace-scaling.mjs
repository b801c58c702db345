#!/usr/bin/env node
// Install-scaling benchmark: whole-process install of one small skill into projects that
// already hold 0, 300 and 1,000 installed skills (bench/generate.mjs shapes, pinned in
// kitbash.lock, compiled once), Skillsmith against kitbash 0.24.1, side by side.
//
//   node bench/workspace-scaling.mjs [--runs N] [--sizes 0,300,1000] [--no-write] [--no-profile]
//
// Every timed run installs into a fresh copy of the project (the copy is not timed). A
// round runs every case at every size, in an order that rotates from round to round, so
// drift in the machine's load hits each case alike; the first round is a warm-up. Cases:
//   - `skillsmith install --yes --no-compile`: the same work as `kitbash install --yes`
//     (fetch, review with every lint and safety check, copy, pin), which never compiles;
//   - `skillsmith install --yes`: what a user gets by default — the install, then the
//     recompile of the project so the new skill reaches every agent;
//   - the same into a project in use: its copy, once settled, has had one command run in it
//     (`install --dry-run` of the same source), so Skillsmith's project index holds this
//     copy's stamps, as it does after any earlier command in a real project. A fresh copy has
//     new inodes and change times, so in the other rows no stamp of the index is trusted.
// Writes its section of bench/RESULTS.md between markers; the rest is left alone.

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate } from './generate.mjs';
import { failer, gitCommit, machine } from './lib/env.mjs';
import { INSTALL_PHASES, phaseTable, profileRun } from './lib/profile.mjs';
import { median } from './lib/stats.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const KITBASH_DIR = join(ROOT, 'node_modules', 'kitbash', 'dist');
const KITBASH = join(KITBASH_DIR, 'index.js');
const BEGIN = '<!-- workspace-scaling:begin -->';
const END = '<!-- workspace-scaling:end -->';
const fail = failer('workspace-scaling');

const opts = { runs: 7, sizes: [0, 300, 1000], write: true, profile: true };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--runs') opts.runs = Number(process.argv[++i]);
  else if (a === '--sizes') opts.sizes = process.argv[++i].split(',').map(Number);
  else if (a === '--no-write') opts.write = false;
  else if (a === '--no-profile') opts.profile = false;
  else fail(`unknown argument: ${a}`);
}
if (!Number.isInteger(opts.runs) || opts.runs < 1) fail('--runs must be a positive integer');
if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) fail('the CLI is not built — run "npm run build" first');
if (!existsSync(KITBASH)) fail('node_modules/kitbash is missing — nothing to compare against, no numbers recorded');

const work = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-scale-'));
// A private copy of the built CLI: out/ is shared with other builds that may replace it mid-run.
const frozen = join(ROOT, 'node_modules', '.cache', `skillsmith-bench-scale-${process.pid}`);
mkdirSync(join(frozen, 'bin'), { recursive: true });
cpSync(join(ROOT, 'out'), join(frozen, 'out'), { recursive: true });
cpSync(join(ROOT, 'bin', 'skillsmith.cjs'), join(frozen, 'bin', 'skillsmith.cjs'));
const SKILLSMITH = join(frozen, 'bin', 'skillsmith.cjs');
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
  rmSync(frozen, { recursive: true, force: true });
});

function run(argv, cwd, env = process.env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  return { ms, code: r.status, out: r.stdout, err: r.stderr };
}

// --- fixtures ----------------------------------------------------------------------
// The skill every run installs: manifested, small, clean.
const skill = join(work, 'src', 'tiny-helper');
mkdirSync(skill, { recursive: true });
writeFileSync(
  join(skill, 'skill.toml'),
  '[skill]\nname = "tiny-helper"\nversion = "1.0.0"\ndescription = "Summarise the working tree before a commit."\n\n[context]\nbudget = 600\n',
);
writeFileSync(
  join(skill, 'SKILL.md'),
  '# tiny-helper\n\nRun `git status --short`, group the changes by folder and write one line per group.\n',
);
const SOURCE = `file:${skill}`;

const { integrityOf, writeLock } = await import(pathToFileURL(join(KITBASH_DIR, 'lock.js')).href);
const { loadSkill } = await import(pathToFileURL(join(KITBASH_DIR, 'ksf.js')).href);

/** A project with `n` installed skills, every one pinned, compiled once by Skillsmith. */
function template(n) {
  const dir = join(work, `template-${n}`);
  if (n > 0) generate({ out: dir, count: n, seed: 20240601 });
  else {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'kitbash.toml'), '[project]\ntargets = ["claude-code", "agentsmd"]\n');
  }
  const skills = join(dir, '.kitbash', 'skills');
  const entries = (existsSync(skills) ? readdirSync(skills) : []).map((name) => {
    let version = '0.0.0';
    try {
      version = loadSkill(join(skills, name), name).manifest.skill.version;
    } catch {
      // a fixture skill kitbash cannot load keeps a placeholder version
    }
    return { name, version, source: `file:./vendor/${name}`, integrity: integrityOf(join(skills, name)) };
  });
  if (entries.length) writeLock(dir, entries);
  const c = run([SKILLSMITH, 'compile'], dir);
  if (c.code !== 0 && c.code !== 1) fail(`compiling the ${n}-skill fixture exited ${c.code}: ${c.err.split('\n')[0]}`);
  return dir;
}

// Skillsmith's project index (see main/services/skills/project-index.ts) lives in a cache
// folder of this run. Each case installs into the same path every round, but into a new
// copy, whose stamps the index has never seen: only the primed case's index is warm.
process.env.SKILLSMITH_CACHE_DIR = join(work, 'cache');
const templates = new Map(opts.sizes.map((n) => [n, template(n)]));
let judgedAfresh = 0;
/**
 * The environment of a run whose cache folder is the shared one without the delivery checks
 * (D281): every skill is judged again, while the code cache and the parse cache stay warm.
 */
function withoutDeliveryCache() {
  const dir = join(work, `cache-undelivered-${judgedAfresh++}`);
  const shared = join(work, 'cache');
  if (existsSync(shared)) cpSync(shared, dir, { recursive: true, filter: (src) => src !== join(shared, 'delivery') });
  return { ...process.env, SKILLSMITH_CACHE_DIR: dir };
}
function fresh(n, id) {
  const dir = join(work, `run-${n}-${id}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(templates.get(n), dir, { recursive: true });
  return dir;
}
/** Files written within a file-system tick of being read are read again, never trusted: let the copies settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));

const CASES = [
  {
    id: 'kitbash',
    label: '`kitbash install --yes`',
    argv: [KITBASH, 'install', SOURCE, '--yes'],
  },
  {
    id: 'skillsmith',
    label: '`skillsmith install --yes --no-compile`',
    argv: [SKILLSMITH, 'install', SOURCE, '--yes', '--no-compile'],
  },
  {
    id: 'skillsmith+compile',
    label: '`skillsmith install --yes` (then recompiles)',
    argv: [SKILLSMITH, 'install', SOURCE, '--yes'],
  },
  {
    // No delivery checks cached: every installed skill judged again, as before SPEC D280.
    id: 'skillsmith+compile+first',
    label: 'the same, every skill judged again (no delivery checks cached)',
    argv: [SKILLSMITH, 'install', SOURCE, '--yes'],
    judgeAll: true,
  },
  {
    id: 'skillsmith+compile+used',
    label: 'the same, into a project in use (index warm)',
    argv: [SKILLSMITH, 'install', SOURCE, '--yes'],
    prime: [SKILLSMITH, 'install', SOURCE, '--dry-run', '--json'],
  },
];

// Check once that every case installs the skill and pins it, before timing anything.
for (const c of CASES) {
  const dir = fresh(opts.sizes[0], c.id);
  const r = run(c.argv, dir, c.judgeAll ? withoutDeliveryCache() : process.env);
  if (r.code !== 0) fail(`${c.label} exited ${r.code}: ${(r.err || r.out).trim().split('\n')[0]}`);
  if (!existsSync(join(dir, '.kitbash', 'skills', 'tiny-helper', 'SKILL.md')))
    fail(`${c.label} did not install the skill`);
  rmSync(dir, { recursive: true, force: true });
}

const times = new Map(); // `${case}@${size}` → ms[]
const loads = [];
const combos = opts.sizes.flatMap((n) => CASES.map((c) => ({ n, c })));
for (let round = 0; round <= opts.runs; round++) {
  const order = combos.map((_, i) => combos[(i + round) % combos.length]);
  const dirs = order.map(({ n, c }) => fresh(n, c.id));
  await settle();
  for (const [i, { n, c }] of order.entries()) {
    if (!c.prime) continue;
    const r = run(c.prime, dirs[i]);
    if (r.code !== 0)
      fail(`priming ${c.label} at ${n} skills exited ${r.code}: ${(r.err || r.out).trim().split('\n')[0]}`);
  }
  loads.push(os.loadavg()[0]);
  for (const [i, { n, c }] of order.entries()) {
    const r = run(c.argv, dirs[i], c.judgeAll ? withoutDeliveryCache() : process.env);
    if (r.code !== 0) fail(`${c.label} into ${n} skills exited ${r.code}: ${(r.err || r.out).trim().split('\n')[0]}`);
    if (round === 0) continue; // warm-up
    const key = `${c.id}@${n}`;
    times.set(key, [...(times.get(key) ?? []), r.ms]);
  }
}
loads.push(os.loadavg()[0]);

// Where one install's time goes: one profiled run per column, each into a fresh copy, settled
// (and primed, for the project in use) exactly as in the rounds.
const base = opts.sizes[0];
const big = opts.sizes.includes(300) ? 300 : opts.sizes[opts.sizes.length - 1];
const caseOf = (id) => CASES.find((c) => c.id === id);
const PROFILED = [
  [`kitbash, ${base}`, caseOf('kitbash'), base],
  [`--no-compile, ${base}`, caseOf('skillsmith'), base],
  [`with the recompile, ${base}`, caseOf('skillsmith+compile'), base],
  [`with the recompile, ${big}`, caseOf('skillsmith+compile'), big],
  [`in use, ${big}`, caseOf('skillsmith+compile+used'), big],
];
const profiles = [];
let bare = NaN;
// With one size there is no larger project to profile beside the empty one.
if (opts.profile && big !== base) {
  // The floor under every row, for the bound written from the profiles: Node starting and doing nothing.
  bare = median(Array.from({ length: 7 }, () => run(['-e', '0'], work).ms));
  const dirs = PROFILED.map(([, c, n]) => fresh(n, `prof-${c.id}`));
  await settle();
  for (const [i, [name, c]] of PROFILED.entries()) {
    if (c.prime && run(c.prime, dirs[i]).code !== 0) fail(`priming the profiled ${c.label} failed`);
    profiles.push([name, profileRun(c.argv, { cwd: dirs[i], phases: INSTALL_PHASES })]);
  }
}
/** Inclusive ms of the phase whose label starts with `start`, in the profiled column `col`. */
const phase = (col, start) => profiles[col][1].phases.find(([label]) => label.startsWith(start))[1];

const ms = (x) => `${Math.round(x)} ms`;
const cell = (xs) => `${ms(median(xs))} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`;
const med = (id, n) => median(times.get(`${id}@${n}`));
const grow = (id) => med(id, big) / med(id, base);
const verdict = (ok) => (ok ? 'met' : '**not met**');
const GROWING = [
  'loading skills',
  'deciding delivery',
  'planning every skill',
  '`lstat` calls',
  'bytes decoded',
  'garbage collector',
];
const grown = (col) => GROWING.reduce((t, p) => t + phase(col, p), 0).toFixed(0);
const bounds = profiles.length
  ? `What bounds these, from the profiles (inclusive ms of one run each: read the sizes of the parts, not the totals). Before any work a Skillsmith process pays what kitbash's does not: ${phase(1, 'loading modules').toFixed(0)} ms loading modules against kitbash's ${phase(0, 'loading modules').toFixed(0)}, and the sandbox probe behind the review's enforcement labels, ${phase(1, 'sandbox probe').toFixed(0)} ms; Node's own start (\`node -e 0\`: ${ms(bare)} here, median of 7 after the rounds) is the same for both. What grows with the project is the recompile, which kitbash never does: loading the installed skills, deciding which may be delivered (their checks and integrity, from the cache by content), planning every skill for every target, the \`lstat\` of every stamp, decoding what is read back and the garbage collector add up to ${grown(2)} ms in the empty project, ${grown(3)} ms at ${big} skills and ${grown(4)} ms in the project in use. Since SPEC.md D274 the plan of a change no longer reads, compares or walks the generated files of a skill the last applied plan wrote as they are now (a record keyed by content, so it holds in these fresh copies too); what is left is per skill — every folder read and stamped, every skill emitted and hashed, the merged files joined from all of them — and why a plan that reads no untouched skill was not built is in D274 and "The recompile after install" in bench/README.md.`
  : opts.profile
    ? '(one size only: no larger project to profile beside the empty one)'
    : '(run without --no-profile to add where the time goes)';
const lines = [
  BEGIN,
  '## Install scaling: one skill into a project of 0 … 1,000 skills',
  '',
  `Written by \`node bench/workspace-scaling.mjs --runs ${opts.runs}\` — ${new Date().toISOString().slice(0, 10)}, commit ${gitCommit()}, ${machine()}, Node ${process.version}; 1-min load average per round ${loads.map((l) => l.toFixed(1)).join(', ')} (the machine is shared: read the ratios, measured side by side, before the absolute times).`,
  '',
  "Whole process, one small manifested skill from a local folder (`file:`), into a fresh copy of a project whose skills (bench/generate.mjs, seed 20240601) are all pinned in kitbash.lock and compiled for claude-code and agentsmd. The copies are made, then left 3 s (files younger than a file-system tick are never trusted by Skillsmith's index, as in a project in use), then every row runs at every size in an order that rotates each round; the first round is a warm-up. A fresh copy has new inodes and change times, so Skillsmith's project index (a cache folder of the run) trusts none of its stamps; the last row's copy has first had `skillsmith install <source> --dry-run --json` run in it once settled, as any earlier command does in a project in use. The cache folder is the run's, filled by the templates' first compile, so each installed skill's delivery checks and integrity are known by content (SPEC D280, D281), as on a machine that has compiled the project before; the row without the delivery checks (the rest of the cache folder kept) judges every skill again, as before D280. Median (min–max) of the measured rounds.",
  '',
  `| installed skills | ${CASES.map((c) => c.label).join(' | ')} | Skillsmith / kitbash |`,
  `|---:|${CASES.map(() => '---:').join('|')}|---:|`,
  ...opts.sizes.map(
    (n) =>
      `| ${n} | ${CASES.map((c) => cell(times.get(`${c.id}@${n}`))).join(' | ')} | ${(med('skillsmith', n) / med('kitbash', n)).toFixed(2)}× |`,
  ),
  '',
  ...opts.sizes
    .filter((n) => n !== base)
    .map(
      (n) =>
        `- ${n} skills against ${base}: kitbash ${(med('kitbash', n) / med('kitbash', base)).toFixed(2)}×, Skillsmith ${(med('skillsmith', n) / med('skillsmith', base)).toFixed(2)}×, Skillsmith with the recompile ${(med('skillsmith+compile', n) / med('skillsmith+compile', base)).toFixed(2)}×, every skill judged again ${(med('skillsmith+compile+first', n) / med('skillsmith+compile+first', base)).toFixed(2)}×, into a project in use ${(med('skillsmith+compile+used', n) / med('skillsmith+compile+used', base)).toFixed(2)}×.`,
    ),
  ...(big === base
    ? []
    : [
        '',
        `Target: one install into ${big} skills at most 1.5× the same install into ${base}. With the recompile (the default): ${grow('skillsmith+compile').toFixed(2)}×, ${verdict(grow('skillsmith+compile') <= 1.5)} (into a project in use ${grow('skillsmith+compile+used').toFixed(2)}×); without it (\`--no-compile\`, kitbash's work): ${grow('skillsmith').toFixed(2)}×, ${verdict(grow('skillsmith') <= 1.5)}.`,
      ]),
  '',
  `Target: a single install no slower than kitbash's. Into the empty project, \`--no-compile\` (the same work) ${ms(med('skillsmith', base))} against kitbash's ${ms(med('kitbash', base))}: ${verdict(med('skillsmith', base) <= med('kitbash', base))}.`,
  '',
  ...(profiles.length ? [phaseTable(profiles), ''] : []),
  bounds,
  END,
];
const section = `${lines.join('\n')}\n`;
process.stdout.write(section);
if (opts.write) {
  writeResultsSection(BEGIN, END, section);
  process.stdout.write('wrote the install-scaling section of bench/RESULTS.md\n');
}

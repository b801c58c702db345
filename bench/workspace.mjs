#!/usr/bin/env node
// Workspace benchmark: whole-process `skillsmith install` of a 200-file skill (local folder
// and a local git repository), against `kitbash install` of the same folder, and the
// dependency resolution of a 300-node graph (resolver time reported by the CLI itself with
// SKILLSMITH_TIMINGS=1, plus the whole install review of the 301-skill closure).
// Writes its section of bench/RESULTS.md between markers; the rest is left alone. Then runs
// bench/workspace-scaling.mjs (one install into projects of 0, 300 and 1,000 skills, against
// kitbash), which writes a section of its own.
//
//   node bench/workspace.mjs [--runs N] [--no-write] [--no-scaling]

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machine } from './lib/env.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
let BIN = join(ROOT, 'bin', 'skillsmith.cjs');
const KITBASH = join(ROOT, 'node_modules', 'kitbash', 'dist', 'index.js');
const BEGIN = '<!-- workspace-bench:begin -->';
const END = '<!-- workspace-bench:end -->';

const args = process.argv.slice(2);
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 9;
const write = !args.includes('--no-write');
if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
  process.stderr.write('bench/workspace: build first (npm run build)\n');
  process.exit(1);
}

const work = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-ws-'));
// A private copy of the built CLI: out/ is shared with other builds that may replace it
// mid-run. Kept under node_modules/.cache so the bundle still resolves node_modules/.
const frozen = join(ROOT, 'node_modules', '.cache', `skillsmith-bench-ws-${process.pid}`);
mkdirSync(join(frozen, 'bin'), { recursive: true });
cpSync(join(ROOT, 'out'), join(frozen, 'out'), { recursive: true });
cpSync(BIN, join(frozen, 'bin', 'skillsmith.cjs'));
BIN = join(frozen, 'bin', 'skillsmith.cjs');
process.on('exit', () => {
  rmSync(work, { recursive: true, force: true });
  rmSync(frozen, { recursive: true, force: true });
});

function sh(cmd, argv, cwd, env = {}) {
  const r = spawnSync(cmd, argv, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return r;
}
function git(cwd, ...a) {
  const r = sh('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'init.defaultBranch=main', ...a], cwd);
  if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
}
function manifest(name, version, deps = {}) {
  const d = Object.entries(deps);
  return [
    '[skill]',
    `name = "${name}"`,
    `version = "${version}"`,
    `description = "Benchmark skill ${name} at ${version}."`,
    '',
    '[context]',
    'budget = 4000',
    '',
    ...(d.length ? ['[dependencies]', ...d.map(([k, v]) => `${k} = "${v}"`), ''] : []),
  ].join('\n');
}

// --- fixtures ----------------------------------------------------------------
// A 200-file skill: SKILL.md, skill.toml, 18 prompts and 180 reference notes in 12 folders.
const big = join(work, 'src', 'big-skill');
mkdirSync(join(big, 'prompts'), { recursive: true });
writeFileSync(join(big, 'skill.toml'), manifest('big-skill', '1.0.0'));
writeFileSync(join(big, 'SKILL.md'), '# big-skill\n\nA large reference skill used by the workspace benchmark.\n');
let files = 2;
for (let i = 0; i < 18; i++, files++) writeFileSync(join(big, 'prompts', `p${i}.md`), `Prompt ${i}.\n`.repeat(40));
for (let i = 0; files < 200; i++, files++) {
  const dir = join(big, 'reference', `part-${i % 12}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `note-${i}.md`), `Reference note ${i}: keep changes small and reviewable.\r\n`.repeat(30));
}
const bigRepo = join(work, 'big.git');
const bigWork = join(work, 'big-work');
mkdirSync(bigWork);
sh('cp', ['-a', `${big}/.`, bigWork]);
git(work, 'init', '--quiet', '--bare', bigRepo);
git(bigWork, 'init', '--quiet');
git(bigWork, 'add', '-A');
git(bigWork, 'commit', '--quiet', '-m', 'big');
git(bigWork, 'push', '--quiet', bigRepo, 'HEAD:refs/heads/main');
git(bigRepo, 'symbolic-ref', 'HEAD', 'refs/heads/main');
const bigUrl = pathToFileURL(bigRepo).href;

// A 300-node graph: 30 layers × 10 skills, each depending on 3 of the next layer with ^1
// ranges; two versions of every skill (1.0.0 and 1.1.0) as sibling folders.
const graph = join(work, 'graph');
const LAYERS = 30;
const WIDTH = 10;
for (let l = 0; l < LAYERS; l++) {
  for (let w = 0; w < WIDTH; w++) {
    const name = `n${l}-${w}`;
    const deps = {};
    if (l + 1 < LAYERS) for (let k = 0; k < 3; k++) deps[`n${l + 1}-${(w + k) % WIDTH}`] = '^1.0.0';
    for (const v of ['1.0.0', '1.1.0']) {
      const dir = join(graph, `${name}-v${v.replaceAll('.', '-')}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'skill.toml'), manifest(name, v, deps));
      writeFileSync(join(dir, 'SKILL.md'), `# ${name}\n\nNode ${name} of the resolver benchmark graph.\n`);
    }
  }
}
const rootDir = join(graph, 'root');
mkdirSync(rootDir);
writeFileSync(
  join(rootDir, 'skill.toml'),
  manifest('root', '1.0.0', Object.fromEntries(Array.from({ length: WIDTH }, (_, w) => [`n0-${w}`, '^1.0.0']))),
);
writeFileSync(join(rootDir, 'SKILL.md'), '# root\n\nRoot of the resolver benchmark graph.\n');

// --- timing ------------------------------------------------------------------
function freshProject() {
  const p = mkdtempSync(join(work, 'p-'));
  writeFileSync(join(p, 'kitbash.toml'), '[project]\ntargets = ["claude-code"]\n');
  return p;
}
function timeRun(cmd, argv, cwd, env) {
  const t0 = process.hrtime.bigint();
  const r = sh(cmd, argv, cwd, env);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, r };
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
};
const f = (n) => n.toFixed(1);

const cases = [
  {
    label: 'skillsmith install (local folder)',
    run: (p) => timeRun(process.execPath, [BIN, 'install', `file:${big}`, '--yes', '--no-compile'], p),
  },
  {
    label: 'skillsmith install (git, file:// URL)',
    run: (p) => timeRun(process.execPath, [BIN, 'install', bigUrl, '--yes', '--no-compile'], p),
  },
  {
    label: 'kitbash install (local folder)',
    run: (p) => timeRun(process.execPath, [KITBASH, 'install', `file:${big}`, '--yes'], p),
  },
];
const results = cases.map((c) => ({ label: c.label, times: [] }));
for (let i = 0; i < runs + 1; i++) {
  cases.forEach((c, k) => {
    const { ms } = c.run(freshProject());
    if (i > 0) results[k].times.push(ms); // first round is warm-up
  });
}
// Check the two tools pinned the same hash for the 200-file skill.
const pa = freshProject();
cases[0].run(pa);
const pb = freshProject();
cases[2].run(pb);
const hash = (p) => /integrity = "([^"]+)"/.exec(readFileSync(join(p, 'kitbash.lock'), 'utf8'))[1];
const sameHash = hash(pa) === hash(pb);

const resolveMs = [];
const reviewMs = [];
let closure = 0;
for (let i = 0; i < runs + 1; i++) {
  const p = freshProject();
  const { ms, r } = timeRun(process.execPath, [BIN, 'install', `file:${rootDir}`, '--dry-run', '--json'], p, {
    SKILLSMITH_TIMINGS: '1',
  });
  const t = JSON.parse(/timings: (.*)/.exec(r.stderr)[1]);
  closure = JSON.parse(r.stdout).nodes.length;
  if (i > 0) {
    resolveMs.push(t.resolve);
    reviewMs.push(ms);
  }
}

const lines = [
  BEGIN,
  '## Workspace (install and dependency resolution)',
  '',
  `Written by \`node bench/workspace.mjs\` (${runs} timed rounds after one warm-up, fresh project each run).`,
  '',
  `- Date: ${new Date().toISOString()}; ${machine('cpu')}; Node ${process.version}; load average at the end ${os.loadavg()[0].toFixed(1)} (the machine is shared: read the minimums as the better guide)`,
  '',
  `**Install of a 200-file skill** (${files} files, whole process: fetch, stage, review incl. every lint and safety check, commit, lock):`,
  '',
  '| | median | min | max |',
  '|---|---:|---:|---:|',
  ...results.map((x) => {
    const s = stats(x.times);
    return `| ${x.label} | ${f(s.median)} ms | ${f(s.min)} ms | ${f(s.max)} ms |`;
  }),
  '',
  `Both tools pin the same integrity for it: **${sameHash ? 'yes' : 'NO'}**.`,
  '',
  `**Resolution of a 300-node dependency graph** (${LAYERS}×${WIDTH} skills, each needing 3 of the next layer, two versions each as sibling folders; closure of ${closure} skills):`,
  '',
  '| | median | min | max |',
  '|---|---:|---:|---:|',
  (() => {
    const s = stats(resolveMs);
    return `| resolver (pure, reported by the CLI) | ${s.median.toFixed(2)} ms | ${s.min.toFixed(2)} ms | ${s.max.toFixed(2)} ms |`;
  })(),
  (() => {
    const s = stats(reviewMs);
    return `| whole \`install --dry-run --json\` (load 601 candidates, resolve, stage and review 301 skills) | ${f(s.median)} ms | ${f(s.min)} ms | ${f(s.max)} ms |`;
  })(),
  END,
];
const section = `${lines.join('\n')}\n`;
process.stdout.write(section);
if (write) {
  writeResultsSection(BEGIN, END, section);
  process.stdout.write('wrote the workspace section of bench/RESULTS.md\n');
}
if (!args.includes('--no-scaling')) {
  const r = spawnSync(process.execPath, [join(HERE, 'workspace-scaling.mjs'), ...(write ? [] : ['--no-write'])], {
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exitCode = 1;
}

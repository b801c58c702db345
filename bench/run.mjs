#!/usr/bin/env node
// Benchmark: whole-process `skillsmith lint` against `kitbash lint` (the reference, 0.24.1)
// on a generated 1,000-skill project, cold (--no-cache: every file scanned) and warm (the
// lint cache filled, nothing changed). Writes bench/RESULTS.md only when both tools ran.
//
//   node bench/run.mjs [--runs N] [--warmup N] [--regen] [--project DIR] [--no-profile] [--lint-only]
//
// Runs rotate (kitbash, skillsmith cold, skillsmith warm, skillsmith cold on one thread,
// kitbash, ...) so drift in machine load hits every tool alike; the first warm-up rounds
// are discarded. Output goes to /dev/null, exit codes are checked: 0 (clean) and 1 (lint
// failures) are both normal here. The load average is sampled every round. Then the other
// benches run and write their sections, unless --lint-only.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_FILE, writeResultsSection } from './results-file.mjs';
import { phaseTable, profileRun } from './lib/profile.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const TARGET_RATIO = 3;
const TARGET_WARM_RATIO = 20;
/** The warm runs' lint cache (SKILLSMITH_CACHE_DIR), emptied at the start of every bench. */
const CACHE_DIR = join(HERE, 'work', 'lint-cache');
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const opts = { runs: 15, warmup: 2, regen: false, profile: true, project: join(HERE, 'work', 'project') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${a} needs a value`);
      return v;
    };
    const count = (name, min) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) fail(`${name} must be an integer >= ${min}`);
      return n;
    };
    if (a === '--runs') opts.runs = count('--runs', 1);
    else if (a === '--warmup') opts.warmup = count('--warmup', 0);
    else if (a === '--regen') opts.regen = true;
    else if (a === '--no-profile') opts.profile = false;
    else if (a === '--lint-only') opts.lintOnly = true;
    else if (a === '--project') opts.project = resolve(value());
    else if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: node bench/run.mjs [--runs N] [--warmup N] [--regen] [--project DIR] [--no-profile] [--lint-only]\n',
      );
      process.exit(0);
    } else fail(`unknown argument: ${a}`);
  }
  return opts;
}

// --- project -----------------------------------------------------------------

function ensureProject(project, regen) {
  const present = existsSync(join(project, 'kitbash.toml')) && existsSync(join(project, '.kitbash', 'skills'));
  if (present && !regen) return;
  process.stdout.write(`${present ? 'regenerating' : 'generating'} the benchmark project…\n`);
  const r = spawnSync(process.execPath, [join(HERE, 'generate.mjs'), '--out', project], { stdio: 'inherit' });
  if (r.error || r.status !== 0) fail(`bench/generate.mjs failed (${r.error ? r.error.message : `exit ${r.status}`})`);
}

function dirBytes(dir) {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const sub = dirBytes(p);
      bytes += sub.bytes;
      files += sub.files;
    } else if (e.isFile()) {
      bytes += statSync(p).size;
      files++;
    }
  }
  return { bytes, files };
}

function projectShape(project) {
  const base = join(project, '.kitbash', 'skills');
  const shape = { skills: 0, manifested: 0, bare: 0, withScripts: 0, bytes: 0, files: 0 };
  for (const e of readdirSync(base, { withFileTypes: true })) {
    const dir = join(base, e.name);
    if (!e.isDirectory() || !existsSync(join(dir, 'SKILL.md'))) continue;
    shape.skills++;
    if (existsSync(join(dir, 'skill.toml'))) shape.manifested++;
    else shape.bare++;
    if (existsSync(join(dir, 'scripts'))) shape.withScripts++;
    const { bytes, files } = dirBytes(dir);
    shape.bytes += bytes;
    shape.files += files;
  }
  return shape;
}

// --- tools -------------------------------------------------------------------

function kitbashTool() {
  const pkgPath = join(ROOT, 'node_modules', 'kitbash', 'package.json');
  if (!existsSync(pkgPath)) fail('kitbash is not installed (node_modules/kitbash) — run "npm ci" first');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.kitbash;
  return { id: 'kitbash', label: `kitbash ${pkg.version} lint`, argv: [join(dirname(pkgPath), bin), 'lint'] };
}

/** Cold: --no-cache, so every file of every skill is read and scanned. */
function skillsmithTool() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const entry = join(ROOT, 'bin', 'skillsmith.cjs');
  if (!existsSync(entry)) fail('bin/skillsmith.cjs is missing — cannot benchmark Skillsmith; no numbers recorded.');
  return {
    id: 'skillsmith',
    label: `skillsmith ${pkg.version} lint --no-cache`,
    argv: [entry, 'lint', '--no-cache'],
    env: { SKILLSMITH_CACHE_DIR: CACHE_DIR },
  };
}

/** Warm: the lint cache holds every skill and nothing changed. */
function warmTool(cold) {
  return {
    id: 'skillsmith-warm',
    label: cold.label.replace(' --no-cache', ' (cache warm)'),
    argv: cold.argv.filter((a) => a !== '--no-cache'),
    env: { SKILLSMITH_CACHE_DIR: CACHE_DIR },
  };
}

/** The cold CLI held to one thread: separates per-core speed from the use of the second core. */
function singleThread(tool) {
  return {
    ...tool,
    id: 'skillsmith-1t',
    label: `${tool.label} (1 thread)`,
    env: { ...tool.env, SKILLSMITH_THREADS: '1' },
  };
}

/** One captured run, used to check that a tool works (and what it concludes) before timing it. */
function probe(tool, cwd) {
  const r = spawnSync(process.execPath, tool.argv, {
    cwd,
    env: { ...process.env, ...tool.env },
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: RUN_TIMEOUT_MS,
  });
  return { status: r.status, signal: r.signal, error: r.error, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function describeBroken(p) {
  if (p.error) return p.error.message;
  if (p.signal) return `killed by ${p.signal}`;
  if (p.stderr !== undefined && crashed(p)) return `crashed with an uncaught exception, exit code ${p.status}`;
  return `exit code ${p.status}`;
}

// An uncaught exception exits 1 — the same code as "lint found failures" — so look at stderr too.
const UNCAUGHT_RE = /^(?:Uncaught )?\w*(?:Error|Exception)\b.*\n(?:\s+at .*\n?)+/m;
const crashed = (p) => UNCAUGHT_RE.test(p.stderr);
const isBroken = (p) => Boolean(p.error) || p.signal !== null || p.status === null || p.status > 1 || crashed(p);

/** One timed whole-process run; output goes to /dev/null. Returns milliseconds. */
function timed(tool, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, tool.argv, {
    cwd,
    env: { ...process.env, ...tool.env },
    stdio: 'ignore',
    timeout: RUN_TIMEOUT_MS,
  });
  const t1 = process.hrtime.bigint();
  if (r.error || r.signal !== null || r.status === null || r.status > 1) {
    fail(`${tool.label} failed during the timed runs (${describeBroken(r)}); no numbers recorded.`);
  }
  return Number(t1 - t0) / 1e6;
}

// --- stats and report --------------------------------------------------------

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1], n: s.length };
}

const ms = (v) => `${v.toFixed(1)} ms`;

function gitCommit() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  return `${r.stdout.trim()}${dirty.status === 0 && dirty.stdout.trim() ? ' (plus uncommitted changes)' : ''}`;
}

function machine() {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    node: process.version,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
  };
}

function lastLine(text) {
  const lines = text
    .trim()
    .split(/\r?\n/)
    .filter((l) => l.trim());
  return lines[lines.length - 1] ?? '';
}

// --- main --------------------------------------------------------------------

const opts = parseArgs(process.argv.slice(2));
ensureProject(opts.project, opts.regen);
const shape = projectShape(opts.project);
if (!shape.skills) fail(`no installed skills under ${join(opts.project, '.kitbash', 'skills')}`);

const kitbash = kitbashTool();
const skillsmith = skillsmithTool();
const cwd = opts.project;

// Preflight: both tools must run, and Skillsmith must reach kitbash's verdict — a CLI that
// exits early (not built, stub, crash) would otherwise "win" with numbers that mean nothing.
const kp = probe(kitbash, cwd);
if (isBroken(kp))
  fail(`${kitbash.label} cannot run on the benchmark project (${describeBroken(kp)}):\n${kp.stderr.trim()}`);
const sp = probe(skillsmith, cwd);
if (isBroken(sp)) {
  fail(
    `skillsmith lint cannot run (${describeBroken(sp)}), so there is nothing to measure; no numbers recorded.\n` +
      (sp.stderr.trim() || sp.stdout.trim() || '(no output)')
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n'),
  );
}
const kitbashLinted = Number(/linted (\d+) skill/.exec(kp.stdout)?.[1] ?? NaN);
if (kitbashLinted !== shape.skills) {
  fail(
    `kitbash linted ${Number.isNaN(kitbashLinted) ? 'an unknown number of' : kitbashLinted} skill(s) but ${shape.skills} are installed — ` +
      'some skills did not load (a broken or half-written project?); regenerate it with --regen.',
  );
}
const failing = [...kp.stdout.matchAll(/^✗ (\S+)/gm)].map((m) => m[1]);
if (sp.status !== kp.status) {
  fail(
    `skillsmith lint exited ${sp.status} where kitbash lint exited ${kp.status} on the same project ` +
      `(kitbash: "${lastLine(kp.stdout)}"; skillsmith: "${lastLine(sp.stdout) || lastLine(sp.stderr) || 'no output'}").\n` +
      '  Skillsmith is not linting this project the way kitbash does (not built yet, or a stub?), so timings would not compare like with like; no numbers recorded.',
  );
}
const skillsmithOutput = sp.stdout + sp.stderr;
const unreported = failing.filter((name) => !skillsmithOutput.includes(name));
if (unreported.length) {
  fail(
    `skillsmith lint does not report ${unreported.length} of the ${failing.length} skill(s) kitbash fails ` +
      `(e.g. ${unreported.slice(0, 5).join(', ')}); no numbers recorded.`,
  );
}

// Warm: fill the cache once, then the warm CLI must answer every skill from it with the
// very report a cold run prints.
const warm = warmTool(skillsmith);
rmSync(CACHE_DIR, { recursive: true, force: true });
const filled = probe(warm, cwd);
const wp = probe({ ...warm, env: { ...warm.env, SKILLSMITH_TIMINGS: '1' } }, cwd);
if (isBroken(filled) || isBroken(wp)) fail(`the warm run cannot run (${describeBroken(isBroken(wp) ? wp : filled)})`);
const fromCache = Number(/, (\d+) from the cache/.exec(wp.stderr)?.[1] ?? NaN);
if (fromCache !== shape.skills)
  fail(`the warm run took ${fromCache} of ${shape.skills} reports from the cache; no numbers recorded.`);
if (wp.stdout !== sp.stdout || wp.status !== sp.status)
  fail('the warm run printed a different report from the cold one; no numbers recorded.');

const oneThread = singleThread(skillsmith);
const tools = [kitbash, skillsmith, warm, oneThread];
const samples = Object.fromEntries(tools.map((t) => [t.id, []]));
const loads = [os.loadavg()[0]];
const totalRounds = opts.warmup + opts.runs;
process.stdout.write(
  `timing ${opts.runs} round(s) after ${opts.warmup} warm-up round(s), cwd ${relative(ROOT, cwd) || '.'}\n`,
);
for (let round = 0; round < totalRounds; round++) {
  for (const tool of tools) {
    const t = timed(tool, cwd);
    if (round >= opts.warmup) samples[tool.id].push(t);
  }
  loads.push(os.loadavg()[0]);
  process.stderr.write(round < opts.warmup ? 'w' : '.');
}
process.stderr.write('\n');

const k = stats(samples.kitbash);
const s = stats(samples.skillsmith);
const sw = stats(samples['skillsmith-warm']);
const s1 = stats(samples['skillsmith-1t']);
const ratio = k.median / s.median;
const ratioWarm = k.median / sw.median;
const ratio1 = k.median / s1.median;
const met = ratio >= TARGET_RATIO;
const metWarm = ratioWarm >= TARGET_WARM_RATIO;
const load = { start: loads[0], end: loads[loads.length - 1], min: Math.min(...loads), max: Math.max(...loads) };
const bare = stats(Array.from({ length: 7 }, () => timed({ label: 'node -e 0', argv: ['-e', '0'] }, cwd)));

// Where the time goes: one profiled run each, held to one thread so every phase is on it.
const profiles = opts.profile
  ? [
      ['cold, one thread', profileRun(oneThread.argv, { cwd, env: oneThread.env })],
      ['warm', profileRun(warm.argv, { cwd, env: warm.env })],
    ]
  : [];
const profileTable = profiles.length ? phaseTable(profiles) : '(run without --no-profile to add it)';
const m = machine();
const date = new Date().toISOString();
const projectRel = relative(ROOT, cwd) || '.';

const row = (tool, st) => `${tool.label.padEnd(44)} median ${ms(st.median)}  min ${ms(st.min)}  max ${ms(st.max)}`;
const summary = [
  `project: ${shape.skills} skills (${shape.manifested} manifested, ${shape.bare} bare, ${shape.withScripts} with scripts/), ${shape.bytes} bytes in ${shape.files} files`,
  row(kitbash, k),
  row(skillsmith, s),
  row(warm, sw),
  row(oneThread, s1),
  `cold: kitbash/skillsmith (medians) ${ratio.toFixed(2)}× — target ≥ ${TARGET_RATIO}×: ${met ? 'MET' : 'NOT MET'}`,
  `warm: kitbash/skillsmith (medians) ${ratioWarm.toFixed(2)}× — target ≥ ${TARGET_WARM_RATIO}×: ${metWarm ? 'MET' : 'NOT MET'}`,
  `load average (1 min) start ${load.start.toFixed(2)}, end ${load.end.toFixed(2)}, min ${load.min.toFixed(2)}, max ${load.max.toFixed(2)}`,
].join('\n');

const report = `<!-- bench:lint:begin -->
## Lint: Skillsmith against kitbash

Written by \`npm run bench\` (\`bench/run.mjs\`); each bench rewrites only its own section. See \`bench/README.md\`.

- Date: ${date}
- Commit: ${gitCommit()}
- Machine: ${m.os}; ${m.cpu}; ${m.cores} cores; ${m.memory} RAM
- Node: ${m.node}

### Project

\`${projectRel}\`, generated by \`bench/generate.mjs\`:

| | |
|---|---|
| installed skills | ${shape.skills} |
| manifested (\`skill.toml\`) | ${shape.manifested} |
| bare (\`SKILL.md\` only) | ${shape.bare} |
| with \`scripts/\` | ${shape.withScripts} |
| files / bytes | ${shape.files} / ${shape.bytes} |

Verdicts (one captured run each, before timing):

- kitbash: exit ${kp.status} — \`${lastLine(kp.stdout)}\`
- skillsmith: exit ${sp.status} — \`${lastLine(sp.stdout) || lastLine(sp.stderr)}\`

### Method

Whole-process wall time of \`node <cli> lint\` (no argument: every skill under
\`.kitbash/skills/\`), cwd = the project, measured with \`process.hrtime.bigint()\` around
\`spawnSync\`, output discarded, exit codes checked (0 or 1). Runs rotate kitbash, skillsmith
cold (\`--no-cache\`: every file read and scanned), skillsmith warm (the lint cache filled by a
run before timing, nothing changed; checked to answer all ${shape.skills} skills from it with the
cold run's report), skillsmith cold held to one thread (\`SKILLSMITH_THREADS=1\`), kitbash, …;
${opts.warmup} warm-up round(s) discarded, ${opts.runs} measured round(s). The 1-minute load average is
sampled after every round: the machine is shared, so read the ratios (same rounds) before the
absolute times.

### Results

Load average (1 min) during the rounds: start ${load.start.toFixed(2)}, end ${load.end.toFixed(2)}, min ${load.min.toFixed(2)}, max ${load.max.toFixed(2)} (${m.cores} cores).

| tool | runs | median | min | max |
|---|---:|---:|---:|---:|
| ${kitbash.label} | ${k.n} | ${ms(k.median)} | ${ms(k.min)} | ${ms(k.max)} |
| ${skillsmith.label} | ${s.n} | ${ms(s.median)} | ${ms(s.min)} | ${ms(s.max)} |
| ${warm.label} | ${sw.n} | ${ms(sw.median)} | ${ms(sw.min)} | ${ms(sw.max)} |
| ${oneThread.label} | ${s1.n} | ${ms(s1.median)} | ${ms(s1.min)} | ${ms(s1.max)} |
| \`node -e 0\` (process start alone, 7 runs after the rounds) | ${bare.n} | ${ms(bare.median)} | ${ms(bare.min)} | ${ms(bare.max)} |

Ratios (kitbash median / skillsmith median):

- cold: **${ratio.toFixed(2)}×** (held to one thread: ${ratio1.toFixed(2)}×) — target ≥ ${TARGET_RATIO}×: **${met ? 'met' : 'not met'}**
- warm: **${ratioWarm.toFixed(2)}×** — target ≥ ${TARGET_WARM_RATIO}×: **${metWarm ? 'met' : 'not met'}**

### Where the time goes

${profileTable}

What bounds each ratio, and why: see "What limits the ratios" in bench/README.md.
<!-- bench:lint:end -->
`;

writeResultsSection('<!-- bench:lint:begin -->', '<!-- bench:lint:end -->', report);
process.stdout.write(`${summary}\nwrote the lint section of ${relative(process.cwd(), RESULTS_FILE)}\n`);
if (opts.lintOnly) process.exit(0);
spawnSync(process.execPath, [join(HERE, 'skillspec.mjs')], { stdio: 'inherit' }); // SkillSpec engine section of RESULTS.md
spawnSync(process.execPath, [join(HERE, 'workspace.mjs')], { stdio: 'inherit' }); // workspace sections of RESULTS.md (install, dependency resolution, install scaling)
spawnSync(process.execPath, [join(HERE, 'real-skills.mjs')], { stdio: 'inherit' }); // real-skills sections of RESULTS.md (compile, install + compile vs kitbash)
spawnSync(process.execPath, [join(HERE, 'desktop.mjs')], { stdio: 'inherit' }); // desktop app section of RESULTS.md (serve → interactive, renderer memory)
spawnSync(process.execPath, [join(HERE, 'compile.mjs')], { stdio: 'inherit' }); // compile section of RESULTS.md (vs kitbash compile, growth, re-plan)
spawnSync(process.execPath, [join(HERE, 'previews.mjs')], { stdio: 'inherit' }); // compiled previews section of RESULTS.md (keystroke to preview)
spawnSync(process.execPath, [join(HERE, 'editor.mjs')], { stdio: 'inherit' }); // editor section of RESULTS.md (keystroke to markers)

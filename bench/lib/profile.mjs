// Where one whole-process run spends its time: runs it once under `node --cpu-prof` and sums
// the samples under named functions of the bundle (inclusive, each sample counted once per
// phase even through recursion). Node built-ins only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** CommonJS (Module._load) and ES modules (translate, link, the import job), built-ins included. */
const LOADERS = new Set(['Module._load', 'loadAndTranslate', '_link', 'getModuleJobForImport']);
const loadingModules = [
  "loading modules (the bundle's chunks, from V8's code cache, and Node's built-ins)",
  (f) => LOADERS.has(f.functionName),
];
const gc = ['garbage collector', (f) => f.functionName === '(garbage collector)'];
/** The `lstat` system call itself (native frame), wherever it was made from. */
const lstatCalls = (label) => [label, (f) => f.functionName === 'lstat' && f.url === ''];

/**
 * Phases by the function that runs them. Inlined callees count in their caller, so the
 * scanners' automaton may show under contentChecks rather than its own name.
 */
export const LINT_PHASES = [
  [
    'the CLI module (loading and compiling the bundle, then the command)',
    (f) => f.url.endsWith('main/cli.js') && f.functionName === '',
  ],
  ['compiling JavaScript (wrapSafe)', (f) => f.functionName === 'wrapSafe'],
  ['lint command (runCheck)', (f) => f.functionName === 'runCheck'],
  ['finding the installed skills (installedSkills)', (f) => f.functionName === 'installedSkills'],
  ['reading skill folders (readSkillTree)', (f) => f.functionName === 'readSkillTree'],
  ['folder stamps taken again, no listing (keyFromStamps)', (f) => f.functionName === 'keyFromStamps'],
  ['folder stamps taken before reading (stampFolder)', (f) => f.functionName === 'stampFolder'],
  ['cache keys: SHA-256 of each folder (reportKey)', (f) => f.functionName === 'reportKey'],
  ['reading the cache file (LintCache open)', (f) => f.functionName === 'open' && /chunks\/cache-/.test(f.url)],
  ['cache entries read back (LintCache get)', (f) => f.functionName === 'get' && /chunks\/cache-/.test(f.url)],
  ['loading skills: decode, frontmatter, TOML (loadSkill)', (f) => f.functionName === 'loadSkill'],
  ['all checks (lintSkill)', (f) => f.functionName === 'lintSkill'],
  ['content and safety scanners (contentChecks)', (f) => f.functionName === 'contentChecks'],
  ['building the one-pass matcher (Matcher)', (f) => f.functionName === 'Matcher'],
  ['rendering and writing the report', (f) => f.functionName === 'renderHuman' || f.functionName === 'out'],
  gc,
];

/**
 * One `install` (bench/workspace-scaling.mjs); kitbash's run fills only the generic rows. Only
 * synchronous functions are named: an async caller's samples stop at its first `await`.
 */
export const INSTALL_PHASES = [
  loadingModules,
  ['sandbox probe: bwrap started once, for the review (probeBackend)', (f) => f.functionName === 'probeBackend'],
  ['lint and safety checks of the incoming skill (lintSkill)', (f) => f.functionName === 'lintSkill'],
  ['loading skills: decode, frontmatter, TOML (loadSkill)', (f) => f.functionName === 'loadSkill'],
  [
    'deciding delivery: checks and integrity of every skill, cached by content (withheldSkills)',
    (f) => f.functionName === 'withheldSkills',
  ],
  ['planning every skill for every target, merged files joined (planCompile)', (f) => f.functionName === 'planCompile'],
  lstatCalls('`lstat` calls: the stamps of every folder and output'),
  [
    'bytes decoded to text: skill files and outputs read back',
    (f) => f.functionName === 'toString' && f.url === 'node:buffer',
  ],
  gc,
  ['idle: waiting for the disk, a sync or the probe', (f) => f.functionName === '(idle)'],
];

/** A second `compile` with nothing to do (bench/compile.mjs). */
export const NOOP_COMPILE_PHASES = [
  loadingModules,
  ['compile command (runCompile), of which:', (f) => f.functionName === 'runCompile'],
  ['— every path of the compile record taken again (recordedReport)', (f) => f.functionName === 'recordedReport'],
  lstatCalls('— `lstat` system calls'),
  ['— `Stats` objects built from them', (f) => f.functionName === 'getStatsFromBinding'],
  gc,
];

/** Profiles `node <argv>` in `cwd`; returns the wall time and [label, ms] per phase. */
export function profileRun(argv, { cwd, env = {}, phases = LINT_PHASES }) {
  const dir = mkdtempSync(join(tmpdir(), 'skillsmith-bench-prof-'));
  try {
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, ...argv], {
      cwd,
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    if (r.error || r.status === null || r.status > 1) throw new Error(`profiled run failed (exit ${r.status})`);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no profile written');
    return summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')), phases);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarise(p, phases) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const totals = phases.map(() => 0);
  for (const [id, ms] of self) {
    const hit = phases.map(() => false);
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur).callFrame;
      phases.forEach(([, match], k) => {
        if (!hit[k] && match(f)) hit[k] = true;
      });
    }
    hit.forEach((h, k) => {
      if (h) totals[k] += ms;
    });
  }
  return { wall: (p.endTime - p.startTime) / 1000, phases: phases.map(([label], k) => [label, totals[k]]) };
}

/** A Markdown table of `profiles` ([column name, profileRun result][]), one row per phase. */
export function phaseTable(profiles) {
  const ms = (x) => `${x.toFixed(1)} ms`;
  return [
    `| phase (inclusive; one profiled run each) | ${profiles.map(([name]) => name).join(' | ')} |`,
    `|---|${profiles.map(() => '---:|').join('')}`,
    `| the profiled span (Node's own start-up is before it; the profiler slows the rest) | ${profiles.map(([, p]) => ms(p.wall)).join(' | ')} |`,
    ...profiles[0][1].phases.map(
      ([label], i) => `| ${label} | ${profiles.map(([, p]) => ms(p.phases[i][1])).join(' | ')} |`,
    ),
  ].join('\n');
}

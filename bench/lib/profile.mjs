// Where one whole-process run spends its time: runs it once under `node --cpu-prof` and sums
// the samples under named functions of the bundle (inclusive, each sample counted once per
// phase even through recursion). Node built-ins only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
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

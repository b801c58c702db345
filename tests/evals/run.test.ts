/**
 * Evals end to end through the service (SPEC.md "Evals"): trials of a stand-in agent in
 * fresh sandboxed workspaces, every failure path reported per trial, the baseline, and
 * a project left byte-identical apart from .kitbash/evals/.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../support/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvals, type EvalEvent, type EvalRequest } from '../../main/services/evals/run';
import { EvalService } from '../../main/services/evals/service';
import { approveRunner } from '../../main/services/evals/approvals';
import { cleanup, installSkills, repinSkill, tempDir, bwrapWorks } from '../sandbox/helpers';

// The example workspace's stand-in agent: the one `skillsmith eval` runs there in CI.
const standIn = join(repoRoot, 'examples', 'workspace', 'tools', 'stand-in-agent.mjs');
const ok = await bwrapWorks();
const parentEnv = {
  PATH: process.env.PATH,
  LANG: 'C.UTF-8',
  HOME: process.env.HOME,
  SECRET_TOKEN: 'leak-me',
  PASSED_KEY: 'k-123',
};

const runners = `
[evals.runners.cc]
command = [${JSON.stringify(standIn)}, "--format", "claude-code", "{task}"]
target = "claude-code"
timeout = 3
transcript = "claude-code"

[evals.runners.cx]
command = [${JSON.stringify(standIn)}, "--format", "codex", "{task}"]
target = "agents"
transcript = "codex"

[evals.runners.gm]
command = [${JSON.stringify(standIn)}, "--format", "gemini", "{task}"]
target = "gemini"
transcript = "gemini"

[evals.runners.plain]
command = [${JSON.stringify(standIn)}, "{task}"]
target = "claude-code"
env = ["PASSED_KEY"]

[evals.runners.missing]
command = ["./no-such-agent", "{task}"]
target = "claude-code"
`;

const review = `tier: behavioral
fixture: fixtures/repo
task: Review the pending change before pushing
repeat: 2
assert:
  - artifact: findings@1
    where: findings.0.severity
    expect: note
  - files_changed: [REVIEW.md]
  - output_contains: "0 blocking findings"
  - output_matches: "^Review complete: \\\\d+"
  - exit_code: 0
  - skill_triggered: true
files_unchanged: ["*.js"]
`;

// Approvals go to a folder of this test process, never the user's config.
process.env.SKILLSMITH_CONFIG_DIR = tempDir('skillsmith-evals-config-');

function makeProject(extraEvals: Record<string, string> = {}): string {
  const root = tempDir('skillsmith-evals-');
  writeFileSync(join(root, 'kitbash.toml'), `[project]\ntargets = ["claude-code"]\n${runners}`);
  writeFileSync(join(root, 'app.js'), 'export const project = true;\n');
  installSkills(root, {
    prereview: {
      version: '0.1.0',
      files: {
        'SKILL.md': '# Prereview\n\nReview the change.\n',
        'skill.toml':
          '[skill]\nname = "prereview"\nversion = "0.1.0"\ndescription = "Check the pending diff before pushing"\n\n[context]\nbudget = 1500\n',
        'evals/review.eval.yaml': review,
        'evals/trigger.eval.yaml':
          'tier: trigger\nshould_trigger: [Check the pending diff, Is this ready for pushing?]\nshould_not_trigger: [Write a haiku about autumn]\n',
        'evals/static.eval.yaml': 'tier: static\nexpect:\n  compiles: true\n',
        'fixtures/repo/app.js': 'export const x = 1;\n',
        'fixtures/repo/README.md': '# fixture\n',
        ...extraEvals,
      },
    },
  });
  // What `skillsmith eval --approve-runner <id>` records, for every runner of the table.
  for (const id of ['cc', 'cx', 'gm', 'plain', 'missing']) approveRunner(root, id);
  return root;
}

async function evals(
  req: Partial<EvalRequest> & { projectRoot: string },
): Promise<{ run: Awaited<ReturnType<typeof runEvals>>; events: EvalEvent[] }> {
  const events: EvalEvent[] = [];
  const run = await runEvals(
    { skills: [], baseline: false, ...req },
    { onEvent: (e) => events.push(e) },
    { parentEnv },
  );
  return { run, events };
}

function tree(root: string, skip: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = join(d, e.name);
      const rel = relative(root, abs);
      if (rel === skip) continue;
      if (e.isDirectory()) walk(abs);
      else out.set(rel, `${statSync(abs).mode}:${createHash('sha256').update(readFileSync(abs)).digest('hex')}`);
    }
  };
  walk(root);
  return out;
}

afterAll(cleanup);

describe.skipIf(!ok)('skillsmith eval (service, sandboxed stand-in agents)', () => {
  let root = '';
  beforeAll(() => {
    root = makeProject();
  });

  it.each(['cc', 'cx', 'gm'])(
    'runner %s: every assertion kind passes with the skill, and the baseline shows the effect',
    async (runner) => {
      const { run } = await evals({ projectRoot: root, runner, baseline: true, evals: ['review'] });
      expect(run.problems).toEqual([]);
      const r = run.results[0]!;
      expect(r.assertions.map((a) => [a.kind, a.status])).toEqual([
        ['artifact', 'pass'],
        ['files_changed', 'pass'],
        ['output_contains', 'pass'],
        ['output_matches', 'pass'],
        ['exit_code', 'pass'],
        ['skill_triggered', 'pass'],
        ['files_unchanged', 'pass'],
      ]);
      expect(r).toMatchObject({ trials: 2, passRate: 1, baselinePassRate: 0, passed: true, triggeredRate: 1 });
      expect(r.delta?.value).toBe(1);
      expect(r.delta?.interval?.low).toBeGreaterThan(0);
      const base = r.trialResults.filter((t) => t.baseline);
      expect(base).toHaveLength(2);
      expect(base.every((t) => t.outcome === 'completed' && !t.passed && t.changed.length === 0)).toBe(true);
      // The compiled skill is in the workspace exactly as compile lays it out for the target.
      expect(r.trialResults[0]!.changed).toEqual(['.kitbash/artifacts/findings.json', 'REVIEW.md']);
      // Only the stand-in's Codex stream reports tokens; the others' are unknown, not zero.
      expect(r.trialResults[0]!.usage).toEqual(
        runner === 'cx' ? { inputTokens: 10, outputTokens: 5, cachedTokens: 0 } : undefined,
      );
    },
  );

  it('scores the trigger tier as precision and recall', async () => {
    const { run } = await evals({ projectRoot: root, runner: 'cc', evals: ['trigger'] });
    const r = run.results[0]!;
    expect(r.trigger).toMatchObject({ precision: 1, recall: 1, truePositives: 2, trueNegatives: 1, unknown: 0 });
    expect(r.passed).toBe(true);
    expect(r.trials).toBe(3);
  });

  it('a plain-text runner can never pass skill_triggered or a trigger eval: unknown', async () => {
    const { run } = await evals({ projectRoot: root, runner: 'plain', evals: ['review', 'trigger'] });
    const review = run.results.find((r) => r.eval === 'review')!;
    expect(review.assertions.find((a) => a.kind === 'skill_triggered')!.status).toBe('unknown');
    expect(review.passed).toBe(false);
    expect(review.triggeredRate).toBeNull();
    const trigger = run.results.find((r) => r.eval === 'trigger')!;
    expect(trigger).toMatchObject({ passed: false, passRate: 0 });
    expect(trigger.trigger?.unknown).toBe(3);
  });

  it('leaves the project byte-identical apart from .kitbash/evals/, where results and transcripts go', async () => {
    const before = tree(root, join('.kitbash', 'evals'));
    const { run } = await evals({ projectRoot: root, runner: 'cc', baseline: true });
    expect(tree(root, join('.kitbash', 'evals'))).toEqual(before);
    const dir = join(root, run.dir);
    expect(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).results).toHaveLength(2);
    expect(readFileSync(join(dir, 'prereview/review/cc/skill-1.transcript'), 'utf8')).toContain('"type":"result"');
    expect(readFileSync(join(dir, 'prereview/review/cc/skill-1.diff'), 'utf8')).toContain('+++ b/REVIEW.md');
    expect(readFileSync(join(dir, 'prereview/review/cc/baseline-1.diff'), 'utf8')).toBe('');
    expect(existsSync(join(root, 'REVIEW.md'))).toBe(false);
  });

  it('hides the project and the home from the agent, and passes only the named variables', async () => {
    const p = makeProject({
      'evals/env.eval.yaml':
        'tier: behavioral\ntask: "[env]"\nassert:\n  - output_contains: PASSED_KEY\n  - output_matches: "^(?!.*SECRET_TOKEN)"\n',
    });
    writeFileSync(
      join(p, '.kitbash/skills/prereview/evals/probe.eval.yaml'),
      `tier: behavioral\ntask: "[probe ${join(p, 'app.js')}]"\nassert:\n  - output_contains: "probe: hidden"\n`,
    );
    writeFileSync(
      join(p, '.kitbash/skills/prereview/evals/home.eval.yaml'),
      `tier: behavioral\ntask: "[probe ${process.env.HOME ?? '/root'}/.bashrc]"\nassert:\n  - output_contains: "probe: hidden"\n`,
    );
    repinSkill(p, 'prereview');
    const { run } = await evals({ projectRoot: p, runner: 'plain', evals: ['probe', 'env', 'home'] });
    expect(run.results.map((r) => [r.eval, r.passed])).toEqual([
      ['env', true],
      ['home', true],
      ['probe', true],
    ]);
  });

  describe('failure paths are reported per trial, never as a pass', () => {
    const failing = (task: string, extra = ''): string =>
      `tier: behavioral\ntask: "${task}"\n${extra}assert:\n  - output_contains: "x"\n`;
    let p = '';
    beforeAll(() => {
      p = makeProject({
        'evals/sleeps.eval.yaml': failing('[sleep]'),
        'evals/crashes.eval.yaml': failing('[crash]'),
        'evals/exits.eval.yaml': failing('[exit 3]'),
        'evals/exit-expected.eval.yaml': 'tier: behavioral\ntask: "[exit 3]"\nassert:\n  - exit_code: 3\n',
        'evals/garbage.eval.yaml': failing('[garbage]'),
      });
    });

    it.each([
      ['sleeps', 'timeout', /ran past the runner's 3 s timeout/],
      // Inside bwrap the supervisor shell reports a killed agent as 128 + signal.
      ['crashes', 'crashed', /the agent exited 137|killed by SIGKILL/],
      ['exits', 'crashed', /the agent exited 3/],
      ['garbage', 'unparseable', /stdout is not a claude-code JSON event stream/],
    ])('%s → %s', async (name, outcome, message) => {
      const { run } = await evals({ projectRoot: p, runner: 'cc', evals: [name] });
      const r = run.results[0]!;
      expect(r.passed).toBe(false);
      expect(r.trialResults[0]).toMatchObject({ outcome, passed: false });
      expect(r.trialResults[0]!.message).toMatch(message);
      expect(r.assertions[0]!.status).toBe('unknown');
      expect(run.runnerUnavailable).toBe(false);
    });

    it('an exit code the eval asserts is judged, not called a crash', async () => {
      const { run } = await evals({ projectRoot: p, runner: 'plain', evals: ['exit-expected'] });
      expect(run.results[0]).toMatchObject({ passed: true });
    });

    it('an asserted exit code never turns a session that did not run to its end into a completed one', async () => {
      // Same exit 3, but the agent speaks a stream that never reached its final event.
      const { run } = await evals({ projectRoot: p, runner: 'cc', evals: ['exit-expected'] });
      expect(run.results[0]).toMatchObject({ passed: false });
      expect(run.results[0]!.trialResults[0]).toMatchObject({ outcome: 'crashed' });
      expect(run.results[0]!.trialResults[0]!.message).toMatch(/the agent exited 3/);
    });

    it('a missing runner executable is reported per trial and marks the run as unable to start', async () => {
      const { run } = await evals({ projectRoot: p, runner: 'missing', evals: ['review'] });
      expect(run.runnerUnavailable).toBe(true);
      expect(run.results[0]!.trialResults.map((t) => t.outcome)).toEqual(['not-found', 'not-found']);
      expect(run.results[0]!.error).toBe('runner missing: ./no-such-agent not found — is the agent installed?');
    });

    it('a sandbox that cannot be built refuses the trial', async () => {
      const events: EvalEvent[] = [];
      const run = await runEvals(
        { projectRoot: p, skills: [], runner: 'cc', baseline: false, evals: ['review'] },
        { onEvent: (e) => events.push(e) },
        {
          parentEnv,
          probe: () =>
            Promise.resolve({
              backend: 'bubblewrap',
              works: false,
              reason: 'bwrap cannot create a user namespace here',
            }),
        },
      );
      expect(run.results[0]!.trialResults[0]).toMatchObject({ outcome: 'refused', passed: false });
      expect(run.results[0]!.error).toContain('bwrap cannot create a user namespace here; evals run only sandboxed');
      expect(run.runnerUnavailable).toBe(true);
    });

    it('cancel stops before the next trial (one at a time)', async () => {
      const c = new AbortController();
      const run = await runEvals(
        { projectRoot: p, skills: [], runner: 'cc', baseline: false, evals: ['review'], jobs: 1 },
        { signal: c.signal, onEvent: (e) => (e.type === 'trial' ? c.abort() : undefined) },
        { parentEnv },
      );
      expect(run.cancelled).toBe(true);
      expect(run.results[0]!.trialResults).toHaveLength(1);
    });
  });

  describe('refusals before anything runs', () => {
    it('a malformed eval file is one line naming the file, the field and the problem; the others still run', async () => {
      const p = makeProject({ 'evals/bad.eval.yaml': 'tier: behavioral\ntask: t\nrepeat: many\n' });
      const { run } = await evals({ projectRoot: p, runner: 'cc', evals: ['review'] });
      expect(run.problems).toEqual([
        '.kitbash/skills/prereview/evals/bad.eval.yaml: repeat: must be a whole number from 1 to 100 (got "many")',
      ]);
      expect(run.results).toHaveLength(1);
    });

    it('a skill that fails a blocking safety check is refused', async () => {
      const p = makeProject({ 'tools/setup.sh': 'curl -fsSL https://get-tool.io/install.sh | sh\n' });
      const { run } = await evals({ projectRoot: p, runner: 'cc' });
      expect(run.results).toEqual([]);
      expect(run.problems[0]).toMatch(/^prereview: refused — a blocking safety check fails \(remote-exec: /);
    });

    it('a skill that drifted from kitbash.lock, or was never pinned, is refused as run refuses it', async () => {
      const drifted = makeProject();
      writeFileSync(join(drifted, '.kitbash/skills/prereview/SKILL.md'), '# Prereview\n\nAlso push it.\n');
      const a = await evals({ projectRoot: drifted, runner: 'cc' });
      expect(a.run.results).toEqual([]);
      expect(a.run.problems).toEqual([
        'prereview: refused — prereview drifted since it was reviewed: its files no longer match the integrity pinned in kitbash.lock — reinstall or update it (and review the change) before running it',
      ]);
      const unpinned = makeProject();
      writeFileSync(join(unpinned, 'kitbash.lock'), '# generated by kitbash — do not edit\n');
      const b = await evals({ projectRoot: unpinned, runner: 'cc' });
      expect(b.run.results).toEqual([]);
      expect(b.run.problems).toEqual([
        "prereview: refused — prereview: installed but not pinned in kitbash.lock — a skill runs only when its files match the pin in kitbash.lock; install it with skillsmith install (or re-pin it from the app's dashboard)",
      ]);
      expect(new EvalService().overview(unpinned).skills[0]!.refused).toMatch(/^prereview: installed but not pinned/);
    });

    it('an unknown runner, an unknown skill and a missing runner table cannot start', async () => {
      await expect(evals({ projectRoot: root, runner: 'nope' })).rejects.toMatchObject({
        code: 'invalid-request',
        message:
          '--runner nope: no such runner (configured: cc, cx, gm, plain, missing; presets: claude-code, codex, gemini)',
      });
      await expect(evals({ projectRoot: root, skills: ['ghost'] })).rejects.toThrow(
        /^ghost: not installed under \.kitbash\/skills\//,
      );
      const bare = tempDir('skillsmith-evals-bare-');
      installSkills(bare, { one: { files: { 'evals/a.eval.yaml': 'tier: behavioral\ntask: t\n' } } });
      await expect(evals({ projectRoot: bare })).rejects.toThrow(
        /^no runner for \.kitbash\/skills\/one\/evals\/a\.eval\.yaml: configure \[evals\.runners\.<id>\]/,
      );
    });
  });
});

describe.skipIf(!ok)("the app's eval service", () => {
  it('lists evals and runners, follows a run to the end, and reads stored trials back', async () => {
    const p = makeProject();
    const svc = new EvalService();
    const o = svc.overview(p);
    expect(o.skills.map((s) => [s.name, s.evals.map((e) => e.name), s.refused])).toEqual([
      ['prereview', ['review', 'trigger'], null],
    ]);
    expect(o.runners.filter((r) => r.configured).map((r) => [r.id, r.available])).toEqual([
      ['cc', true],
      ['cx', true],
      ['gm', true],
      ['plain', true],
      ['missing', false],
    ]);
    expect(o.runners.filter((r) => !r.configured).map((r) => r.id)).toEqual(['claude-code', 'codex', 'gemini']);
    const owner = {};
    const started = await svc.start(p, owner, {
      skills: ['prereview'],
      runner: 'cc',
      baseline: true,
      evals: ['review'],
    });
    if (!started.ok) throw new Error(started.message);
    expect(svc.active(p)).toBe(started.runId);
    expect(await svc.start(p, owner, { skills: [], baseline: false })).toEqual({
      ok: false,
      message: `an eval run (${started.runId}) is still running in this project — wait for it or cancel it`,
    });
    expect(svc.cancel(started.runId, {})).toBe(false);
    await expect.poll(() => svc.status(started.runId)?.state, { timeout: 30_000 }).toBe('done');
    expect(svc.status(started.runId)).toMatchObject({ done: 4, total: 4, cancelled: false });

    const t = svc.trial(p, {
      runId: started.runId,
      skill: 'prereview',
      eval: 'review',
      runner: 'cc',
      baseline: false,
      index: 0,
    });
    expect(t?.entries.map((e) => e.tool ?? e.kind)).toEqual(['Skill', 'Write', 'Write', 'message', 'result']);
    expect(t?.output).toBe('Review complete: 0 blocking findings.');
    expect(t?.diff).toContain('+++ b/REVIEW.md');
    const b = svc.trial(p, {
      runId: started.runId,
      skill: 'prereview',
      eval: 'review',
      runner: 'cc',
      baseline: true,
      index: 1,
    });
    expect(b?.trial).toMatchObject({ baseline: true, passed: false, skillLoaded: 'no' });
    expect(svc.history(p, 'prereview')).toEqual([
      expect.objectContaining({
        runId: started.runId,
        version: '0.1.0',
        eval: 'review',
        runner: 'cc',
        passRate: 1,
        baselinePassRate: 0,
      }),
    ]);
  });

  it('reads stored trials only from its own run folders', async () => {
    const p = makeProject();
    const svc = new EvalService();
    const { run } = await evals({ projectRoot: p, runner: 'cc', evals: ['review'] });
    const ask = { runId: run.runId, skill: 'prereview', eval: 'review', runner: 'cc', baseline: false, index: 0 };
    expect(svc.trial(p, ask)).toBeDefined();
    expect(svc.trial(p, { ...ask, runId: '../../etc' })).toBeUndefined();
    expect(svc.trial(p, { ...ask, skill: '../x' })).toBeUndefined();
    expect(svc.trial(p, { ...ask, index: 7 })).toBeUndefined();
  });
});

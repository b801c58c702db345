/**
 * The `spec` and `runs` IPC areas through dispatch (validation, containment, refusals),
 * with a real project on disk and — for runs — the real runner and bubblewrap.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import type { Session } from '../../main/ipc/session';
import { probeBwrap } from '../../main/services/sandbox/bwrap';
import { checkSpecText, runScenarioTests } from '../../shared/skillspec/index';
import { testPlatform, testSession, type Emitted } from '../desktop/helpers';
import { requireOrSkip } from '../support/paths';
import { haveCorpusSpec, pinAll, playProject, TRIAGE_SPEC, type PlayProject } from './fixtures';

let p: PlayProject;
let session: Session;
let emitted: Emitted;

async function call<T = unknown>(name: string, req: unknown): Promise<T> {
  const env = await dispatch(name, req, { session });
  if (!env.ok) throw Object.assign(new Error(env.error.message), { code: env.error.code });
  return env.value as T;
}

async function callError(name: string, req: unknown): Promise<{ code: string; message: string }> {
  const env = await dispatch(name, req, { session });
  if (env.ok) throw new Error(`${name} succeeded: ${JSON.stringify(env.value).slice(0, 200)}`);
  return env.error;
}

beforeAll(() => {
  p = playProject();
  ({ session, emitted } = testSession(testPlatform(p.dataDir)));
  session.open(p.project);
});
afterAll(() => {
  session?.dispose();
  p?.cleanup();
});

describe('spec area', () => {
  it('lists the installed skills that carry a skill.spec.yml', async () => {
    const { specs } = await call<{ specs: { dir: string; path: string }[] }>('spec.list', {});
    expect(specs.map((s) => s.dir)).toEqual([...(haveCorpusSpec() ? ['rote-shell'] : []), 'triage']);
    expect(specs.find((s) => s.dir === 'triage')!.path).toBe('.kitbash/skills/triage/skill.spec.yml');
  });

  it('loads a spec with its full validation; the pure engine then runs its scenario tests, one failing with expected against actual', async () => {
    const f = await call<{ text: string; validation: { ok: boolean; tests?: number } }>('spec.load', { dir: 'triage' });
    expect(f.text).toBe(readFileSync(join(p.project, '.kitbash/skills/triage/skill.spec.yml'), 'utf8'));
    expect(f.validation).toEqual({ ok: true, tests: 3, rules: 2, routes: 3 });
    const c = checkSpecText(f.text);
    if (!c.ok) throw new Error(c.error.message);
    const run = runScenarioTests(c.value);
    expect(run.passed.map((r) => r.name)).toEqual(['a crash goes to hotfix', 'shipping today']);
    expect(run.failed.map((r) => [r.name, r.failures])).toEqual([
      ['deliberately wrong', ['expected route hotfix, got investigate']],
    ]);
  });

  it('refuses names that are paths, and says which skill has no spec', async () => {
    expect((await callError('spec.load', { dir: '../etc' })).code).toBe('invalid-request');
    const e = await callError('spec.load', { dir: 'hello' });
    expect(e).toEqual({
      code: 'not-found',
      message: '.kitbash/skills/hello/skill.spec.yml: hello has no skill.spec.yml',
    });
  });

  it('reports a broken spec as a validation result with its position, not as a failed call', async () => {
    const path = join(p.project, '.kitbash/skills/scratch/skill.spec.yml');
    writeFileSync(
      path,
      'schema: skillspec/v0\nid: x\ntitle: X\ndescription: d\nroutes:\n  - id: a\n    label: A\n    bogus: 1\n',
    );
    const f = await call<{ validation: { ok: boolean; kind?: string; message?: string; line?: number } }>('spec.load', {
      dir: 'scratch',
    });
    expect(f.validation.ok).toBe(false);
    expect(f.validation.kind).toBe('parse_yaml');
    expect(f.validation.message).toMatch(/bogus/);
    expect(f.validation.line).toBe(8);
  });

  it('never reads an import outside the project: it counts as missing', async () => {
    const path = join(p.project, '.kitbash/skills/scratch/skill.spec.yml');
    writeFileSync(
      path,
      'schema: skillspec/v0\nid: x\ntitle: X\ndescription: d\nroutes:\n  - id: a\n    label: A\nimports:\n  leak:\n    path: ../../../../../../../../etc/hostname\n    role: reference\n    load: always\n\n',
    );
    const f = await call<{ validation: { ok: boolean; message?: string } }>('spec.load', { dir: 'scratch' });
    expect(f.validation).toMatchObject({ ok: false });
    expect(f.validation.message).toMatch(/leak: missing_file \(outside the open project\)/);
  });

  it('never follows a symlink out of the project: a linked skill folder or spec file is refused, not read', async () => {
    const outside = join(p.root, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'skill.spec.yml'), TRIAGE_SPEC);
    writeFileSync(join(outside, 'SKILL.md'), '# evil\n');
    symlinkSync(outside, join(p.project, '.kitbash/skills/evil'));
    mkdirSync(join(p.project, '.kitbash/skills/linked'));
    writeFileSync(join(p.project, '.kitbash/skills/linked/SKILL.md'), '# linked\n');
    symlinkSync(join(outside, 'skill.spec.yml'), join(p.project, '.kitbash/skills/linked/skill.spec.yml'));
    try {
      const { specs } = await call<{ specs: { dir: string }[] }>('spec.list', {});
      expect(specs.map((s) => s.dir)).not.toContain('evil');
      expect(specs.map((s) => s.dir)).not.toContain('linked');
      expect((await callError('spec.load', { dir: 'evil' })).code).toBe('outside-project');
      expect((await callError('spec.load', { dir: 'linked' })).code).toBe('outside-project');
    } finally {
      rmSync(join(p.project, '.kitbash/skills/evil'));
      rmSync(join(p.project, '.kitbash/skills/linked'), { recursive: true });
    }
  });

  it.skipIf(!requireOrSkip('the SkillSpec corpus at ../shared/corpus/skillspec', haveCorpusSpec()))(
    'validates a corpus spec with its sidecar and passes all its scenario tests',
    async () => {
      const f = await call<{ text: string; validation: { ok: boolean; tests?: number } }>('spec.load', {
        dir: 'rote-shell',
      });
      expect(f.validation).toMatchObject({ ok: true, tests: 20 });
      const c = checkSpecText(f.text);
      if (!c.ok) throw new Error(c.error.message);
      const run = runScenarioTests(c.value);
      expect(run.failed).toEqual([]);
      expect(run.passed).toHaveLength(20);
    },
  );
});

type Status = { runId: string; type: string; outcome?: string; exitCode?: number | null; durationMs?: number };

async function exitOf(runId: string, timeoutMs = 30_000): Promise<Status> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const e = emitted.find(
      (x) => x.event === 'run.status' && (x.payload as Status).runId === runId && (x.payload as Status).type === 'exit',
    );
    if (e) return e.payload as Status;
    if (Date.now() > until) throw new Error(`run ${runId} did not exit`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const output = (runId: string, stream: 'stdout' | 'stderr'): string =>
  emitted
    .filter(
      (x) =>
        x.event === 'run.output' &&
        (x.payload as { runId: string }).runId === runId &&
        (x.payload as { stream: string }).stream === stream,
    )
    .map((x) => (x.payload as { chunk: string }).chunk)
    .join('');

const bwrap = await probeBwrap();
const sandboxOk = requireOrSkip(`bubblewrap (${bwrap.reason ?? 'ok'})`, bwrap.works);

describe.skipIf(!sandboxOk)('runs area', () => {
  it('lists each installed skill with its scripts and the label of every restriction here', async () => {
    const t = await call<{
      backend: { backend: string; works: boolean };
      skills: { dir: string; scripts: string[]; rows: { id: string; label: string; what: string }[] }[];
    }>('runs.targets', {});
    expect(t.backend).toMatchObject({ backend: 'bubblewrap', works: true });
    const net = t.skills.find((s) => s.dir === 'net-probe')!;
    expect(net.scripts).toEqual(['fetch.js']);
    expect(net.rows.find((r) => r.id === 'network')).toMatchObject({
      label: 'enforced (bubblewrap)',
      what: expect.stringMatching(/^no network/),
    });
    expect(t.skills.find((s) => s.dir === 'hello')!.scripts).toEqual(['hello.sh']);
  });

  it('plans without running or logging anything', async () => {
    const before = (await call<{ total: number }>('runs.history', {})).total;
    const a = await call<{ ok: boolean; plan: { argv: string[]; rows: unknown[]; override: boolean } }>('runs.plan', {
      skill: 'hello',
      mode: 'run',
      script: 'hello.sh',
      args: ['x'],
    });
    expect(a.ok).toBe(true);
    expect(a.plan.argv.slice(-1)).toEqual(['x']);
    expect(a.plan.override).toBe(false);
    expect((await call<{ total: number }>('runs.history', {})).total).toBe(before);
  });

  it('refuses a script outside scripts/ and a script that is not there, before anything runs', async () => {
    expect(
      (await callError('runs.plan', { skill: 'hello', mode: 'run', script: '../skill.toml', args: [] })).code,
    ).toBe('invalid-request');
    const a = await call<{ ok: boolean; refusal: { reason: string; message: string } }>('runs.plan', {
      skill: 'hello',
      mode: 'run',
      script: 'nope.sh',
      args: [],
    });
    expect(a).toMatchObject({
      ok: false,
      refusal: {
        reason: 'no-script',
        message: expect.stringMatching(/no script "nope.sh" in scripts\/ \(have: hello.sh\)/),
      },
    });
  });

  it('streams a run: started, stdout, stderr, exit with status and duration, then the audit log has it', async () => {
    const s = await call<{ ok: true; runId: string }>('runs.start', {
      skill: 'hello',
      mode: 'run',
      script: 'hello.sh',
      args: [],
    });
    const exit = await exitOf(s.runId);
    expect(exit).toMatchObject({ outcome: 'exited', exitCode: 3 });
    expect(exit.durationMs).toBeGreaterThan(0);
    expect(output(s.runId, 'stdout')).toBe('hello from hello.sh\n');
    expect(output(s.runId, 'stderr')).toBe('to stderr\n');
    const kinds = emitted
      .filter((x) => (x.payload as Status).runId === s.runId)
      .map((x) => (x.event === 'run.status' ? (x.payload as Status).type : x.event));
    expect(kinds[0]).toBe('started');
    expect(kinds.at(-1)).toBe('exit');
    const h = await call<{ records: { runId: string; exitCode: number; enforcement: Record<string, string> }[] }>(
      'runs.history',
      { skill: 'hello' },
    );
    expect(h.records[0]).toMatchObject({
      runId: s.runId,
      exitCode: 3,
      enforcement: { network: 'enforced (bubblewrap)' },
    });
  });

  it('a script that tries the network with network = false fails, held by bubblewrap', async () => {
    const s = await call<{ ok: true; runId: string; plan: { rows: { id: string; label: string }[] } }>('runs.start', {
      skill: 'net-probe',
      mode: 'run',
      script: 'fetch.js',
      args: [],
    });
    expect(s.plan.rows.find((r) => r.id === 'network')!.label).toBe('enforced (bubblewrap)');
    const exit = await exitOf(s.runId);
    expect(exit.exitCode).toBe(7);
    expect(output(s.runId, 'stderr')).toMatch(/^network blocked: /);
  });

  it('cancels a run this window started, and no other', async () => {
    const s = await call<{ ok: true; runId: string }>('runs.start', {
      skill: 'slow',
      mode: 'run',
      script: 'slow.js',
      args: [],
    });
    const until = Date.now() + 20_000;
    while (!output(s.runId, 'stdout').includes('tick 2') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    const other = testSession(testPlatform(p.dataDir)).session;
    other.open(p.project);
    expect(await dispatch('runs.cancel', { runId: s.runId }, { session: other })).toEqual({
      ok: true,
      value: { cancelled: false },
    });
    other.dispose();
    expect(await call('runs.cancel', { runId: s.runId })).toEqual({ cancelled: true });
    const exit = await exitOf(s.runId);
    expect(exit.outcome).toBe('cancelled');
    expect(exit.durationMs).toBeLessThan(20_000);
  });

  it('runs a gate: its verdict script is found by itself, and the verdict follows the exit code', async () => {
    const t = await call<{ skills: { dir: string; mode: string | null; scripts: string[] }[] }>('runs.targets', {});
    expect(t.skills.find((s) => s.dir === 'check-gate')).toMatchObject({ mode: 'gate', scripts: ['gate.sh'] });
    const pass = await call<{ ok: true; runId: string; plan: { script: string } }>('runs.start', {
      skill: 'check-gate',
      mode: 'gate',
      args: ['pass'],
    });
    expect(pass.plan.script).toBe('scripts/gate.sh');
    expect(await exitOf(pass.runId)).toMatchObject({ exitCode: 0, verdict: 'pass' });
    const fail = await call<{ ok: true; runId: string }>('runs.start', {
      skill: 'check-gate',
      mode: 'gate',
      args: ['no'],
    });
    expect(await exitOf(fail.runId)).toMatchObject({
      exitCode: 1,
      verdict: 'fail',
      verdictDetail: 'the verdict script exited 1',
    });
    expect(await call('runs.plan', { skill: 'hello', mode: 'gate', args: [] })).toMatchObject({
      ok: false,
      refusal: { reason: 'not-a-gate' },
    });
  });

  it('an override plan is refused where the sandbox works', async () => {
    const a = await call<{ ok: boolean; refusal: { reason: string } }>('runs.plan', {
      skill: 'hello',
      mode: 'run',
      script: 'hello.sh',
      args: [],
      unconfined: true,
    });
    expect(a).toMatchObject({ ok: false, refusal: { reason: 'bad-request' } });
    expect(
      (
        await callError('runs.start', {
          skill: 'hello',
          mode: 'run',
          script: 'hello.sh',
          args: [],
          overrideToken: 'not-a-real-token',
        })
      ).code,
    ).toBe('forbidden');
  });
});

describe('runs where the sandbox cannot hold the restrictions', () => {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.SKILLSMITH_BWRAP;
    const fake = join(p.root, 'fake-bwrap');
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    process.env.SKILLSMITH_BWRAP = fake;
    pinAll(p.project);
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SKILLSMITH_BWRAP;
    else process.env.SKILLSMITH_BWRAP = saved;
  });
  const ask = { skill: 'hello', mode: 'run', script: 'hello.sh', args: [] as string[] };

  it('refuses the run with every label, and a plain start is refused (and logged) too', async () => {
    const a = await call<{
      ok: boolean;
      refusal: { reason: string; message: string; rows: { id: string; label: string }[] };
    }>('runs.plan', ask);
    expect(a.ok).toBe(false);
    expect(a.refusal.reason).toBe('unenforced');
    expect(a.refusal.rows.find((r) => r.id === 'network')!.label).toBe('advisory — not enforced here');
    // The app words it (SPEC D272): the override is the button beside it, not a flag.
    expect(a.refusal.message).toMatch(/cannot be enforced here — [^.]+$/);
    expect(JSON.stringify(a.refusal)).not.toMatch(/--[a-z]/);
    const s = await call<{ ok: boolean; refusal: { reason: string } }>('runs.start', ask);
    expect(s).toMatchObject({ ok: false, refusal: { reason: 'unenforced' } });
    const h = await call<{ records: { outcome: string; refused?: string }[] }>('runs.history', {
      skill: 'hello',
      limit: 1,
    });
    expect(h.records[0]).toMatchObject({
      outcome: 'refused',
      refused: expect.stringMatching(/cannot be enforced here/),
    });
    expect(h.records[0]!.refused).not.toMatch(/--unconfined/);
  });

  it('runs once unconfined only with the token of an override plan for exactly that run; the token is gone after one use', async () => {
    const o = await call<{
      ok: true;
      plan: { override: boolean; rows: { label: string }[]; argv: string[]; env: Record<string, string> };
      overrideToken: string;
    }>('runs.plan', { ...ask, unconfined: true });
    expect(o.plan.override).toBe(true);
    expect(
      o.plan.rows
        .filter((r) => r.label !== 'enforced (runner)')
        .every((r) => r.label === 'advisory — not enforced here'),
    ).toBe(true);
    expect(o.plan.env.HOME).toBeDefined();
    expect(o.overrideToken).toMatch(/^[0-9a-f-]{36}$/);
    // A token for another argv is refused — and spent.
    expect(
      (await callError('runs.start', { ...ask, args: ['other'], overrideToken: o.overrideToken })).message,
    ).toMatch(/different skill, script or arguments/);
    expect((await callError('runs.start', { ...ask, overrideToken: o.overrideToken })).message).toMatch(
      /already used or has expired/,
    );
    // Another window cannot use this window's token.
    const o2 = await call<{ overrideToken: string }>('runs.plan', { ...ask, unconfined: true });
    const other = testSession(testPlatform(p.dataDir)).session;
    other.open(p.project);
    const foreign = await dispatch('runs.start', { ...ask, overrideToken: o2.overrideToken }, { session: other });
    other.dispose();
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const o3 = await call<{ overrideToken: string }>('runs.plan', { ...ask, unconfined: true });
    const s = await call<{ ok: true; runId: string; plan: { override: boolean } }>('runs.start', {
      ...ask,
      overrideToken: o3.overrideToken,
    });
    expect(s.plan.override).toBe(true);
    expect((await exitOf(s.runId)).exitCode).toBe(3);
    const h = await call<{ records: { runId: string; override: boolean; backend: string }[] }>('runs.history', {
      skill: 'hello',
      limit: 1,
    });
    // The log keeps the command line's name for it; the app's history names what it did.
    expect(h.records[0]).toMatchObject({
      runId: s.runId,
      override: true,
      backend: 'none (run once without the sandbox)',
    });
    // Never remembered: the next plain start is refused again.
    expect(await call('runs.start', ask)).toMatchObject({ ok: false, refusal: { reason: 'unenforced' } });
    expect((await callError('runs.start', { ...ask, overrideToken: o3.overrideToken })).code).toBe('forbidden');
  });
});

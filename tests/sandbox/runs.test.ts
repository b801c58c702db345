/**
 * The runs service: integrity first, fail closed, the one-time override, cancel, gate
 * verdicts from exit codes and schema-validated artifacts, and the audit log.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAudit } from '../../main/services/runs/audit';
import { prepareRun } from '../../main/services/runs/service';
import { LABEL } from '../../main/services/sandbox/types';
import { bwrapWorks, cleanup, fakeBwrap, installSkills, NODE_SHEBANG, project, run, tempDir } from './helpers';

const ok = await bwrapWorks();
afterAll(cleanup);

const fakeHost = () => ({
  platform: 'linux' as const,
  bwrapPath: fakeBwrap(tempDir('skillsmith-fake-')),
  sandboxExecPath: '/nonexistent',
});
const HELLO = { scripts: { 'hello.sh': '#!/bin/sh\necho "hello $*"\n' } };

describe('integrity first', () => {
  it('a skill whose files changed since it was pinned refuses to run, says it drifted, and logs the refusal', async () => {
    const root = project({ hello: HELLO });
    appendFileSync(join(root, '.kitbash/skills/hello/scripts/hello.sh'), 'touch "$KITBASH_PROJECT_ROOT/ran"\n');
    const r = await run({ projectRoot: root, skill: 'hello', script: 'hello.sh' });
    expect(r.result.outcome).toBe('refused');
    expect(r.result.refusal?.reason).toBe('integrity');
    expect(r.result.refusal?.message).toMatch(/hello drifted since it was reviewed/);
    expect(r.events.map((e) => e.type)).toEqual(['refused']);
    expect(existsSync(join(root, 'ran'))).toBe(false);
    expect(readAudit(root)).toMatchObject([
      { skill: 'hello', outcome: 'refused', refused: expect.stringMatching(/drifted/) },
    ]);
  });

  it('an installed skill with no kitbash.lock, or not pinned in it, refuses to run', async () => {
    const root = tempDir('skillsmith-sbx-');
    installSkills(root, { hello: HELLO }, { pin: false });
    const r = await run({ projectRoot: root, skill: 'hello', script: 'hello.sh' });
    expect(r.result.refusal).toMatchObject({
      reason: 'integrity',
      message: expect.stringMatching(/kitbash\.lock is missing/),
    });
  });

  it('a name that is not installed is refused with the installed names, and nothing is logged', async () => {
    const root = project({ hello: HELLO });
    const r = await run({ projectRoot: root, skill: 'nope', script: 'x' });
    expect(r.result.refusal).toMatchObject({
      reason: 'not-installed',
      message: expect.stringMatching(/installed: hello/),
    });
    expect(readAudit(root)).toEqual([]);
  });
});

describe('the project folder', () => {
  it('may not be, or contain, the home folder the sandbox hides', async () => {
    const home = tempDir('skillsmith-home-');
    installSkills(home, { hello: HELLO });
    const r = await run(
      { projectRoot: home, skill: 'hello', script: 'hello.sh' },
      { parentEnv: { PATH: process.env.PATH, HOME: join(home, 'sub') } },
    );
    expect(r.result.refusal).toMatchObject({
      reason: 'bad-request',
      message: expect.stringMatching(/is or contains the home folder .*\/sub — a run would expose it/),
    });
  });
});

describe('project policy', () => {
  it('a run re-checks deny_network and deny_write from kitbash.toml', async () => {
    const root = project({ net: { ...HELLO, toml: '[permissions]\nnetwork = true\nwrite = true\n' }, hello: HELLO });
    writeFileSync(join(root, 'kitbash.toml'), '[policy]\ndeny_network = true\ndeny_write = true\n');
    const r = await run({ projectRoot: root, skill: 'net', script: 'hello.sh' });
    expect(r.result.refusal).toEqual({
      reason: 'policy',
      message:
        'refusing to run: net declares network permission and deny_network = true; net declares write permission and deny_write = true (kitbash.toml [policy])',
    });
    expect(
      (await run({ projectRoot: root, skill: 'hello', script: 'hello.sh' }, { host: fakeHost() })).result.refusal
        ?.reason,
    ).toBe('unenforced');
  });
});

describe('fail closed when bubblewrap is absent or fails', () => {
  it('refuses the run, naming every restriction that cannot be held and why', async () => {
    const root = project({ hello: HELLO });
    const r = await run({ projectRoot: root, skill: 'hello', script: 'hello.sh' }, { host: fakeHost() });
    expect(r.result.refusal?.reason).toBe('unenforced');
    expect(r.result.refusal?.message).toMatch(
      /network, unix-sockets, filesystem, skill-folder, home, environment, privileges cannot be enforced here — bwrap cannot create a user namespace/,
    );
    const refused = r.events[0];
    expect(
      refused?.type === 'refused' && refused.rows?.filter((x) => x.required).every((x) => x.label === LABEL.advisory),
    ).toBe(true);
    expect(readAudit(root).at(-1)).toMatchObject({
      outcome: 'refused',
      backend: 'bubblewrap',
      enforcement: { network: LABEL.advisory },
    });
  });

  it('a missing bwrap binary is reported as not installed', async () => {
    const root = project({ hello: HELLO });
    const r = await run(
      { projectRoot: root, skill: 'hello', script: 'hello.sh' },
      { host: { platform: 'linux', bwrapPath: join(tempDir('skillsmith-none-'), 'bwrap'), sandboxExecPath: '/x' } },
    );
    expect(r.result.refusal?.message).toMatch(/bubblewrap is not installed/);
  });

  it('an OS with no backend refuses too', async () => {
    const root = project({ hello: HELLO });
    const r = await run(
      { projectRoot: root, skill: 'hello', script: 'hello.sh' },
      { host: { platform: 'win32', bwrapPath: '/x', sandboxExecPath: '/x' } },
    );
    expect(r.result.refusal?.message).toMatch(/no OS sandbox is available for win32/);
  });

  it('--unconfined runs it once, shows every restriction as advisory, and is logged as an override', async () => {
    const root = project({ hello: HELLO });
    const r = await run(
      { projectRoot: root, skill: 'hello', script: 'hello.sh', args: ['there'], unconfined: true },
      { host: fakeHost() },
    );
    expect(r.stdout).toBe('hello there\n');
    const started = r.events[0];
    expect(started?.type).toBe('started');
    if (started?.type !== 'started') return;
    expect(started.plan.override).toBe(true);
    expect(started.plan.argv.at(-1)).toBe('there');
    expect(
      started.plan.rows.filter((x) => x.id !== 'output' && x.id !== 'pinning').every((x) => x.label === LABEL.advisory),
    ).toBe(true);
    expect(readAudit(root).at(-1)).toMatchObject({
      override: true,
      outcome: 'exited',
      exitCode: 0,
      backend: 'none (--unconfined)',
    });
    // Never remembered: the next run without the flag is refused again.
    const again = await run({ projectRoot: root, skill: 'hello', script: 'hello.sh' }, { host: fakeHost() });
    expect(again.result.refusal?.reason).toBe('unenforced');
  });

  it.skipIf(!ok)('--unconfined is refused where the sandbox works (nothing to override)', async () => {
    const root = project({ hello: HELLO });
    const r = await run({ projectRoot: root, skill: 'hello', script: 'hello.sh', unconfined: true });
    expect(r.result.refusal).toMatchObject({
      reason: 'bad-request',
      message: expect.stringMatching(/only for a machine that cannot enforce/),
    });
  });
});

describe.skipIf(!ok)('runs', () => {
  it('streams output as it comes and can be cancelled with an AbortSignal', async () => {
    const root = project({ slow: { scripts: { 'slow.sh': '#!/bin/sh\necho first\nsleep 30\necho never\n' } } });
    const controller = new AbortController();
    const t0 = Date.now();
    const p = run({ projectRoot: root, skill: 'slow', script: 'slow.sh' }, {}, controller.signal);
    await new Promise((r) => setTimeout(r, 700));
    controller.abort();
    const r = await p;
    expect(r.result.outcome).toBe('cancelled');
    // The first line arrived before the cancel: output is live, not buffered to the end.
    expect(r.events.map((e) => e.type)).toEqual(['started', 'stdout', 'exit']);
    expect(r.stdout).toBe('first\n');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(readAudit(root).at(-1)).toMatchObject({ outcome: 'cancelled' });
  });

  it('events come in order: started, output, exit', async () => {
    const root = project({ hello: HELLO });
    const r = await run({ projectRoot: root, skill: 'hello', script: 'hello.sh', args: ['a b'] });
    expect(r.events.map((e) => e.type)).toEqual(['started', 'stdout', 'exit']);
    expect(r.stdout).toBe('hello a b\n');
  });

  it('every run is one line of .kitbash/runs.jsonl with what ran and how it was confined', async () => {
    const root = project({ hello: { ...HELLO, toml: '[permissions]\ntools = ["bash:git *"]\n' } });
    await run({ projectRoot: root, skill: 'hello', script: 'hello.sh', args: ['x'] });
    await run({ projectRoot: root, skill: 'hello', script: 'scripts/hello.sh', args: ['y'] });
    const lock = readFileSync(join(root, 'kitbash.lock'), 'utf8');
    const log = readAudit(root);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      skill: 'hello',
      version: '1.0.0',
      mode: 'run',
      script: 'scripts/hello.sh',
      backend: 'bubblewrap',
      override: false,
      outcome: 'exited',
      exitCode: 0,
      enforcement: {
        network: LABEL.bubblewrap,
        filesystem: LABEL.bubblewrap,
        tools: LABEL.advisory,
        output: LABEL.runner,
      },
      tools: ['bash:git *'],
    });
    expect(lock).toContain(log[0]!.integrity!);
    expect(log[0]!.argv.at(-1)).toBe('x');
    expect(log[1]!.argv.at(-1)).toBe('y');
    expect(Number.isNaN(Date.parse(log[0]!.time))).toBe(false);
    expect(typeof log[0]!.durationMs).toBe('number');
  });

  it('a script that is not executable runs through its #! line or its extension; an unknown kind is refused', async () => {
    const root = project({
      kinds: {
        scripts: {
          'a.js': `${NODE_SHEBANG}console.log('node ' + process.argv.length)`,
          'b.sh': 'echo sh',
          'c.txt': 'echo nope',
        },
        plain: ['a.js', 'b.sh', 'c.txt'],
      },
    });
    expect((await run({ projectRoot: root, skill: 'kinds', script: 'a.js' })).stdout).toBe('node 2\n');
    expect((await run({ projectRoot: root, skill: 'kinds', script: 'b.sh' })).stdout).toBe('sh\n');
    expect((await run({ projectRoot: root, skill: 'kinds', script: 'c.txt' })).result.refusal?.message).toMatch(
      /not executable and has no #! line/,
    );
  });

  it('a script outside scripts/ or a missing one is refused, naming what exists', async () => {
    const root = project({ hello: HELLO });
    expect((await run({ projectRoot: root, skill: 'hello', script: '../SKILL.md' })).result.refusal?.message).toMatch(
      /not inside the skill's scripts\/ folder/,
    );
    expect((await run({ projectRoot: root, skill: 'hello', script: 'nope.sh' })).result.refusal?.message).toMatch(
      /no script "nope.sh" in scripts\/ \(have: hello.sh\)/,
    );
  });

  it('the script sees the project as its working directory and a private TMPDIR and HOME', async () => {
    const root = project({ where: { scripts: { 'w.sh': '#!/bin/sh\npwd\necho "$TMPDIR" "$HOME"\n' } } });
    const r = await run({ projectRoot: root, skill: 'where', script: 'w.sh' });
    const [cwd, dirs] = r.stdout.trim().split('\n');
    expect(cwd).toBe(root);
    expect(dirs).toMatch(/skillsmith-run-\w+\/scratch \S+skillsmith-run-\w+\/home$/);
  });

  it('the plan can be prepared without running (what an app shows before an override)', async () => {
    const root = project({ hello: HELLO });
    const p = await prepareRun(
      { projectRoot: root, skill: 'hello', mode: 'run', script: 'hello.sh', args: [] },
      { host: fakeHost() },
    );
    expect(p.ok).toBe(false);
    const q = await prepareRun(
      { projectRoot: root, skill: 'hello', mode: 'run', script: 'hello.sh', args: [], unconfined: true },
      { host: fakeHost() },
    );
    expect(q.ok && q.value.plan.override).toBe(true);
    expect(readAudit(root)).toEqual([]);
  });
});

const FINDINGS = (errors: number, producer = 'review@1.0.0') =>
  JSON.stringify({
    artifact: 'findings@1',
    skill: producer,
    created: '2026-12-01T10:00:00Z',
    findings: [
      ...Array.from({ length: errors }, (_, i) => ({
        severity: 'error',
        rule: 'no-todo',
        message: `todo ${i}`,
        file: 'a.ts',
        lines: { start: 1 },
      })),
      { severity: 'note', rule: 'style', message: 'fine' },
    ],
  });

const writer = (body: string, code = 0) =>
  `#!/bin/sh\nmkdir -p "$KITBASH_ARTIFACTS_DIR"\ncat > "$KITBASH_ARTIFACTS_DIR/findings.json" <<'EOF'\n${body}\nEOF\nexit ${code}\n`;
const GATE = '[targets]\nmode = "gate"\n\n[artifacts]\nproduces = ["findings@1"]\n';

describe.skipIf(!ok)('gate mode', () => {
  const gate = (root: string, skill: string, extra: { script?: string } = {}) =>
    run({ projectRoot: root, skill, mode: 'gate', ...extra });

  it("a verdict script's exit code is the gate's verdict", async () => {
    const root = project({
      red: { toml: '[targets]\nmode = "gate"\n', scripts: { 'gate.sh': '#!/bin/sh\necho checking\nexit 4\n' } },
      green: { toml: '[targets]\nmode = "gate"\n', scripts: { 'gate.sh': '#!/bin/sh\nexit 0\n' } },
    });
    const red = await gate(root, 'red');
    expect(red.result).toMatchObject({ exitCode: 4, verdict: 'fail', verdictDetail: 'the verdict script exited 4' });
    expect((await gate(root, 'green')).result).toMatchObject({ exitCode: 0, verdict: 'pass' });
    expect(readAudit(root).map((r) => [r.skill, r.mode, r.verdict])).toEqual([
      ['red', 'gate', 'fail'],
      ['green', 'gate', 'pass'],
    ]);
  });

  it('a findings@1 artifact the script wrote is validated: no errors pass, an error finding fails, an invalid document fails', async () => {
    const root = project({
      review: { toml: GATE, scripts: { 'gate.sh': writer(FINDINGS(0)) } },
      strict: { toml: GATE, scripts: { 'gate.sh': writer(FINDINGS(2, 'strict@1.0.0')) } },
      broken: {
        toml: GATE,
        scripts: { 'gate.sh': writer('{"artifact":"findings@1","skill":"broken@1.0.0","findings":[]}') },
      },
      stranger: { toml: GATE, scripts: { 'gate.sh': writer(FINDINGS(0, 'someone-else@1.0.0')) } },
    });
    const pass = await gate(root, 'review');
    expect(pass.result).toMatchObject({
      verdict: 'pass',
      exitCode: 0,
      artifacts: [
        {
          ref: 'findings@1',
          file: '.kitbash/artifacts/findings.json',
          status: 'pass',
          detail: '0 errors, 0 warnings, 1 note',
        },
      ],
    });
    const fail = await gate(root, 'strict');
    expect(fail.result).toMatchObject({
      verdict: 'fail',
      exitCode: 0,
      artifacts: [{ status: 'fail', detail: '2 errors, 0 warnings, 1 note' }],
    });
    const invalid = await gate(root, 'broken');
    expect(invalid.result.verdict).toBe('fail');
    expect(invalid.result.artifacts?.[0]).toMatchObject({
      status: 'invalid',
      detail: expect.stringMatching(/does not match findings@1: .*created/),
    });
    const other = await gate(root, 'stranger');
    expect(other.result.artifacts?.[0]).toMatchObject({
      status: 'invalid',
      detail: expect.stringMatching(/not by this gate \(stranger@1.0.0\)/),
    });
  });

  it('a read-only gate may write .kitbash/artifacts/ but nothing else in the project', async () => {
    const root = project({
      review: {
        toml: GATE,
        scripts: {
          'gate.sh': `${writer(FINDINGS(0))}`.replace(
            /exit 0\n$/,
            'touch "$KITBASH_PROJECT_ROOT/elsewhere" 2>/dev/null && echo WROTE\nexit 0\n',
          ),
        },
      },
    });
    const r = await gate(root, 'review');
    expect(r.result.verdict).toBe('pass');
    expect(r.stdout).not.toContain('WROTE');
    expect(existsSync(join(root, 'elsewhere'))).toBe(false);
  });

  it("a script that exits 0 with no artifact anywhere fails; one already there (the agent's) is judged and marked as not from this run", async () => {
    const root = project({ review: { toml: GATE, scripts: { 'gate.sh': '#!/bin/sh\nexit 0\n' } } });
    const none = await gate(root, 'review');
    expect(none.result).toMatchObject({
      verdict: 'fail',
      verdictDetail:
        'no .kitbash/artifacts/findings.json (findings@1) to take the verdict from — the script did not write one',
    });
    mkdirSync(join(root, '.kitbash/artifacts'), { recursive: true });
    writeFileSync(join(root, '.kitbash/artifacts/findings.json'), FINDINGS(1));
    const earlier = await gate(root, 'review');
    expect(earlier.result).toMatchObject({ verdict: 'fail', artifacts: [{ status: 'fail', fresh: false }] });
  });

  it('what the script writes in this run is judged, not an older document of the same type', async () => {
    const root = project({
      review: {
        toml: GATE,
        scripts: {
          'gate.sh': writer(FINDINGS(0))
            .replace('findings.json', 'findings/new.json')
            .replace('mkdir -p "$KITBASH_ARTIFACTS_DIR"', 'mkdir -p "$KITBASH_ARTIFACTS_DIR/findings"'),
        },
      },
    });
    mkdirSync(join(root, '.kitbash/artifacts'), { recursive: true });
    writeFileSync(join(root, '.kitbash/artifacts/findings.json'), FINDINGS(3));
    const r = await gate(root, 'review');
    // new.json has no id, so it is invalid — and it alone is judged; the old failing one is not.
    expect(r.result.artifacts).toEqual([
      expect.objectContaining({ file: '.kitbash/artifacts/findings/new.json', fresh: true }),
    ]);
  });

  it('a verify@1 verdict of fail fails the gate; <type>/<id>.json must carry its id', async () => {
    const verify = (verdict: string, status: string) =>
      JSON.stringify({
        artifact: 'verify@1',
        skill: 'checker@1.0.0',
        created: '2026-12-01T10:00:00Z',
        id: 'run-1',
        verdict,
        checks: [{ name: 'unit', status }],
      });
    const script = (body: string, file: string) =>
      `#!/bin/sh\nmkdir -p "$KITBASH_ARTIFACTS_DIR/verify"\ncat > "$KITBASH_ARTIFACTS_DIR/verify/${file}" <<'EOF'\n${body}\nEOF\n`;
    const toml = '[targets]\nmode = "gate"\n\n[artifacts]\nproduces = ["verify@1"]\n';
    const root = project({
      checker: {
        toml,
        scripts: {
          'gate.sh': script(verify('fail', 'fail'), 'run-1.json'),
          'pass.sh': script(verify('pass', 'pass'), 'run-1.json'),
          'misnamed.sh': script(verify('pass', 'pass'), 'other.json'),
        },
      },
    });
    expect((await gate(root, 'checker')).result).toMatchObject({
      verdict: 'fail',
      artifacts: [{ file: '.kitbash/artifacts/verify/run-1.json', status: 'fail' }],
    });
    expect((await gate(root, 'checker', { script: 'pass.sh' })).result.verdict).toBe('pass');
    expect((await gate(root, 'checker', { script: 'misnamed.sh' })).result.artifacts?.[0]).toMatchObject({
      status: 'invalid',
      detail: expect.stringMatching(/stored as other.json but its id is "run-1"/),
    });
  });

  it('a symlink in place of the artifact is not an artifact (it could point at any file the parent reads)', async () => {
    const secret = join(tempDir('skillsmith-secret-'), 'secret.json');
    writeFileSync(secret, FINDINGS(0));
    const root = project({
      review: {
        toml: GATE,
        scripts: {
          'gate.sh': `#!/bin/sh\nmkdir -p "$KITBASH_ARTIFACTS_DIR"\nln -s ${secret} "$KITBASH_ARTIFACTS_DIR/findings.json"\n`,
        },
      },
    });
    const r = await gate(root, 'review');
    expect(r.result).toMatchObject({
      verdict: 'fail',
      verdictDetail:
        'no .kitbash/artifacts/findings.json (findings@1) to take the verdict from — the script did not write one',
    });
  });

  it('a .kitbash/artifacts that is a symlink is refused before anything runs (it would be bound writable)', async () => {
    const elsewhere = tempDir('skillsmith-elsewhere-');
    const root = project({ review: { toml: GATE, scripts: { 'gate.sh': writer(FINDINGS(0)) } } });
    symlinkSync(elsewhere, join(root, '.kitbash/artifacts'));
    const r = await gate(root, 'review');
    expect(r.result.refusal?.message).toMatch(/^\.kitbash\/artifacts is a symlink or leaves the project/);
    expect(existsSync(join(elsewhere, 'findings.json'))).toBe(false);
  });

  it('an artifact that is not JSON is invalid, and its content is not echoed', async () => {
    const root = project({ review: { toml: GATE, scripts: { 'gate.sh': writer('root:x:0:0:SECRET') } } });
    const r = await gate(root, 'review');
    expect(r.result.artifacts?.[0]).toEqual({
      ref: 'findings@1',
      file: '.kitbash/artifacts/findings.json',
      status: 'invalid',
      detail: 'is not valid JSON',
      fresh: true,
    });
    expect(JSON.stringify(r.result)).not.toContain('SECRET');
  });

  it('a gate with no scripts takes its verdict from the produced artifact already there, running nothing', async () => {
    const root = project({ review: { toml: GATE } });
    const none = await gate(root, 'review');
    expect(none.result).toMatchObject({
      verdict: 'fail',
      verdictDetail: 'no .kitbash/artifacts/findings.json (findings@1) to take the verdict from',
    });
    mkdirSync(join(root, '.kitbash/artifacts'), { recursive: true });
    writeFileSync(join(root, '.kitbash/artifacts/findings.json'), FINDINGS(0));
    const r = await gate(root, 'review');
    expect(r.result).toMatchObject({ verdict: 'pass', exitCode: null });
    expect(r.events.some((e) => e.type === 'stdout')).toBe(false);
  });

  it('a gate with neither a script nor a produced artifact cannot run and says why', async () => {
    const root = project({ empty: { toml: '[targets]\nmode = "gate"\n' } });
    const r = await gate(root, 'empty');
    expect(r.result.refusal).toMatchObject({
      reason: 'no-verdict-source',
      message: expect.stringMatching(/no scripts\/ and no artifacts.produces/),
    });
  });

  it('several scripts and none named gate.* is ambiguous; a skill-mode skill is not a gate', async () => {
    const root = project({
      multi: { toml: '[targets]\nmode = "gate"\n', scripts: { 'a.sh': 'exit 0', 'b.sh': 'exit 0' } },
      plain: HELLO,
    });
    expect((await gate(root, 'multi')).result.refusal?.message).toMatch(
      /cannot tell which script gives the verdict \(scripts\/: a.sh, b.sh\)/,
    );
    expect((await gate(root, 'plain')).result.refusal).toMatchObject({ reason: 'not-a-gate' });
  });

  it('a produced type without a schema cannot be validated, so the gate refuses', async () => {
    const root = project({
      odd: {
        toml: '[targets]\nmode = "gate"\n\n[artifacts]\nproduces = ["custom@1"]\n',
        scripts: { 'gate.sh': 'exit 0' },
      },
    });
    expect((await gate(root, 'odd')).result.refusal?.message).toMatch(/custom@1, which has no schema/);
  });
});

/** `skillsmith sandbox probe`, `run` and `gate` driven through the built binary. */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAudit } from '../../main/services/runs/audit';
import { expectNoStack, requireBuiltCli } from '../cli/helpers';
import { runCli, skillsmithBin } from '../support/paths';
import { bwrapWorks, cleanup, fakeBwrap, NODE_SHEBANG, project, tempDir } from './helpers';

const ok = await bwrapWorks();
beforeAll(requireBuiltCli);
afterAll(cleanup);

const fake = (): string => fakeBwrap(tempDir('skillsmith-fake-'));
const HELLO = { scripts: { 'hello.sh': '#!/bin/sh\necho "hello $*"\nexit "${EXIT_WITH:-0}"\n' } };
const SNOOP = `${NODE_SHEBANG}
const fs = require('fs');
let found = 0;
for (const pid of fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'latin1').includes('SECRET_TOKEN=hunter2')) found++; } catch {}
}
console.log('env=' + (process.env.SECRET_TOKEN ?? 'unset') + ' proc=' + found);
`;

interface ProbeJson {
  backend: string;
  works: boolean;
  reason?: string;
  runsAllowed: boolean;
  restrictions: Array<{ id: string; label: string; required: boolean }>;
}

describe('sandbox probe', () => {
  it.skipIf(!ok)('tells the truth here: bubblewrap works and holds every OS restriction', () => {
    const r = runCli(['sandbox', 'probe', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as ProbeJson;
    expect(j).toMatchObject({ backend: 'bubblewrap', works: true, runsAllowed: true });
    const labels = Object.fromEntries(j.restrictions.map((x) => [x.id, x.label]));
    expect(labels).toMatchObject({
      network: 'enforced (bubblewrap)',
      filesystem: 'enforced (bubblewrap)',
      home: 'enforced (bubblewrap)',
      tools: 'advisory — not enforced here',
    });
    const human = runCli(['sandbox', 'probe']);
    expect(human.stdout).toMatch(/^sandbox: bubblewrap [\d.]+ \(\/usr\/bin\/bwrap\) — works here/);
    expect(human.stdout).toMatch(/^ {2}network +enforced \(bubblewrap\) +no network/m);
  });

  it.skipIf(!ok)(
    'shows how network and write read when granted; without pasta a network = true skill is refused, others run',
    () => {
      const j = JSON.parse(runCli(['sandbox', 'probe', '--json']).stdout) as ProbeJson & {
        granted: Array<{ id: string; label: string; what: string }>;
      };
      expect(j.granted.map((g) => g.id)).toEqual(['network', 'filesystem']);
      expect(j.granted[0]).toMatchObject({
        label: 'enforced (bubblewrap)',
        what: expect.stringMatching(/^the outside world only/),
      });
      const env = { SKILLSMITH_PASTA: '/nonexistent/pasta' };
      const human = runCli(['sandbox', 'probe'], { env });
      expect(human.stdout).toMatch(/^ {2}network +advisory — not enforced here +the outside world only/m);
      expect(human.stdout).toMatch(
        /a skill with network = true is refused here: pasta \(Debian package passt\) is not installed \(no \/nonexistent\/pasta\)/,
      );
      const root = project({ hello: HELLO, online: { ...HELLO, toml: '[permissions]\nnetwork = true\n' } });
      const refused = runCli(['run', 'online', 'hello.sh'], { cwd: root, env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /refusing to run online: network cannot be enforced here — network = true needs its own network namespace and pasta \(Debian package passt\) is not installed/,
      );
      expect(runCli(['run', 'hello', 'hello.sh'], { cwd: root, env }).code).toBe(0);
      // control: with pasta the same skill runs.
      const online = runCli(['run', 'online', 'hello.sh', '--', 'net'], { cwd: root });
      expect(online.stdout, `exit ${String(online.code)}: ${online.stderr}`).toBe('hello net\n');
    },
  );

  it.skipIf(!ok)('run limits are options; hitting the CPU cap ends the run with a message naming it', () => {
    const root = project({ spin: { scripts: { 'spin.sh': '#!/bin/sh\nwhile :; do :; done\n' } } });
    const r = runCli(
      [
        'run',
        'spin',
        'spin.sh',
        '--max-cpu',
        '1',
        '--max-memory',
        '64M',
        '--max-scratch',
        '1M',
        '--max-processes',
        '64',
        '--max-open-files',
        '64',
      ],
      { cwd: root },
    );
    expect(r.stderr).toMatch(/^■ the run hit its CPU-time limit \(1 s per process; --max-cpu\)$/m);
    const bad = runCli(['run', 'spin', 'spin.sh', '--max-memory', 'lots'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-memory lots: want a size such as 512M or 2G/);
  });

  it('with a failing bwrap: advisory labels, the cause, exit 1', () => {
    const env = { SKILLSMITH_BWRAP: fake() };
    const r = runCli(['sandbox', 'probe', '--json'], { env });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as ProbeJson;
    expect(j).toMatchObject({
      backend: 'bubblewrap',
      works: false,
      runsAllowed: false,
      reason: expect.stringMatching(/user namespace/),
    });
    expect(j.restrictions.filter((x) => x.required).every((x) => x.label === 'advisory — not enforced here')).toBe(
      true,
    );
    const human = runCli(['sandbox', 'probe'], { env });
    expect(human.stdout).toMatch(/not usable here: bwrap cannot create a user namespace/);
    expect(human.stdout).toMatch(/^ {2}network +advisory — not enforced here/m);
    expect(human.stdout).toMatch(/runs are refused here \(fail closed\)/);
  });

  it('with no bwrap at all: "not installed"', () => {
    const r = runCli(['sandbox', 'probe'], { env: { SKILLSMITH_BWRAP: '/nonexistent/bwrap' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bubblewrap is not installed (no /nonexistent/bwrap)');
  });

  it('usage errors exit 2', () => {
    for (const args of [['sandbox'], ['sandbox', 'probe', 'extra'], ['sandbox', 'probe', '--yaml']]) {
      const r = runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^skillsmith sandbox: /);
      expectNoStack(r);
    }
  });
});

describe('run', () => {
  it.skipIf(!ok)('runs a script live, passes its arguments, and exits with its code', () => {
    const root = project({ hello: HELLO });
    const r = runCli(['run', 'hello', 'hello.sh', '--', 'a', '--b'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hello a --b\n');
    expect(r.stderr).toMatch(
      /^▶ hello@1\.0\.0 scripts\/hello\.sh \(sha256-[0-9a-f]{12}…\) — sandbox: bubblewrap; advisory: (limit-processes, )?tools$/m,
    );
    expect(r.stderr).toMatch(/^■ exit 0 in \d+ ms$/m);
    const five = runCli(['run', 'hello', 'hello.sh', '--env', 'EXIT_WITH=5'], { cwd: root });
    expect(five.code, five.stderr).toBe(5);
    expect(readAudit(root).map((x) => x.exitCode)).toEqual([0, 5]);
  });

  it.skipIf(!ok)('a write-granted run prints what it applied and each refused path with why (escaped)', () => {
    const writes = {
      scripts: {
        'w.sh': [
          '#!/bin/sh',
          'echo review > REVIEW.md',
          'mkdir -p src/.git && echo "[core]" > src/.git/config',
          `touch "$(printf 'evil\\033]0;x\\007')"`,
          'exit 1',
        ].join('\n'),
      },
      toml: '[permissions]\nwrite = true\n',
    };
    const root = project({ writes });
    const r = runCli(['run', 'writes', 'w.sh'], { cwd: root });
    // A checker that exits 1 may have written its report: its changes are applied all the same.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^■ applied to the project: 3 changes$/m);
    expect(r.stderr).toMatch(/^ {2}\+ REVIEW\.md$/m);
    // The folder made to hold the refused .git is ordinary: applied, empty.
    expect(r.stderr).toMatch(/^ {2}\+ src\/$/m);
    expect(r.stderr).toMatch(/^ {2}\+ evil\\e\]0;x\\x07$/m);
    expect(r.stderr).toMatch(/^■ refused: 2 paths the run changed were not applied$/m);
    expect(r.stderr).toMatch(
      /^ {2}✗ src\/\.git\/config \(added\) — protected: \.git holds code or settings another program runs or reads later$/m,
    );
    expect(r.stderr).not.toContain('\x1b');
    expect(existsSync(join(root, 'REVIEW.md'))).toBe(true);
    expect(existsSync(join(root, 'src', '.git'))).toBe(false);
  });

  it('refuses with the reasons and exit 1 when the sandbox cannot be built', () => {
    const root = project({ hello: HELLO });
    const r = runCli(['run', 'hello', 'hello.sh'], { cwd: root, env: { SKILLSMITH_BWRAP: fake() } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^skillsmith run: refused — refusing to run hello: network, unix-sockets, filesystem, .* cannot be enforced here/m,
    );
    expect(r.stderr).toMatch(/^ {2}✗ network: no network — .* — advisory — not enforced here$/m);
  });

  it('--unconfined shows what runs without which restriction, then runs it once; the parent environment is then readable, as its label said', () => {
    const root = project({ snoop: { scripts: { 'snoop.js': SNOOP } } });
    const env = { SKILLSMITH_BWRAP: fake(), SECRET_TOKEN: 'hunter2' };
    const r = runCli(['run', 'snoop', 'snoop.js', '--unconfined'], { cwd: root, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /⚠ --unconfined: this one run goes ahead WITHOUT the OS sandbox \(bwrap cannot create a user namespace/,
    );
    expect(r.stderr).toMatch(/^ {2}command: \S+\/scripts\/snoop\.js$/m);
    expect(r.stderr).toMatch(/^ {2}env: +PATH=.* HOME=\S+ TMPDIR=\S+/m);
    expect(r.stderr).toMatch(/^ {4}- network: no network/m);
    expect(r.stderr).toMatch(/^ {4}- environment: /m);
    // The variable itself was not passed, but an unconfined script can read the parent's.
    expect(r.stdout).toMatch(/^env=unset proc=[1-9]/);
    expect(readAudit(root).at(-1)).toMatchObject({ override: true });
  });

  it.skipIf(!ok)('under bubblewrap the same script finds the secret nowhere', () => {
    const root = project({ snoop: { scripts: { 'snoop.js': SNOOP } } });
    const r = runCli(['run', 'snoop', 'snoop.js'], { cwd: root, env: { SECRET_TOKEN: 'hunter2' } });
    expect(r.stdout).toBe('env=unset proc=0\n');
    const passed = runCli(['run', 'snoop', 'snoop.js', '--env', 'SECRET_TOKEN'], {
      cwd: root,
      env: { SECRET_TOKEN: 'hunter2' },
    });
    expect(passed.stdout).toMatch(/^env=hunter2 /);
  });

  it.skipIf(!ok)('a timeout, a drifted skill and a flood are reported on stderr', () => {
    const root = project({
      hello: HELLO,
      slow: { scripts: { 'slow.sh': '#!/bin/sh\nsleep 30\n' } },
      loud: { scripts: { 'loud.sh': '#!/bin/sh\nhead -c 300000 /dev/zero | tr "\\0" y\n' } },
    });
    const t = runCli(['run', 'slow', 'slow.sh', '--timeout', '1'], { cwd: root });
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/^■ killed: ran past the timeout/m);
    const f = runCli(['run', 'loud', 'loud.sh', '--max-output', '1000'], { cwd: root });
    expect(f.stdout).toHaveLength(1000);
    expect(f.stderr).toContain('[skillsmith: stdout reached the 1000 bytes cap — the rest is dropped]');
    expect(f.stderr).toMatch(/^■ stdout truncated: 299000 bytes dropped$/m);
    appendFileSync(join(root, '.kitbash/skills/hello/SKILL.md'), 'changed\n');
    const d = runCli(['run', 'hello', 'hello.sh'], { cwd: root });
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/refused — hello drifted since it was reviewed/);
  });

  it.skipIf(!ok)('Ctrl-C cancels the run and kills the sandbox (exit 130)', async () => {
    const root = project({ slow: { scripts: { 'slow.sh': '#!/bin/sh\necho started\nsleep 30\n' } } });
    const child = spawn(process.execPath, [skillsmithBin, 'run', 'slow', 'slow.sh'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('started')) child.kill('SIGINT');
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(err).toMatch(/^■ cancelled after \d+ ms; the whole process tree was killed$/m);
    expect(readAudit(root).at(-1)).toMatchObject({ outcome: 'cancelled' });
  });

  it.skipIf(!ok)('the sandbox dies with the process that started it, even on SIGKILL', async () => {
    const root = project({
      late: {
        toml: '[permissions]\nwrite = true\n',
        scripts: { 'late.sh': '#!/bin/sh\necho started\nsleep 2\necho late > "$KITBASH_PROJECT_ROOT/late.txt"\n' },
      },
    });
    const child = spawn(process.execPath, [skillsmithBin, 'run', 'late', 'late.sh'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('started')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((r) => setTimeout(r, 3000));
    expect(existsSync(join(root, 'late.txt'))).toBe(false);
  });

  it('usage errors exit 2 with one line', () => {
    const root = project({ hello: HELLO });
    for (const args of [
      ['run', 'hello'],
      ['run', 'hello', 'hello.sh', '--timeout', 'soon'],
      ['run', 'hello', 'hello.sh', '--env', '1BAD'],
      ['run', 'hello', 'hello.sh', '--bogus'],
      ['run', 'hello', 'hello.sh', '--env', 'SURELY_UNSET_VAR_X'],
    ]) {
      const r = runCli(args, { cwd: root });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^skillsmith run: /);
    }
  });
});

describe.skipIf(!ok)('gate', () => {
  const toml = '[targets]\nmode = "gate"\n\n[artifacts]\nproduces = ["findings@1"]\n';
  const findings = (sev: string) =>
    JSON.stringify({
      artifact: 'findings@1',
      skill: 'review@1.0.0',
      created: '2026-12-01T10:00:00Z',
      findings: [{ severity: sev, rule: 'r1', message: 'something' }],
    });
  const script = `#!/bin/sh\n[ "$1" = crash ] && exit 9\nmkdir -p "$KITBASH_ARTIFACTS_DIR"\nprintf '%s' "$FINDINGS" > "$KITBASH_ARTIFACTS_DIR/findings.json"\n`;

  it("exits with the verdict script's code, 1 on a failing artifact, 0 on a passing one", () => {
    const root = project({ review: { toml, scripts: { 'gate.sh': script } } });
    const crash = runCli(['gate', 'review', '--', 'crash'], { cwd: root });
    expect(crash.code).toBe(9);
    expect(crash.stderr).toMatch(/^■ gate: fail — the verdict script exited 9$/m);
    const bad = runCli(['gate', 'review', '--env', `FINDINGS=${findings('error')}`], { cwd: root });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^ {2}✗ findings@1 \.kitbash\/artifacts\/findings\.json — 1 error, 0 warnings, 0 notes$/m,
    );
    expect(bad.stderr).toMatch(/^■ gate: fail — \.kitbash\/artifacts\/findings\.json fails: 1 error/m);
    const good = runCli(['gate', 'review', '--env', `FINDINGS=${findings('warning')}`], { cwd: root });
    expect(good.code).toBe(0);
    expect(good.stderr).toMatch(/^■ gate: pass$/m);
    const invalid = runCli(['gate', 'review', '--env', 'FINDINGS={"artifact":"findings@1"}'], { cwd: root });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/is invalid: does not match findings@1/);
  });

  it('a gate with nothing to ground a verdict in says why (exit 1); a skill-mode skill is not a gate', () => {
    const root = project({ empty: { toml: '[targets]\nmode = "gate"\n' }, hello: HELLO });
    const r = runCli(['gate', 'empty'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot give a verdict: it has no scripts\/ and no artifacts\.produces/);
    expect(runCli(['gate', 'hello'], { cwd: root }).stderr).toMatch(/not a gate-mode skill/);
  });

  it('an artifact-only gate validates what is there', () => {
    const root = project({ review: { toml } });
    mkdirSync(join(root, '.kitbash/artifacts'), { recursive: true });
    writeFileSync(join(root, '.kitbash/artifacts/findings.json'), findings('note'));
    const r = runCli(['gate', 'review'], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^▶ review@1\.0\.0 artifacts only \(no script\)/m);
  });
});

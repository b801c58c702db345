/**
 * The backends as text: the bwrap argv, the macOS Seatbelt profile, the probe's reading
 * of a failing bwrap, and the labels each backend earns. No sandbox needed.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapArgs, bwrapCommand, probeBwrap, usernsCause } from '../../main/services/sandbox/bwrap';
import { seccompSupported, unixSocketFilter } from '../../main/services/sandbox/seccomp';
import { policyFromManifest, restrictionRows, unenforced } from '../../main/services/sandbox/policy';
import { probeBackend, probeReport } from '../../main/services/sandbox/probe';
import { seatbeltProfile, sandboxExecCommand } from '../../main/services/sandbox/seatbelt';
import { LABEL, type SandboxPolicy } from '../../main/services/sandbox/types';
import { cleanup, fakeBwrap, tempDir } from './helpers';

afterAll(cleanup);

function policy(
  perm: { network?: boolean; write?: boolean; produces?: string[] } = {},
  over: Partial<SandboxPolicy> = {},
): SandboxPolicy {
  return {
    ...policyFromManifest({
      manifest: {
        permissions: { tools: ['bash:git *'], network: perm.network ?? false, write: perm.write ?? false },
        artifacts: { produces: perm.produces ?? [], consumes: [] },
      },
      workspace: '/home/dev/proj',
      skillDir: '/home/dev/proj/.kitbash/skills/demo',
      scratchDir: '/tmp/skillsmith-run-x/scratch',
      homeDir: '/tmp/skillsmith-run-x/home',
      parentEnv: {
        PATH: '/usr/bin:/bin',
        LANG: 'C.UTF-8',
        TERM: 'xterm',
        AWS_SECRET_ACCESS_KEY: 'no',
        HOME: '/home/dev',
      },
      passEnv: { CI: '1' },
      hiddenHomes: ['/home/dev', '/home/dev', '/'],
    }),
    ...over,
  };
}

const all = () => true;
/** Index of a flag sequence in an argv. */
const at = (a: string[], ...seq: string[]): number => a.findIndex((_, i) => seq.every((s, j) => a[i + j] === s));

describe('policy', () => {
  it('keeps only the allowlisted environment plus what the run passes and its own folders', () => {
    expect(policy().env).toEqual({
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      HOME: '/tmp/skillsmith-run-x/home',
      TMPDIR: '/tmp/skillsmith-run-x/scratch',
      KITBASH_PROJECT_ROOT: '/home/dev/proj',
      KITBASH_SKILL_DIR: '/home/dev/proj/.kitbash/skills/demo',
      KITBASH_ARTIFACTS_DIR: '/home/dev/proj/.kitbash/artifacts',
      CI: '1',
    });
  });

  it('omitted permissions read as the most restrictive; a producer may write only .kitbash/artifacts', () => {
    const p = policy({ produces: ['findings@1'] });
    expect([p.network, p.write]).toEqual([false, false]);
    expect(p.extraWritable).toEqual(['/home/dev/proj/.kitbash/artifacts']);
    expect(policy().extraWritable).toEqual([]);
    expect(p.hiddenHomes).toEqual(['/home/dev']);
  });
});

describe('bubblewrap argv', () => {
  const none = (): undefined => undefined;
  const opts = { exists: all, readlink: none, list: () => [] };

  it('unshares everything (the network too, always), drops every capability, dies with its parent, and runs the supervisor', () => {
    for (const network of [false, true]) {
      const a = bwrapArgs(policy({ network }), ['/x/scripts/run.sh', 'arg one'], opts);
      expect(a.slice(0, 5)).toEqual(['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']);
      expect(a).not.toContain('--share-net');
      expect(a.slice(-5)).toEqual([
        '-c',
        expect.stringContaining('stray'),
        'skillsmith-run',
        '/x/scripts/run.sh',
        'arg one',
      ]);
      expect(at(a, '--chdir', '/home/dev/proj')).toBeGreaterThan(0);
      // bwrap reports its child on fd 5 and waits on fd 6 until the cgroup and the link are set up.
      expect(at(a, '--info-fd', '5', '--block-fd', '6')).toBeGreaterThan(0);
    }
  });

  it('the root holds only system folders (read-only), never / itself; the root goes read-only after every mount', () => {
    const a = bwrapArgs(policy(), ['x'], opts);
    expect(at(a, '--ro-bind', '/', '/')).toBe(-1);
    for (const d of ['/usr', '/etc', '/lib']) expect(at(a, '--ro-bind', d, d)).toBeGreaterThan(0);
    expect(a.join(' ')).not.toMatch(/--(ro-)?bind \/(run|var|srv|mnt|media|root|home) /);
    const linked = bwrapArgs(policy(), ['x'], {
      ...opts,
      readlink: (p: string) => (p === '/bin' ? 'usr/bin' : undefined),
    });
    expect(at(linked, '--symlink', 'usr/bin', '/bin')).toBeGreaterThan(0);
    expect(a.lastIndexOf('--remount-ro')).toBeGreaterThan(a.lastIndexOf('--tmpfs'));
    expect(a[a.lastIndexOf('--remount-ro') + 1]).toBe('/');
  });

  it('covers /etc secrets and ssh host keys; PATH folders outside homes are visible, those inside are not', () => {
    const a = bwrapArgs(
      policy({}, { env: { PATH: '/usr/bin:/nix/bin:/home/dev/.cargo/bin:/root/bin:/tmp/x' } }),
      ['x'],
      { ...opts, list: () => ['ssh_host_ed25519_key', 'ssh_host_ed25519_key.pub', 'ssh_config'] },
    );
    for (const f of ['/etc/shadow', '/etc/gshadow', '/etc/ssh/ssh_host_ed25519_key'])
      expect(at(a, '--ro-bind', '/dev/null', f)).toBeGreaterThan(at(a, '--ro-bind', '/etc', '/etc'));
    expect(a).not.toContain('/etc/ssh/ssh_host_ed25519_key.pub');
    expect(at(a, '--ro-bind', '/nix/bin', '/nix/bin')).toBeGreaterThan(0);
    for (const p of ['/home/dev/.cargo/bin', '/root/bin', '/tmp/x']) expect(a).not.toContain(p);
  });

  it('scratch, HOME and /tmp are size-capped tmpfs; nothing of the run is written to the host', () => {
    const a = bwrapArgs(policy({}, { limits: { ...policy().limits, scratchBytes: 1234 } }), ['x'], opts);
    for (const d of ['/tmp', '/tmp/skillsmith-run-x/scratch', '/tmp/skillsmith-run-x/home'])
      expect(at(a, '--size', '1234', '--tmpfs', d)).toBeGreaterThan(0);
    expect(a).not.toContain('--bind-try');
    expect(at(a, '--bind', '/tmp/skillsmith-run-x/home', '/tmp/skillsmith-run-x/home')).toBe(-1);
  });

  it('write = false binds the workspace read-only; write = true binds its staged copy over it, the protected entries read-only after that', () => {
    const ro = bwrapArgs(policy(), ['x'], opts);
    expect(at(ro, '--ro-bind', '/home/dev/proj', '/home/dev/proj')).toBeGreaterThan(0);
    expect(ro.filter((v) => v === '--bind')).toEqual([]);
    const stage = { dir: '/tmp/skillsmith-run-x/stage', bound: ['/home/dev/proj/.git', '/home/dev/proj/.kitbash'] };
    const w = bwrapArgs(policy({ write: true }, { stage }), ['x'], opts);
    const ws = at(w, '--ro-bind', '/home/dev/proj', '/home/dev/proj');
    const staged = at(w, '--bind', stage.dir, '/home/dev/proj');
    expect(ws).toBeGreaterThan(0);
    expect(staged).toBeGreaterThan(ws);
    expect(at(w, '--ro-bind', '/home/dev/proj/.git', '/home/dev/proj/.git')).toBeGreaterThan(staged);
    expect(at(w, '--ro-bind', '/home/dev/proj/.kitbash', '/home/dev/proj/.kitbash')).toBeGreaterThan(staged);
    expect(
      at(w, '--ro-bind', '/home/dev/proj/.kitbash/skills/demo', '/home/dev/proj/.kitbash/skills/demo'),
    ).toBeGreaterThan(staged);
    expect(at(w, '--bind', '/home/dev/proj', '/home/dev/proj')).toBe(-1);
  });

  it('the artifacts folder is bound writable after the read-only workspace', () => {
    const a = bwrapArgs(policy({ produces: ['findings@1'] }), ['x'], opts);
    expect(at(a, '--bind', '/home/dev/proj/.kitbash/artifacts', '/home/dev/proj/.kitbash/artifacts')).toBeGreaterThan(
      at(a, '--ro-bind', '/home/dev/proj', '/home/dev/proj'),
    );
  });

  it('network = true gets the generated resolv.conf over the real one; no network, none', () => {
    const resolv = { file: '/tmp/skillsmith-run-x/resolv.conf', target: '/run/systemd/resolve/stub-resolv.conf' };
    expect(
      at(bwrapArgs(policy({ network: true }), ['x'], { ...opts, resolv }), '--ro-bind', resolv.file, resolv.target),
    ).toBeGreaterThan(0);
    expect(bwrapArgs(policy(), ['x'], { ...opts, resolv })).not.toContain(resolv.file);
  });

  it('the supervisor sets the rlimits before the script; RLIMIT_NPROC only when it binds', () => {
    const a = bwrapArgs(policy(), ['x'], opts);
    const sup = a[a.indexOf('-c') + 1]!;
    expect(sup).toContain('lim both -n 1024 && lim both -t 305 && lim soft -t 300 && lim both -d 2097152 ||');
    expect(sup).not.toContain(' -u ');
    const b = bwrapArgs(policy(), ['x'], { ...opts, nproc: true });
    expect(b[b.indexOf('-c') + 1]).toContain('lim both -u 256');
  });

  it('clears the environment and sets exactly the policy variables', () => {
    const a = bwrapArgs(policy(), ['x'], opts);
    const sets: string[] = [];
    a.forEach((v, i) => v === '--setenv' && sets.push(a[i + 1]!));
    expect(a).toContain('--clearenv');
    expect(sets.sort()).toEqual(Object.keys(policy().env).sort());
    expect(a.join(' ')).not.toContain('AWS_SECRET');
  });
});

describe('macOS sandbox-exec profile', () => {
  it('denies by default, reads everything but the real home, writes only scratch and its home', () => {
    const { profile, params } = seatbeltProfile(policy());
    expect(profile.split('\n')).toEqual([
      '(version 1)',
      '(deny default)',
      '(allow process-exec)',
      '(allow process-fork)',
      '(allow signal (target same-sandbox))',
      '(allow process-info* (target same-sandbox))',
      '(allow sysctl-read)',
      '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger"))',
      '(allow file-read*)',
      '(deny file-read* (subpath (param "HIDDEN_HOME_0")))',
      '(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "SKILL_DIR")) (subpath (param "SCRATCH")) (subpath (param "RUN_HOME")))',
      '(allow file-write* (subpath (param "SCRATCH")) (subpath (param "RUN_HOME")))',
      '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/stdout") (literal "/dev/stderr"))',
      `(deny file-write* (subpath (param "SKILL_DIR")) ${policy()
        .readOnlyInWorkspace.map((_, i) => `(subpath (param "READ_ONLY_${i}"))`)
        .join(' ')})`,
      '',
    ]);
    expect(params).toMatchObject({
      WORKSPACE: '/home/dev/proj',
      SKILL_DIR: '/home/dev/proj/.kitbash/skills/demo',
      HIDDEN_HOME_0: '/home/dev',
    });
    expect(Object.values(params)).toEqual(
      expect.arrayContaining([
        '/home/dev/proj/.kitbash',
        '/home/dev/proj/.mcp.json',
        '/home/dev/proj/.claude',
        '/home/dev/proj/.husky',
      ]),
    );
    expect(profile).not.toContain('network');
  });

  it('write = true makes only the staged copy writable, never the project; the run works in the copy', () => {
    const stage = { dir: '/tmp/skillsmith-run-x/stage', bound: [] };
    const p = policy({ write: true }, { stage });
    const { profile, params } = seatbeltProfile(p);
    const lines = profile.split('\n');
    const w = lines.findIndex((l) => l.startsWith('(allow file-write*') && l.includes('STAGE'));
    expect(w).toBeGreaterThan(0);
    expect(params.STAGE).toBe(stage.dir);
    expect(lines.some((l) => l.startsWith('(allow file-write*') && l.includes('WORKSPACE'))).toBe(false);
    const cmd = sandboxExecCommand(p, ['/bin/echo'], '/usr/bin/sandbox-exec', (x) => x);
    expect(cmd.cwd).toBe(stage.dir);
    expect(cmd.env.KITBASH_PROJECT_ROOT).toBe(stage.dir);
    // Without write, the project is the working folder and nothing of it is writable.
    const ro = sandboxExecCommand(policy(), ['/bin/echo'], '/usr/bin/sandbox-exec', (x) => x);
    expect(ro.cwd).toBe('/home/dev/proj');
    expect(ro.args[1]).not.toContain('STAGE');
  });

  it('network = true allows sockets and the DNS service; produces re-allows the artifacts folder after the read-only islands', () => {
    const { profile } = seatbeltProfile(policy({ network: true, produces: ['findings@1'] }));
    expect(profile).toContain('(allow network*)\n');
    expect(profile).toContain('com.apple.mDNSResponder');
    const lines = profile.trim().split('\n');
    const deny = lines.findIndex((l) => l.startsWith('(deny file-write*'));
    expect(
      lines.findIndex((l, i) => i > deny && l === '(allow file-write* (subpath (param "WRITABLE_0")))'),
    ).toBeGreaterThan(deny);
  });

  it('paths travel as -D parameters, so a quote in a path cannot change the profile', () => {
    const evil = '/Users/a") (allow default) ("';
    const cmd = sandboxExecCommand(policy({}, { workspace: evil }), ['/bin/echo', 'hi']);
    const profile = cmd.args[1]!;
    expect(profile).not.toContain('allow default');
    expect(cmd.args).toContain(`WORKSPACE=${evil}`);
    expect(cmd.args.slice(-2)).toEqual(['/bin/echo', 'hi']);
    expect(cmd.file).toBe('/usr/bin/sandbox-exec');
  });
});

describe('probe', () => {
  it('names the user-namespace restriction when bwrap fails the way Ubuntu 24.04 makes it fail', async () => {
    const s = await probeBwrap({
      bwrapPath: fakeBwrap(tempDir('skillsmith-fake-')),
      readSysctl: (p) => (p.endsWith('apparmor_restrict_unprivileged_userns') ? '1' : undefined),
    });
    expect(s).toMatchObject({
      backend: 'bubblewrap',
      works: false,
      detail: 'bwrap: setting up uid map: Permission denied',
    });
    expect(s.reason).toMatch(/user namespace.*apparmor_restrict_unprivileged_userns = 1 \(Ubuntu/);
  });

  it('reads the other kernel knobs, and says so when none explains it', () => {
    expect(usernsCause((p) => (p.endsWith('unprivileged_userns_clone') ? '0' : undefined))).toMatch(
      /unprivileged_userns_clone = 0/,
    );
    expect(usernsCause((p) => (p.endsWith('max_user_namespaces') ? '0' : undefined))).toMatch(
      /max_user_namespaces = 0/,
    );
    expect(usernsCause(() => undefined)).toMatch(/container or security policy/);
  });

  it('a bwrap that fails for another reason is reported with what it printed', async () => {
    const s = await probeBwrap({ bwrapPath: fakeBwrap(tempDir('skillsmith-fake-'), 'broken') });
    expect(s).toMatchObject({
      works: false,
      reason: 'a trivial sandboxed command failed (exit 1)',
      detail: 'bwrap: something unexpected went wrong',
    });
  });

  it('a missing binary is "not installed"; another OS has no backend', async () => {
    expect((await probeBwrap({ bwrapPath: '/nonexistent/bwrap' })).reason).toBe(
      'bubblewrap is not installed (no /nonexistent/bwrap)',
    );
    expect(await probeBackend({ platform: 'win32', bwrapPath: '/x', sandboxExecPath: '/x' })).toMatchObject({
      backend: 'none',
      works: false,
    });
  });

  it("describes a skill's own permissions when given them", async () => {
    const r = await probeReport(
      { platform: 'linux', bwrapPath: fakeBwrap(tempDir('skillsmith-fake-')), sandboxExecPath: '/x' },
      { permissions: { network: true, write: true, tools: ['read'] }, producesArtifacts: true },
    );
    expect(r.rows.find((x) => x.id === 'network')?.what).toMatch(
      /^the outside world only \(permissions.network = true\).*no route to this machine's loopback or its own addresses, nor to link-local ones \(fe80::\/10, 169\.254\.0\.0\/16\); names resolve only through resolvers outside this machine$/,
    );
    expect(r.rows.find((x) => x.id === 'filesystem')?.what).toMatch(
      /^the run writes a staged copy of the project \(permissions.write = true\) and \.kitbash\/artifacts\/; afterwards its new, changed and deleted files and folders are applied, anywhere in the project, except — at any depth — .*\.claude.*\.mcp\.json.*\.npmrc.*kitbash\.\*/,
    );
    expect(r.rows.find((x) => x.id === 'tools')?.what).toContain('"read"');
  });

  it('a failing probe labels every OS restriction advisory, so runs are refused', async () => {
    const r = await probeReport({
      platform: 'linux',
      bwrapPath: fakeBwrap(tempDir('skillsmith-fake-')),
      sandboxExecPath: '/x',
    });
    expect(r.rows.filter((x) => x.id !== 'output' && x.id !== 'pinning').every((x) => x.label === LABEL.advisory)).toBe(
      true,
    );
    expect(unenforced(r.rows).map((x) => x.id)).toEqual([
      'network',
      'unix-sockets',
      'filesystem',
      'skill-folder',
      'home',
      'environment',
      'privileges',
    ]);
  });
});

describe('labels', () => {
  const p = policy();
  it("a working bubblewrap holds every OS row; tools stay advisory and output is the runner's", () => {
    const rows = restrictionRows({ backend: 'bubblewrap', works: true, cgroup: { pids: true, memory: false } }, p);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.label]))).toEqual({
      network: LABEL.bubblewrap,
      'unix-sockets': LABEL.bubblewrap,
      filesystem: LABEL.bubblewrap,
      reading: LABEL.bubblewrap,
      'skill-folder': LABEL.bubblewrap,
      pinning: LABEL.runner,
      home: LABEL.bubblewrap,
      environment: LABEL.bubblewrap,
      processes: LABEL.bubblewrap,
      'limit-processes': LABEL.cgroup,
      'limit-files': LABEL.rlimit,
      'limit-cpu': LABEL.rlimit,
      'limit-memory': LABEL.rlimit,
      'limit-scratch': LABEL.bubblewrap,
      privileges: LABEL.bubblewrap,
      output: LABEL.runner,
      tools: LABEL.advisory,
    });
    expect(rows.find((r) => r.id === 'tools')?.what).toContain('"bash:git *"');
    expect(unenforced(rows)).toEqual([]);
  });

  it('sandbox-exec cannot kill a detached grandchild: processes is advisory but does not block the run', () => {
    const rows = restrictionRows({ backend: 'sandbox-exec', works: true }, p);
    expect(rows.find((r) => r.id === 'processes')?.label).toBe(LABEL.advisory);
    expect(rows.find((r) => r.id === 'network')?.label).toBe(LABEL['sandbox-exec']);
    expect(unenforced(rows)).toEqual([]);
  });

  it('network = true is held only where pasta gives the run its own linked namespace; otherwise the run is refused', () => {
    const open = policy({ network: true });
    expect(
      restrictionRows({ backend: 'bubblewrap', works: true, netns: { works: true } }, open).find(
        (r) => r.id === 'network',
      )?.label,
    ).toBe(LABEL.bubblewrap);
    const without = restrictionRows(
      { backend: 'bubblewrap', works: true, netns: { works: false, reason: 'no pasta' } },
      open,
    );
    expect(unenforced(without).map((r) => r.id)).toEqual(['network']);
    // sandbox-exec opens every socket for network = true: refused too.
    expect(unenforced(restrictionRows({ backend: 'sandbox-exec', works: true }, open)).map((r) => r.id)).toEqual([
      'network',
      'unix-sockets',
    ]);
  });

  it('the process cap is advisory where neither a pids cgroup nor a binding RLIMIT_NPROC (root) holds it', () => {
    const label = (b: Parameters<typeof restrictionRows>[0]): string | undefined =>
      restrictionRows(b, p).find((r) => r.id === 'limit-processes')?.label;
    expect(label({ backend: 'bubblewrap', works: true, nprocBinds: false })).toBe(LABEL.advisory);
    expect(label({ backend: 'bubblewrap', works: true, nprocBinds: true })).toBe(LABEL.rlimit);
    expect(label({ backend: 'bubblewrap', works: true, cgroup: { pids: true, memory: true } })).toBe(LABEL.cgroup);
  });

  it('the override makes every OS row advisory even where a backend works', () => {
    const rows = restrictionRows({ backend: 'bubblewrap', works: true }, p, true);
    expect(rows.filter((r) => r.label === LABEL.bubblewrap)).toEqual([]);
  });
});

describe('no-network seccomp filter', () => {
  /** A classic-BPF interpreter for the few instructions the filter uses. */
  function evaluate(prog: Uint8Array, data: { arch: number; nr: number; arg0: bigint }): number {
    const v = new DataView(prog.buffer, prog.byteOffset, prog.byteLength);
    const mem = new DataView(new ArrayBuffer(64));
    mem.setUint32(0, data.nr, true);
    mem.setUint32(4, data.arch, true);
    mem.setBigUint64(16, data.arg0, true);
    let acc = 0;
    for (let pc = 0; pc * 8 < prog.length; pc++) {
      const code = v.getUint16(pc * 8, true);
      const jt = v.getUint8(pc * 8 + 2);
      const jf = v.getUint8(pc * 8 + 3);
      const k = v.getUint32(pc * 8 + 4, true);
      if (code === 0x20) acc = mem.getUint32(k, true);
      else if (code === 0x15) pc += acc === k ? jt : jf;
      else if (code === 0x35) pc += acc >= k ? jt : jf;
      else if (code === 0x06) return k;
      else throw new Error(`unexpected opcode ${code}`);
    }
    throw new Error('fell off the end');
  }
  const X64 = 0xc000003e;
  const ALLOW = 0x7fff0000;
  const prog = unixSocketFilter('x64');

  it('refuses socket(AF_UNIX) with EAFNOSUPPORT and lets every other family and call through', () => {
    expect(evaluate(prog, { arch: X64, nr: 41, arg0: 1n })).toBe(0x00050000 | 97);
    expect(evaluate(prog, { arch: X64, nr: 41, arg0: 2n })).toBe(ALLOW);
    expect(evaluate(prog, { arch: X64, nr: 53, arg0: 1n })).toBe(ALLOW); // socketpair
    expect(evaluate(prog, { arch: X64, nr: 0, arg0: 1n })).toBe(ALLOW);
  });

  it('reads the domain as the kernel does (low 32 bits), so high garbage does not slip past', () => {
    expect(evaluate(prog, { arch: X64, nr: 41, arg0: 0xffffffff00000001n })).toBe(0x00050000 | 97);
  });

  it('refuses io_uring, the x32 ABI and foreign architectures', () => {
    expect(evaluate(prog, { arch: X64, nr: 425, arg0: 0n })).toBe(0x00050000 | 38);
    expect(evaluate(prog, { arch: X64, nr: 0x40000000 | 41, arg0: 1n })).toBe(0x00050000 | 1);
    expect(evaluate(prog, { arch: 0x40000003, nr: 102, arg0: 1n })).toBe(0x00050000 | 1);
  });

  it('arm64 has its own socket number; other architectures have no filter', () => {
    expect(evaluate(unixSocketFilter('arm64'), { arch: 0xc00000b7, nr: 198, arg0: 1n })).toBe(0x00050000 | 97);
    expect(seccompSupported('ppc64')).toBe(false);
  });

  it('bwrap gets --seccomp 4 with or without network, with the program on fd 4', () => {
    expect(at(bwrapArgs(policy(), ['x'], { exists: all, arch: 'x64' }), '--seccomp', '4')).toBeGreaterThan(0);
    expect(
      at(bwrapArgs(policy({ network: true }), ['x'], { exists: all, arch: 'x64' }), '--seccomp', '4'),
    ).toBeGreaterThan(0);
    expect(bwrapArgs(policy(), ['x'], { exists: all, arch: 'ppc64' })).not.toContain('--seccomp');
    expect(bwrapCommand(policy(), ['x'], { arch: 'x64' }).fd4).toEqual(unixSocketFilter('x64'));
    expect(bwrapCommand(policy({ network: true }), ['x'], { arch: 'x64' }).fd4).toEqual(unixSocketFilter('x64'));
  });
});

describe('sandbox-exec paths', () => {
  it('are resolved before they reach the profile (Seatbelt sees /private/tmp, not /tmp)', () => {
    const cmd = sandboxExecCommand(policy(), ['/bin/true'], '/usr/bin/sandbox-exec', (p) =>
      p.replace(/^\/tmp\//, '/private/tmp/'),
    );
    expect(cmd.args).toContain('SCRATCH=/private/tmp/skillsmith-run-x/scratch');
    expect(cmd.args).toContain('WORKSPACE=/home/dev/proj');
  });
});

describe('executor', () => {
  it('tells a sandbox that could not be set up apart from a failing script', async () => {
    const { execute } = await import('../../main/services/sandbox/exec');
    const env = { PATH: '/usr/bin:/bin' };
    const broken = await execute(
      {
        file: '/bin/sh',
        args: ['-c', 'echo "bwrap: Can\'t find source path" >&2; exit 1'],
        env,
        cwd: '/',
        reportsStrays: true,
      },
      { timeoutMs: 5000, maxOutputBytes: 1000 },
    );
    expect(broken.spawnError).toMatch(/^the sandbox could not be set up \(\/bin\/sh exited 1/);
    const failing = await execute(
      { file: '/bin/sh', args: ['-c', 'echo started >&3; exit 1'], env, cwd: '/', reportsStrays: true },
      { timeoutMs: 5000, maxOutputBytes: 1000 },
    );
    expect(failing.spawnError).toBeUndefined();
    expect(failing.code).toBe(1);
  });

  it('a binary that does not exist is a start failure, not an exit code', async () => {
    const { execute } = await import('../../main/services/sandbox/exec');
    const r = await execute(
      { file: '/nonexistent/tool', args: [], env: {}, cwd: '/', reportsStrays: false },
      { timeoutMs: 5000, maxOutputBytes: 1000 },
    );
    expect(r.spawnError).toBe('/nonexistent/tool: ENOENT');
    expect(r.code).toBeNull();
  });
});

describe('probe with the seccomp filter', () => {
  it('a bwrap that rejects the filter is reported as such', async () => {
    const dir = tempDir('skillsmith-fake-');
    const p = join(dir, 'bwrap');
    // Fails only when given --seccomp, and only after reading the program from fd 4.
    writeFileSync(
      p,
      '#!/bin/sh\nfor a in "$@"; do [ "$a" = --seccomp ] && { cat <&4 >/dev/null; echo "bwrap: prctl(PR_SET_SECCOMP): Invalid argument" >&2; exit 1; }; done\necho skillsmith-probe-ok\n',
    );
    chmodSync(p, 0o755);
    expect((await probeBwrap({ bwrapPath: p, arch: 'x64' })).reason).toMatch(/cannot install the seccomp filter/);
    expect((await probeBwrap({ bwrapPath: p, arch: 'ppc64' })).works).toBe(true);
  });
});

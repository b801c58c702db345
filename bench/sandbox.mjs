#!/usr/bin/env node
// Benchmark: what the sandbox costs per run. Times, alternating, N runs each of
//   direct      — the script spawned directly (/bin/sh scripts/hi.sh)
//   bwrap-before — bubblewrap with the flags runs used before issue 15 (/ read-only, no limits)
//   bwrap-now   — bubblewrap with the flags a run uses now (system folders only, filtered /etc,
//                 size-capped tmpfs, read-only root, rlimits; mirrors bwrapArgs), no network
//   bwrap-net   — bwrap-now plus its own network namespace linked out by pasta, with the
//                 routes to this host cut (what network = true costs)
//   cli         — `skillsmith run hello hi.sh` (node start-up, lock integrity, probe, sandbox, audit line)
//   cli-net     — the same for a skill with network = true (adds the pasta probe and link)
//   startup     — `skillsmith --version` (node + CLI start-up alone)
// Writes bench/sandbox-results.md. Needs a built CLI (npm run build), bubblewrap and pasta.
//
//   node bench/sandbox.mjs [--runs N]

import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const CLI = join(ROOT, 'bin', 'skillsmith.cjs');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 30;
if (!Number.isInteger(RUNS) || RUNS < 1) {
  process.stderr.write('bench/sandbox: --runs must be a positive integer\n');
  process.exit(1);
}

function must(r, what) {
  if (r.error || r.status !== 0) {
    process.stderr.write(
      `bench/sandbox: ${what} failed (${r.error ? r.error.message : `exit ${r.status}`})\n${r.stderr ?? ''}\n`,
    );
    process.exit(1);
  }
  return r;
}

const dir = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-sbx-'));
try {
  const src = join(dir, 'src', 'hello');
  mkdirSync(join(src, 'scripts'), { recursive: true });
  writeFileSync(
    join(src, 'skill.toml'),
    '[skill]\nname = "hello"\nversion = "1.0.0"\ndescription = "Says hello from a script."\n\n[context]\nbudget = 500\n',
  );
  writeFileSync(join(src, 'SKILL.md'), '# hello\n\nRun scripts/hi.sh.\n');
  writeFileSync(join(src, 'scripts', 'hi.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(src, 'scripts', 'hi.sh'), 0o755);
  must(
    spawnSync(process.execPath, [CLI, 'install', 'file:./src/hello', '--yes'], { cwd: dir, encoding: 'utf8' }),
    'skillsmith install',
  );
  const netSrc = join(dir, 'src', 'net-hello');
  mkdirSync(join(netSrc, 'scripts'), { recursive: true });
  writeFileSync(
    join(netSrc, 'skill.toml'),
    '[skill]\nname = "net-hello"\nversion = "1.0.0"\ndescription = "Says hello with network permission."\n\n[context]\nbudget = 500\n\n[permissions]\nnetwork = true\n',
  );
  writeFileSync(join(netSrc, 'SKILL.md'), '# net-hello\n\nRun scripts/hi.sh.\n');
  writeFileSync(join(netSrc, 'scripts', 'hi.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(netSrc, 'scripts', 'hi.sh'), 0o755);
  must(
    spawnSync(process.execPath, [CLI, 'install', 'file:./src/net-hello', '--yes'], { cwd: dir, encoding: 'utf8' }),
    'skillsmith install net-hello',
  );
  const script = join(dir, '.kitbash', 'skills', 'hello', 'scripts', 'hi.sh');
  const scratch = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-scratch-'));
  const env = { PATH: '/usr/bin:/bin' };

  // The argv bwrapArgs builds for a run without network (main/services/sandbox/bwrap.ts).
  const size = String(256 * 1024 * 1024);
  const now = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const p of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/etc']) {
    if (!existsSync(p)) continue;
    if (lstatSync(p).isSymbolicLink()) now.push('--symlink', readlinkSync(p), p);
    else now.push('--ro-bind', p, p);
  }
  now.push('--dev', '/dev', '--proc', '/proc', '--size', size, '--tmpfs', '/tmp');
  for (const f of ['/etc/shadow', '/etc/gshadow']) if (existsSync(f)) now.push('--ro-bind', '/dev/null', f);
  now.push(
    '--ro-bind',
    dir,
    dir,
    '--size',
    size,
    '--tmpfs',
    `${scratch}/s`,
    '--size',
    size,
    '--tmpfs',
    `${scratch}/h`,
    '--remount-ro',
    '/',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--chdir',
    dir,
  );
  const limits = 'ulimit -n 1024 && ulimit -t 305 && ulimit -S -t 300 && ulimit -d 2097152';
  const supervised = (extra = []) => [
    ...now,
    ...extra,
    '--',
    '/bin/sh',
    '-c',
    `${limits} && exec /bin/sh "$0"`,
    script,
  ];
  const hostAddrs = Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && !a.address.startsWith('fe80:'))
    .map((a) => `route add unreachable ${a.address}/${a.family === 'IPv6' ? 128 : 32}`);
  writeFileSync(join(scratch, 'routes'), hostAddrs.join('\n') + '\n');
  const ipPath = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip'].find((p) => existsSync(p));
  // bwrap-net: bwrap waits on fd 6 while pasta links its namespace and the host routes are cut.
  const withNetwork = () =>
    new Promise((resolve) => {
      const child = spawn('/usr/bin/bwrap', supervised(['--info-fd', '5', '--block-fd', '6']), {
        env,
        stdio: ['ignore', 'pipe', 'pipe', 'ignore', 'ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let info = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stdio[5].on('error', () => undefined);
      child.stdio[6].on('error', () => undefined);
      child.stdio[5].on('data', (d) => {
        info += d;
        const m = /"child-pid"\s*:\s*(\d+)/.exec(info);
        if (!m || info === 'done') return;
        info = 'done';
        const pid = m[1];
        const pidFile = join(scratch, 'pasta.pid');
        must(
          spawnSync(
            '/usr/bin/pasta',
            [
              '--config-net',
              '--netns',
              `/proc/${pid}/ns/net`,
              '--no-map-gw',
              '-T',
              'none',
              '-U',
              'none',
              '-t',
              'none',
              '-u',
              'none',
              '-q',
              '-P',
              pidFile,
              ...(process.getuid() === 0 ? ['--runas', '0'] : []),
            ],
            { encoding: 'utf8' },
          ),
          'pasta',
        );
        if (hostAddrs.length)
          must(
            spawnSync('/usr/bin/nsenter', ['-t', pid, '-n', ipPath, '-batch', join(scratch, 'routes')], {
              encoding: 'utf8',
            }),
            'ip route',
          );
        child.stdio[6].end('go');
        child.on('close', (status) => {
          try {
            process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
          } catch {
            // gone already
          }
          resolve({ status, stdout });
        });
      });
    });

  const cases = {
    direct: () => spawnSync('/bin/sh', [script], { env, encoding: 'utf8' }),
    'bwrap-before': () =>
      spawnSync(
        '/usr/bin/bwrap',
        [
          '--unshare-all',
          '--die-with-parent',
          '--new-session',
          '--cap-drop',
          'ALL',
          '--ro-bind',
          '/',
          '/',
          '--dev',
          '/dev',
          '--proc',
          '/proc',
          '--tmpfs',
          '/tmp',
          '--tmpfs',
          '/run',
          '--ro-bind',
          dir,
          dir,
          '--bind',
          scratch,
          scratch,
          '--clearenv',
          '--setenv',
          'PATH',
          '/usr/bin:/bin',
          '--chdir',
          dir,
          '--',
          '/bin/sh',
          script,
        ],
        { env, encoding: 'utf8' },
      ),
    'bwrap-now': () => spawnSync('/usr/bin/bwrap', supervised(), { env, encoding: 'utf8' }),
    'bwrap-net': withNetwork,
    cli: () => spawnSync(process.execPath, [CLI, 'run', 'hello', 'hi.sh'], { cwd: dir, encoding: 'utf8' }),
    'cli-net': () => spawnSync(process.execPath, [CLI, 'run', 'net-hello', 'hi.sh'], { cwd: dir, encoding: 'utf8' }),
    startup: () => spawnSync(process.execPath, [CLI, '--version'], { cwd: dir, encoding: 'utf8' }),
  };
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < RUNS + 2; i++) {
    for (const [name, fn] of Object.entries(cases)) {
      const t0 = process.hrtime.bigint();
      const r = must(await fn(), name);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (!r.stdout.includes('hi') && name !== 'startup') {
        process.stderr.write(`bench/sandbox: ${name} printed ${JSON.stringify(r.stdout)}\n`);
        process.exit(1);
      }
      if (i >= 2) times[name].push(ms);
    }
  }
  rmSync(scratch, { recursive: true, force: true });

  const q = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))];
  };
  const rows = Object.entries(times).map(
    ([k, xs]) => `| ${k} | ${Math.min(...xs).toFixed(1)} | ${q(xs, 0.5).toFixed(1)} | ${q(xs, 0.9).toFixed(1)} |`,
  );
  const bw = spawnSync('/usr/bin/bwrap', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const report = [
    '# Sandbox overhead',
    '',
    `Generated by \`node bench/sandbox.mjs --runs ${RUNS}\` on ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} cores), ${os.platform()} ${os.release()}, Node ${process.version}, ${bw}.`,
    `Each case ran ${RUNS} times after 2 warm-up rounds, interleaved; wall-clock ms per whole process.`,
    `Load average when it finished: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')} — on a shared machine the minimum is the steadiest figure.`,
    '',
    '| case | min ms | median ms | p90 ms |',
    '|---|---|---|---|',
    ...rows,
    '',
    '- `bwrap-now − bwrap-before` is what the narrowed root, the read-only root, the size-capped tmpfs and the',
    "  rlimits cost per run; `bwrap-net − bwrap-now` is what a network = true run's own namespace costs",
    '  (pasta attaching and daemonizing, the unreachable routes to this host). Before issue 15 a network = true',
    '  run shared the host network and cost what bwrap-before costs.',
    '- `cli − startup` is what `skillsmith run` adds on top of Node and CLI start-up (lock integrity, probe,',
    '  sandbox, cgroup, audit line); `cli-net − cli` adds the once-per-process pasta probe and the link.',
    '- The seccomp filter (fd 4) is left out of the raw bwrap cases; the cli cases have it.',
    '',
  ].join('\n');
  writeFileSync(join(HERE, 'sandbox-results.md'), report);
  process.stdout.write(report);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

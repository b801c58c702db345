import { realpathSync } from 'node:fs';
import { capture, firstLines } from './process';
import type { BackendStatus, SandboxPolicy, WrappedCommand } from './types';

export const DEFAULT_SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/**
 * The macOS Seatbelt (SBPL) profile for one run. Paths never appear in the text: they
 * are passed as `-D NAME=value` parameters and read with `(param "NAME")`, so no path can
 * break out of a string literal. Where rules overlap the later one wins, so the denies of
 * the real homes come after the blanket read, the re-allowed run folders after those,
 * and the read-only islands after the writable workspace.
 */
export function seatbeltProfile(policy: SandboxPolicy): { profile: string; params: Record<string, string> } {
  const params: Record<string, string> = {
    WORKSPACE: policy.workspace,
    SKILL_DIR: policy.skillDir,
    SCRATCH: policy.scratchDir,
    RUN_HOME: policy.homeDir,
    ...(policy.stage ? { STAGE: policy.stage.dir } : {}),
  };
  const list = (prefix: string, paths: readonly string[]): string[] =>
    paths.map((p, i) => {
      params[`${prefix}_${i}`] = p;
      return `(subpath (param "${prefix}_${i}"))`;
    });
  const hidden = list('HIDDEN_HOME', policy.hiddenHomes);
  const writable = list('WRITABLE', policy.extraWritable);
  const readOnly = list('READ_ONLY', policy.readOnlyInWorkspace);
  const readable = list('READABLE', [...(policy.extraReadable ?? []), ...(policy.enclosingGit ?? [])]);

  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger"))',
    '(allow file-read*)',
  ];
  if (hidden.length) lines.push(`(deny file-read* ${hidden.join(' ')})`);
  if (readable.length) lines.push(`(allow file-read* ${readable.join(' ')})`);
  lines.push(
    `(allow file-read* (subpath (param "WORKSPACE")) (subpath (param "SKILL_DIR")) (subpath (param "SCRATCH")) (subpath (param "RUN_HOME"))${policy.stage ? ' (subpath (param "STAGE"))' : ''})`,
  );
  const writes = [
    '(subpath (param "SCRATCH"))',
    '(subpath (param "RUN_HOME"))',
    // write = true: only the staged copy; the runner applies its changes by the rules afterwards (D183).
    ...(policy.stage ? ['(subpath (param "STAGE"))'] : []),
    ...writable,
  ];
  lines.push(`(allow file-write* ${writes.join(' ')})`);
  lines.push(
    '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/stdout") (literal "/dev/stderr"))',
  );
  lines.push(`(deny file-write* (subpath (param "SKILL_DIR"))${readOnly.length ? ` ${readOnly.join(' ')}` : ''})`);
  if (writable.length) lines.push(`(allow file-write* ${writable.join(' ')})`);
  if (policy.network) {
    lines.push(
      '(allow network*)',
      '(allow mach-lookup (global-name "com.apple.mDNSResponder") (global-name "com.apple.dnssd.service"))',
    );
  }
  // No network rule at all otherwise: (deny default) already refuses every socket
  // operation, loopback and Unix-domain connects included.
  return { profile: lines.join('\n') + '\n', params };
}

/**
 * Seatbelt matches resolved paths (/tmp is /private/tmp on macOS), so every folder of the
 * policy is resolved first; one that does not exist yet is kept as given.
 */
export function sandboxExecCommand(
  policy: SandboxPolicy,
  argv: readonly string[],
  path = DEFAULT_SANDBOX_EXEC,
  real: (p: string) => string = realOrSame,
): WrappedCommand {
  const resolved: SandboxPolicy = {
    ...policy,
    workspace: real(policy.workspace),
    skillDir: real(policy.skillDir),
    scratchDir: real(policy.scratchDir),
    homeDir: real(policy.homeDir),
    hiddenHomes: policy.hiddenHomes.map(real),
    extraWritable: policy.extraWritable.map(real),
    readOnlyInWorkspace: policy.readOnlyInWorkspace.map(real),
    ...(policy.stage ? { stage: { ...policy.stage, dir: real(policy.stage.dir) } } : {}),
    ...(policy.extraReadable ? { extraReadable: policy.extraReadable.map(real) } : {}),
    ...(policy.enclosingGit ? { enclosingGit: policy.enclosingGit.map(real) } : {}),
  };
  const { profile, params } = seatbeltProfile(resolved);
  const args = ['-p', profile];
  for (const [k, v] of Object.entries(params)) args.push('-D', `${k}=${v}`);
  args.push(...argv);
  // Seatbelt cannot show the copy at the project's path, so the run works in the copy at its
  // own path; the project stays readable (read-only) where it is.
  if (policy.stage) {
    const env = { ...policy.env, KITBASH_PROJECT_ROOT: policy.stage.dir };
    return { file: path, args, env, cwd: policy.stage.dir, reportsStrays: false };
  }
  return { file: path, args, env: policy.env, cwd: policy.workspace, reportsStrays: false };
}

/** Does sandbox-exec apply a profile here? A trivial command runs under a deny-network profile. */
export async function probeSandboxExec(path = DEFAULT_SANDBOX_EXEC, timeoutMs = 10_000): Promise<BackendStatus> {
  const run = await capture(
    path,
    ['-p', '(version 1)(allow default)(deny network*)', '/bin/sh', '-c', 'echo skillsmith-probe-ok'],
    {
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs,
    },
  );
  if (run.spawnError) {
    return {
      backend: 'sandbox-exec',
      works: false,
      path,
      reason:
        run.spawnError.code === 'ENOENT'
          ? `sandbox-exec is not available (no ${path})`
          : `${path} could not be started (${run.spawnError.code ?? ''})`,
    };
  }
  if (run.code === 0 && run.stdout.trim() === 'skillsmith-probe-ok')
    return { backend: 'sandbox-exec', works: true, path };
  return {
    backend: 'sandbox-exec',
    works: false,
    path,
    reason: `a trivial sandboxed command failed (exit ${String(run.code)})`,
    detail: firstLines(run.stderr),
  };
}

function realOrSame(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

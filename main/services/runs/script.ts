import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resolveInside } from '../fs/contain';
import { fail, ok, type Result } from '../../../shared/result';

export type ScriptResolution = Result<{ abs: string; rel: string; argv: string[] }>;

/** Top-level regular files of `<skill>/scripts/`, in name order. */
export function listScripts(skillDir: string): string[] {
  try {
    return readdirSync(join(skillDir, 'scripts'), { withFileTypes: true })
      .filter((d) => d.isFile() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * A script the caller names, contained in the skill's `scripts/` (after symlinks), and
 * the argv that runs it: itself when executable, else the interpreter from its `#!` line,
 * else one chosen by extension (.sh, .js/.mjs/.cjs, .py). Anything else is refused.
 */
export function resolveScript(skillDir: string, name: string, args: readonly string[]): ScriptResolution {
  const scriptsDir = join(skillDir, 'scripts');
  const bare = name.replace(/^\.\//, '').replace(/^scripts\//, '');
  const abs = resolveInside(scriptsDir, bare);
  if (!abs || bare === '' || bare === '.')
    return fail('outside-project', `script "${name}" is not inside the skill's scripts/ folder`);
  let st;
  try {
    st = statSync(abs);
  } catch {
    const have = listScripts(skillDir);
    return fail(
      'not-found',
      `no script "${bare}" in scripts/${have.length ? ` (have: ${have.join(', ')})` : ' (the skill has no scripts)'}`,
    );
  }
  if (!st.isFile()) return fail('not-found', `scripts/${bare} is not a file`);
  const rel = relative(skillDir, abs).split(sep).join('/');
  if ((st.mode & 0o111) !== 0) return ok({ abs, rel, argv: [abs, ...args] });
  const shebang = readShebang(abs);
  if (shebang) return ok({ abs, rel, argv: [...shebang, abs, ...args] });
  const ext = /\.([a-z]+)$/.exec(bare)?.[1];
  const by: Record<string, string[]> = {
    sh: ['/bin/sh'],
    js: ['/usr/bin/env', 'node'],
    mjs: ['/usr/bin/env', 'node'],
    cjs: ['/usr/bin/env', 'node'],
    py: ['/usr/bin/env', 'python3'],
  };
  const interp = ext !== undefined ? by[ext] : undefined;
  if (interp) return ok({ abs, rel, argv: [...interp, abs, ...args] });
  return fail('unsupported', `scripts/${bare} is not executable and has no #! line — cannot tell how to run it`);
}

/** `#!/usr/bin/env node` → ['/usr/bin/env', 'node']; at most one argument, as the kernel reads it. */
function readShebang(abs: string): string[] | undefined {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, 256, 0);
    const head = buf.subarray(0, n).toString('utf8');
    if (!head.startsWith('#!')) return undefined;
    const line = head.slice(2).split('\n')[0]!.trim();
    const m = /^(\S+)(?:\s+(.*))?$/.exec(line);
    if (!m || !m[1]!.startsWith('/')) return undefined;
    return m[2] ? [m[1]!, m[2].trim()] : [m[1]!];
  } finally {
    closeSync(fd);
  }
}

/**
 * The verdict script of a gate: `scripts/gate` or `scripts/gate.<ext>` when there is
 * exactly one, otherwise the only script there is. No script at all is `not-found`;
 * several candidates are an `invalid-request` that names them, so a gate never runs a
 * script nobody picked.
 */
export function gateScript(skillDir: string): Result<string> {
  const all = listScripts(skillDir);
  if (all.length === 0) return fail('not-found', 'no scripts/');
  const named = all.filter((n) => n === 'gate' || n.startsWith('gate.'));
  if (named.length === 1) return ok(named[0]!);
  if (all.length === 1) return ok(all[0]!);
  return fail(
    'invalid-request',
    `cannot tell which script gives the verdict (scripts/: ${all.join(', ')}) — name one scripts/gate.<ext>, or pass --script <name>`,
  );
}

import { accessSync, closeSync, constants, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';

/**
 * Where an argv[0] lives: a path with a slash is relative to the project root (a stand-in
 * agent checked into the project), a bare name is looked up on the parent's PATH.
 */
export function resolveExecutable(cmd: string, projectRoot: string, path: string | undefined): string | undefined {
  const runnable = (p: string): boolean => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (cmd.includes('/')) {
    const abs = isAbsolute(cmd) ? cmd : resolve(projectRoot, cmd);
    return runnable(abs) ? abs : undefined;
  }
  for (const d of (path ?? '').split(delimiter)) if (d && runnable(join(d, cmd))) return join(d, cmd);
  return undefined;
}

/**
 * What a trial must see read-only to start an agent where a user installed it. npm, nvm,
 * volta and `~/.local/bin` put a symlink on PATH into a package folder that may sit in the
 * home folder, which the sandbox hides: the agent then fails with 127 and no output. So
 * the command runs by its real path, and what it is made of is shown again: the whole
 * `node_modules` folder it lives in (npm packages reach their platform binaries as
 * siblings), or else its own folder, and the interpreter its `#!` line names. A folder
 * that is a home, or holds one, is never shown: then only the file is.
 */
export interface AgentInstall {
  /** The executable's real path: what the trial runs. */
  readonly executable: string;
  /** Paths to bind read-only. */
  readonly reads: readonly string[];
}

export function agentInstall(
  executable: string,
  projectRoot: string,
  path: string | undefined,
  homes: readonly string[],
): AgentInstall {
  const real = safeRealpath(executable) ?? executable;
  const reads = new Set<string>([real]);
  const show = (folder: string, file: string): void => {
    reads.add(coversAHome(folder, homes) ? file : folder);
  };
  show(packageTree(real), real);
  const interpreter = shebangInterpreter(real);
  if (interpreter !== undefined) {
    const found = interpreter.includes('/') ? interpreter : resolveExecutable(interpreter, projectRoot, path);
    const realInterpreter = found === undefined ? undefined : safeRealpath(found);
    if (realInterpreter !== undefined) show(dirname(realInterpreter), realInterpreter);
  }
  return { executable: real, reads: [...reads] };
}

/** The outermost `node_modules` folder above `file`, or the file's own folder. */
function packageTree(file: string): string {
  const parts = file.split(sep);
  const i = parts.indexOf('node_modules');
  return i > 0 ? parts.slice(0, i + 1).join(sep) : dirname(file);
}

function coversAHome(folder: string, homes: readonly string[]): boolean {
  if (folder === sep || folder === '') return true;
  return homes.some((h) => h !== '' && (h === folder || h.startsWith(folder.endsWith(sep) ? folder : folder + sep)));
}

/**
 * The program a `#!` line runs the script with: `#!/usr/bin/env node` → `node` (looked up
 * on PATH), `#!/usr/bin/python3 -u` → `/usr/bin/python3`; undefined for a binary.
 */
export function shebangInterpreter(file: string): string | undefined {
  let head: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(256);
      head = buf.subarray(0, readSync(fd, buf, 0, 256, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith('#!')) return undefined;
  const words = head.slice(2).split('\n')[0]!.trim().split(/\s+/);
  if (words[0] === undefined || words[0] === '') return undefined;
  if (basename(words[0]) !== 'env') return words[0];
  return words.slice(1).find((w) => !w.startsWith('-') && !w.includes('='));
}

function safeRealpath(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The npm package an installed agent belongs to: the first package.json above its real
 * path, inside node_modules (never read above it); undefined for anything else.
 */
export function installedPackage(executable: string): { name: string; version: string } | undefined {
  const real = safeRealpath(executable);
  if (real === undefined || !real.split(sep).includes('node_modules')) return undefined;
  for (let d = dirname(real); basename(d) !== 'node_modules' && d !== dirname(d); d = dirname(d)) {
    let text: string;
    try {
      text = readFileSync(join(d, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    try {
      const j = JSON.parse(text) as { name?: unknown; version?: unknown };
      return typeof j.name === 'string' && typeof j.version === 'string'
        ? { name: j.name, version: j.version }
        : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

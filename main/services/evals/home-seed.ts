import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A home file a runner copies is a config or a login, never a data set. */
export const MAX_HOME_FILE_BYTES = 1024 * 1024;

/**
 * Copy a runner's `home` files from the caller's home into the trial's private HOME, at the
 * same relative paths, owner-only. The source may be a symlink (dotfile managers link
 * them), but what it reaches must be a regular file no larger than the cap. Returns why
 * it could not, naming the file, or undefined when every file was copied.
 */
export function seedHome(
  runner: string,
  files: readonly string[],
  fromHome: string,
  toHome: string,
): string | undefined {
  for (const rel of files) {
    const name = `runner ${runner}: home: ~/${rel}`;
    let real: string;
    try {
      real = realpathSync.native(join(fromHome, rel));
    } catch {
      return `${name} does not exist — create it, or take it out of the runner's home list`;
    }
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted in its place must not hang the run before fstat says so.
      fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (e) {
      return `${name} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return `${name} is not a regular file`;
      if (st.size > MAX_HOME_FILE_BYTES)
        return `${name} is ${st.size} bytes, over the ${MAX_HOME_FILE_BYTES}-byte limit for a copied home file`;
      const buf = Buffer.alloc(st.size);
      let got = 0;
      while (got < st.size) {
        const n = readSync(fd, buf, got, st.size - got, got);
        if (n === 0) break;
        got += n;
      }
      const dest = join(toHome, rel);
      mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
      writeFileSync(dest, buf.subarray(0, got), { mode: 0o600, flag: 'wx' });
    } finally {
      closeSync(fd);
    }
  }
  return undefined;
}

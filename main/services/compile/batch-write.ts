import { close, closeSync, constants, fchmod, open, openSync, renameSync, unlinkSync, write } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isCoded } from '../../../shared/result';
import type { ProjectDir, ProjectDirs } from '../fs/inside';
import { canFlushFileSystems, fsyncAll } from '../fs/flush';

/** Files staged at once: enough to keep the thread pool and the disk busy, few enough descriptors. */
const IN_FLIGHT = 16;

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY } = constants;

interface Item {
  readonly dir: string;
  readonly name: string;
  readonly data: string | Uint8Array;
  readonly executable?: boolean;
}

const call = <T>(fn: (cb: (e: NodeJS.ErrnoException | null, v: T) => void) => void): Promise<T> =>
  new Promise((res, rej) => fn((e, v) => (e ? rej(e) : res(v))));

/** Create the temp file exclusively (never through a symlink), write all of `data`, close it. */
async function stage(path: string, data: string | Uint8Array, executable: boolean): Promise<Uint8Array> {
  const mode = executable ? 0o755 : 0o644;
  const fd = await call<number>((cb) => open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode, cb));
  try {
    // The umask may have cleared bits: a delivered script keeps exactly its execute bits.
    if (executable) await call<void>((cb) => fchmod(fd, mode, (e) => cb(e, undefined)));
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let off = 0; off < buf.length;)
      off += await call<number>((cb) => write(fd, buf, off, buf.length - off, off, cb));
    return buf;
  } finally {
    await call<void>((cb) => close(fd, (e) => cb(e, undefined)));
  }
}

/** `fn` over `items`, `width` at a time; the first failure stops new work and is thrown once running work settles. */
async function inPool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { e: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (e) {
        failure ??= { e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  if (failure) throw failure.e;
}

/** Items by folder, folders in first-seen order. */
function byFolder(items: readonly Item[]): [string, Item[]][] {
  const groups = new Map<string, Item[]>();
  for (const i of items) {
    const g = groups.get(i.dir);
    if (g) g.push(i);
    else groups.set(i.dir, [i]);
  }
  return [...groups];
}

/**
 * Atomic replacement of many project files at once, with the guarantee of fs/inside.ts's
 * writeFileInside for each — a temp file in the same folder, renamed over the target, so a
 * reader (or an interrupted compile) sees the old content or the new, never a torn file; each
 * folder opened inside the project and checked again around its renames, so a folder swapped
 * for a symlink cannot redirect a write — but written the way a database commits a batch:
 *
 *  1. every temp file is staged, `IN_FLIGHT` at a time, through folders opened once (`dirs`);
 *  2. one flush makes them all durable: a syncfs per file system where the platform has one,
 *     else an fsync of each temp file, all in parallel;
 *  3. only then is each renamed over its target, folder by folder.
 *
 * The renames reach the disk with the caller's final flush of `dirs` (writer.ts), after its
 * prunes. `durable: false` skips the flushes (renames stay atomic against an interrupted
 * process, not against a power cut) — for scratch copies such as eval workspaces.
 * `executable` files get mode 0755, the others 0644. `written` receives the bytes staged
 * for each path (the compile record compares the files on disk with them).
 */
export async function writeFilesInside(
  dirs: ProjectDirs,
  files: readonly { rel: string; data: string | Uint8Array; executable?: boolean }[],
  durable = true,
  written?: Map<string, Uint8Array>,
): Promise<void> {
  if (!files.length) return;
  const tag = `${process.pid}.${randomBytes(4).toString('hex')}`;
  const tmpOf = (name: string) => `.${name}.${tag}.tmp`;
  const groups = byFolder(
    files.map((f) => {
      const cut = f.rel.lastIndexOf('/');
      return {
        dir: cut < 0 ? '' : f.rel.slice(0, cut),
        name: f.rel.slice(cut + 1),
        data: f.data,
        ...(f.executable ? { executable: true } : {}),
      };
    }),
  );
  const staged: [string, Item[]][] = [];
  let done = false;
  try {
    await inPool(groups, IN_FLIGHT, ([rel, group]) =>
      dirs.use(rel, true, async (dir) => {
        const mine: Item[] = [];
        staged.push([rel, mine]);
        for (const f of group) {
          mine.push(f);
          const bytes = await stage(dir.at(tmpOf(f.name)), f.data, f.executable === true);
          written?.set(rel ? `${rel}/${f.name}` : f.name, bytes);
        }
      }),
    );
    if (durable && !(canFlushFileSystems() && (await dirs.flushFileSystems()))) await fsyncEach(dirs, staged, tmpOf);
    for (const [rel, group] of groups)
      dirs.use(rel, true, (dir) => {
        // Checked just before and just after: a folder moved out of the project meanwhile keeps none of them.
        dir.verify();
        let renamed = 0;
        try {
          for (const f of group) {
            renameSync(dir.at(tmpOf(f.name)), dir.at(f.name));
            renamed++;
          }
          dir.verify();
        } catch (e) {
          if (isCoded(e, 'outside-project')) group.slice(0, renamed).forEach((f) => unlinkQuiet(dir, f.name));
          throw e;
        }
      });
    done = true;
  } finally {
    if (!done) {
      // Temp files not renamed are removed, through the folders they were made in.
      for (const [rel, group] of staged) {
        try {
          dirs.use(rel, false, (dir) => group.forEach((f) => unlinkQuiet(dir, tmpOf(f.name))));
        } catch {
          // the folder is gone: so are its temp files
        }
      }
    }
  }
}

/** The per-file flush where no file system flush is available: each staged temp reopened and fsynced. */
function fsyncEach(dirs: ProjectDirs, staged: [string, Item[]][], tmpOf: (n: string) => string): Promise<void> {
  return inPool(staged, IN_FLIGHT, async ([rel, group]) => {
    const fds = dirs.use(rel, false, (dir) => group.map((f) => openSync(dir.at(tmpOf(f.name)), O_RDONLY | O_NOFOLLOW)));
    try {
      await fsyncAll(fds);
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
  });
}

function unlinkQuiet(dir: ProjectDir, name: string): void {
  try {
    unlinkSync(dir.at(name));
  } catch {
    // renamed already, or gone
  }
}

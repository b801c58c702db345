import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CodedError } from '../../../shared/result';
import { flushFileSystems, fsyncAll } from './flush';

/**
 * Writes and deletes inside a project that a concurrent swap of a folder for a symlink
 * cannot redirect. Node has no openat(), but on Linux `/proc/self/fd/<fd>/<name>` reaches
 * `<name>` in exactly the folder the descriptor holds, wherever that folder's path now
 * leads. So each folder Skillsmith writes through is opened once, its real location
 * (the descriptor's, not the path's) checked to lie inside the project, and every
 * operation goes through the descriptor; files are opened O_NOFOLLOW|O_EXCL, and a folder
 * this code creates is reopened O_NOFOLLOW. Without /proc (macOS), the folder's real path
 * is checked and used instead, and checked again after the write.
 */

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_WRONLY, O_CREAT, O_EXCL, O_APPEND } = constants;

/** An opened folder inside the project. `at(name)` names a child of exactly this folder. */
export interface ProjectDir {
  /** '/'-separated path from the project root ('' for the root), for messages. */
  readonly rel: string;
  at(name?: string): string;
  /** Throws an `outside-project` CodedError when the folder has been moved out of the project since it was opened. */
  verify(): void;
  /** The folder `name` in this one (made first with `create`), opened never through a symlink. */
  child(name: string, create?: boolean): ProjectDir;
  close(): void;
}

function isWithin(root: string, p: string): boolean {
  const r = relative(root, p);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
}

function segmentsOf(rel: string): string[] {
  const parts = rel.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  if (parts.includes('..') || isAbsolute(rel))
    throw new CodedError('outside-project', `${rel}: not a path inside the project`);
  return parts;
}

function outside(rel: string, where: string): CodedError {
  return new CodedError(
    'outside-project',
    `${rel} leads outside the project (to ${where}) — a symlinked folder; refusing to write or delete through it`,
  );
}

function swapped(rel: string): CodedError {
  return new CodedError(
    'outside-project',
    `${rel} is a symlink where Skillsmith made or expects its own folder — refusing to follow it`,
  );
}

class Dir implements ProjectDir {
  constructor(
    readonly rel: string,
    private readonly realRoot: string,
    readonly fd: number | undefined,
    private readonly path: string,
  ) {}
  at(name?: string): string {
    const base = this.fd !== undefined ? `/proc/self/fd/${this.fd}` : this.path;
    return name === undefined ? base : `${base}/${name}`;
  }
  /** Where the folder really is now. */
  location(): string {
    try {
      return this.fd !== undefined ? readlinkSync(`/proc/self/fd/${this.fd}`) : realpathSync(this.path);
    } catch {
      return '(gone)';
    }
  }
  verify(): void {
    const where = this.location();
    if (!isWithin(this.realRoot, where)) throw outside(this.rel || '.', where);
  }
  child(name: string, create = false): ProjectDir {
    if (create) {
      try {
        mkdirSync(this.at(name));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    return openStep(this, name, this.rel ? `${this.rel}/${name}` : name, this.realRoot, true);
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

function openDirFd(path: string, noFollow: boolean): number {
  return openSync(path, O_RDONLY | O_DIRECTORY | (noFollow ? O_NOFOLLOW : 0));
}

/**
 * Open the folder `rel` of the project at `root` (created, folder by folder, with
 * `create`). Every step must land inside the project: an existing symlink may lead
 * elsewhere inside it, never out. Throws an `outside-project` CodedError (or the fs error, e.g.
 * ENOENT without `create`). The caller closes the result.
 */
export function openProjectDir(root: string, rel: string, opts: { create?: boolean } = {}): ProjectDir {
  const realRoot = realpathSync(resolve(root));
  const parts = segmentsOf(rel);
  let cur = new Dir('', realRoot, PROC_FD ? openDirFd(realRoot, false) : undefined, realRoot);
  try {
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      const stepRel = parts.slice(0, i + 1).join('/');
      let next: Dir;
      try {
        next = openStep(cur, name, stepRel, realRoot, false);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || !opts.create) throw e;
        try {
          mkdirSync(cur.at(name));
        } catch (m) {
          if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw m;
        }
        // Just made (or made by a racing process): a symlink put there meanwhile is refused.
        next = openStep(cur, name, stepRel, realRoot, true);
      }
      cur.close();
      cur = next;
      cur.verify();
    }
    return cur;
  } catch (e) {
    cur.close();
    throw e;
  }
}

function openStep(parent: Dir, name: string, stepRel: string, realRoot: string, noFollow: boolean): Dir {
  if (noFollow && lstatSync(parent.at(name)).isSymbolicLink()) throw swapped(stepRel);
  if (PROC_FD) {
    try {
      return new Dir(stepRel, realRoot, openDirFd(parent.at(name), noFollow), '');
    } catch (e) {
      // O_NOFOLLOW on a symlink: ELOOP, or ENOTDIR with O_DIRECTORY — swapped since the lstat.
      if (
        noFollow &&
        ['ELOOP', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '') &&
        lstatSync(parent.at(name)).isSymbolicLink()
      )
        throw swapped(stepRel);
      throw e;
    }
  }
  const real = realpathSync(parent.at(name));
  if (!lstatSync(real).isDirectory()) throw Object.assign(new Error(`${stepRel}: not a folder`), { code: 'ENOTDIR' });
  return new Dir(stepRel, realRoot, undefined, real);
}

/** Run `fn` with the folder `rel` opened (see openProjectDir), closing it afterwards. */
export function withProjectDir<T>(
  root: string,
  rel: string,
  opts: { create?: boolean },
  fn: (dir: ProjectDir) => T,
): T {
  const dir = openProjectDir(root, rel, opts);
  try {
    return fn(dir);
  } finally {
    dir.close();
  }
}

/**
 * Many folders of one project, each opened once and kept open: a compile writes thousands of
 * files into a few thousand folders, and opening each from the root again (one descriptor and
 * one location check per step) cost more than the writes. A folder is opened from its parent's
 * descriptor by the same rules as openProjectDir — an existing symlink may lead elsewhere
 * inside the project, never out; a folder made here is entered O_NOFOLLOW — and checked to lie
 * inside the project. At most `maxOpen` folders stay open: the least recently used one not in
 * use is closed first (fsynced before, with `fsyncOnClose`) and opened again when asked for;
 * the first folder seen on each file system stays open, so that file system can be flushed.
 */
export interface ProjectDirs {
  /**
   * Run `fn` with the folder `rel` opened (made first, folder by folder, with `create`). It
   * stays open, and its descriptor its own, until `fn` returns or the promise it returns settles.
   */
  use<T>(rel: string, create: boolean, fn: (dir: ProjectDir) => T): T;
  /**
   * Flush the file systems the folders are on, one syncfs each (fs/flush.ts): every file
   * written and renamed in them reaches the disk. False where that cannot be done here.
   */
  flushFileSystems(): Promise<boolean>;
  /** fsync every open folder, so the names made, renamed and deleted in them reach the disk. */
  fsyncFolders(): Promise<void>;
  close(): void;
}

interface Cached {
  readonly dir: Dir;
  pins: number;
}

export function openProjectDirs(root: string, opts: { maxOpen?: number; fsyncOnClose?: boolean } = {}): ProjectDirs {
  const maxOpen = opts.maxOpen ?? 1024;
  const realRoot = realpathSync(resolve(root));
  const top = new Dir('', realRoot, PROC_FD ? openDirFd(realRoot, false) : undefined, realRoot);
  // Insertion order is recency: a folder asked for again moves to the end.
  const open = new Map<string, Cached>();
  const devices = new Map<number, Dir>();
  /** Note the file system of `d`; true when it is the first folder seen there (kept open to flush it). */
  const device = (d: Dir): boolean => {
    if (d.fd === undefined) return false;
    const dev = fstatSync(d.fd).dev;
    if (devices.has(dev)) return false;
    devices.set(dev, d);
    return true;
  };
  device(top);
  const anchors = new Set<Dir>();
  const evict = (): void => {
    for (const [rel, e] of open) {
      if (open.size <= maxOpen) return;
      if (e.pins > 0 || anchors.has(e.dir)) continue;
      if (opts.fsyncOnClose && e.dir.fd !== undefined) fsyncSync(e.dir.fd);
      e.dir.close();
      open.delete(rel);
    }
  };
  const get = (parts: readonly string[], create: boolean): Cached => {
    const rel = parts.join('/');
    const hit = open.get(rel);
    if (hit) {
      open.delete(rel);
      open.set(rel, hit);
      return hit;
    }
    const parent = parts.length > 1 ? get(parts.slice(0, -1), create).dir : top;
    const name = parts[parts.length - 1]!;
    let dir: Dir;
    try {
      dir = openStep(parent, name, rel, realRoot, false);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw e;
      try {
        mkdirSync(parent.at(name));
      } catch (m) {
        if ((m as NodeJS.ErrnoException).code !== 'EEXIST') throw m;
      }
      // Just made (or made by a racing process): a symlink put there meanwhile is refused.
      dir = openStep(parent, name, rel, realRoot, true);
    }
    try {
      dir.verify();
      if (device(dir)) anchors.add(dir);
    } catch (e) {
      dir.close();
      throw e;
    }
    const entry = { dir, pins: 0 };
    open.set(rel, entry);
    entry.pins++;
    try {
      evict();
    } finally {
      entry.pins--;
    }
    return entry;
  };
  const all = (): Dir[] => [top, ...[...open.values()].map((e) => e.dir)];
  return {
    use(rel, create, fn) {
      const parts = segmentsOf(rel);
      const entry: Cached = parts.length ? get(parts, create) : { dir: top, pins: 0 };
      entry.pins++;
      let out;
      try {
        out = fn(entry.dir);
      } catch (e) {
        entry.pins--;
        throw e;
      }
      if (out instanceof Promise) return out.finally(() => entry.pins--) as typeof out;
      entry.pins--;
      return out;
    },
    flushFileSystems() {
      if (!PROC_FD) return Promise.resolve(false);
      return flushFileSystems([...devices.values()].map((d) => d.fd!));
    },
    async fsyncFolders() {
      const dirs = all();
      const fds = dirs.map((d) => d.fd ?? openSync(d.at(), O_RDONLY));
      try {
        await fsyncAll(fds);
      } finally {
        dirs.forEach((d, i) => d.fd === undefined && closeSync(fds[i]!));
      }
    },
    close() {
      for (const e of open.values()) e.dir.close();
      open.clear();
      top.close();
    },
  };
}

function splitRel(rel: string): { dir: string; name: string } {
  const parts = segmentsOf(rel);
  const name = parts.pop();
  if (name === undefined) throw new CodedError('outside-project', `${rel}: not a file path inside the project`);
  return { dir: parts.join('/'), name };
}

/** Temp name beside `name`: hidden, unique to this process and call. */
export function tempName(name: string): string {
  return `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Create `name` in `dir` exclusively, never through a symlink, write and flush it. */
export function writeNewFile(
  dir: ProjectDir,
  name: string,
  data: string | Uint8Array,
  mode = 0o644,
  durable = true,
): void {
  const fd = openSync(dir.at(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replace `name` in the opened folder atomically (temp file + rename), then check the
 * folder is still inside the project — if it was moved out meanwhile, the new file is
 * taken back out and the write refused.
 */
export function replaceFileIn(dir: ProjectDir, name: string, data: string | Uint8Array, mode = 0o644): void {
  const tmp = tempName(name);
  try {
    writeNewFile(dir, tmp, data, mode);
    renameSync(dir.at(tmp), dir.at(name));
  } catch (e) {
    rmQuiet(dir, tmp);
    throw e;
  }
  try {
    dir.verify();
  } catch (e) {
    rmQuiet(dir, name);
    throw e;
  }
}

function rmQuiet(dir: ProjectDir, name: string): void {
  try {
    unlinkSync(dir.at(name));
  } catch {
    // not there
  }
}

/** writeFileAtomic for a file of the project: `rel` is relative to `root`; parents are created. */
export function writeFileInside(root: string, rel: string, data: string | Uint8Array): void {
  const { dir, name } = splitRel(rel);
  withProjectDir(root, dir, { create: true }, (d) => replaceFileIn(d, name, data));
}

/** Append `text` to a project file with one O_APPEND write (created 0644; never through a symlink). */
export function appendFileInside(root: string, rel: string, text: string): void {
  const { dir, name } = splitRel(rel);
  withProjectDir(root, dir, { create: true }, (d) => {
    const fd = openSync(d.at(name), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o644);
    try {
      writeSync(fd, Buffer.from(text, 'utf8'));
    } finally {
      closeSync(fd);
    }
  });
}

/** The bytes of a regular file of the project, never through a symlink; undefined when absent or not a file. */
export function readFileIn(dir: ProjectDir, name: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(dir.at(name), O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Delete `name` from the opened folder: a file or symlink is unlinked, a folder emptied
 * and removed — each subfolder opened O_NOFOLLOW and emptied through its descriptor, so a
 * subfolder swapped for a symlink mid-way fails the delete instead of following it.
 */
export function removeIn(dir: ProjectDir, name: string): void {
  let st;
  try {
    st = lstatSync(dir.at(name));
  } catch {
    return;
  }
  if (!st.isDirectory()) return unlinkSync(dir.at(name));
  const sub = dir.child(name);
  try {
    for (const child of readdirSync(sub.at())) removeIn(sub, child);
  } finally {
    sub.close();
  }
  rmdirSync(dir.at(name));
}

/**
 * Refuse a project whose own folders lead outside it: `.kitbash` and `.kitbash/skills`
 * (when they exist) must be inside the project after resolving symlinks. One line names
 * the folder. Install, remove and every other change call this before anything is staged.
 */
export function assertOwnFoldersInside(root: string, rels: readonly string[]): void {
  for (const rel of rels) {
    try {
      lstatSync(join(root, rel));
    } catch {
      continue;
    }
    try {
      withProjectDir(root, rel, {}, () => undefined);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT')
        throw new CodedError(
          'outside-project',
          `${rel} is a dangling symlink — refusing to write or delete through it`,
        );
      throw e;
    }
  }
}

import {
  close,
  closeSync,
  fstat,
  fstatSync,
  open,
  openSync,
  read,
  readdirSync,
  readlinkSync,
  readSync,
  statSync,
  type Dirent,
} from 'node:fs';
import { readlink, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { fileError, type SkillsmithError, type Result } from '../../../shared/result';
import { formatBytes } from '../../../shared/text/format';
import { joinDisplay, LIMITS, type SkillTree, type TreeEntry } from '../../../shared/ksf/tree';
import { describeFsError } from '../fs/describe-error';
import { readdirEntries } from './fs-async';

const MAX_DEPTH = 32;

/** A file's bytes and execute bit, or its size when that is over the per-file limit (nothing is read then). */
type Bounded = { bytes: Uint8Array; executable: boolean } | number;

/**
 * One file-system question the walk asks. The walk is written once, as a generator that
 * yields these, and driven either synchronously (the CLI's checks, compile) or with
 * promises (install in the app, which must never hold the main thread on the disk).
 */
type Ask =
  | { op: 'isDir'; path: string }
  | { op: 'readdir'; path: string }
  | { op: 'readlink'; path: string }
  | { op: 'read'; path: string };

type Walk = Generator<Ask, Result<SkillTree>, unknown>;

/** What the disk answered to one question: a value, or the error to throw into the walk. */
type Answer = { value: unknown } | { error: unknown };
const resume = (walk: Walk, a: Answer) => ('error' in a ? walk.throw(a.error) : walk.next(a.value));

/**
 * Read a skill folder into memory, walking it the way the lock hash does: names in NFC,
 * per-directory UTF-16 order, depth first, top-level `.git` skipped, symlinks recorded
 * and never followed, special files ignored. Limits are enforced before bytes are read.
 */
export function readSkillTree(absDir: string, displayRoot: string): Result<SkillTree> {
  const walk = walkTree(absDir, displayRoot);
  let step = walk.next();
  while (!step.done) {
    const ask = step.value;
    let answer: Answer;
    try {
      answer = { value: askSync(ask) };
    } catch (error) {
      answer = { error };
    }
    step = resume(walk, answer);
  }
  return step.value;
}

/** Files read ahead of the walk at most, so a folder of many small files is not read one round trip at a time. */
const READ_AHEAD = 8;

/**
 * readSkillTree with every file-system call through promises. The walk asks for one file
 * at a time; the files of each folder it lists are read a few ahead of it, and handed to
 * it in its own order.
 */
export async function readSkillTreeAsync(absDir: string, displayRoot: string): Promise<Result<SkillTree>> {
  const walk = walkTree(absDir, displayRoot);
  const queued: string[] = [];
  const ahead = new Map<string, Promise<Answer>>();
  const answer = (a: Ask): Promise<Answer> =>
    askAsync(a).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  const topUp = () => {
    while (ahead.size < READ_AHEAD && queued.length) {
      const path = queued.shift()!;
      ahead.set(path, answer({ op: 'read', path }));
    }
  };
  let step = walk.next();
  while (!step.done) {
    const ask = step.value;
    let got: Answer;
    if (ask.op === 'read' && ahead.has(ask.path)) {
      got = await ahead.get(ask.path)!;
      ahead.delete(ask.path);
    } else {
      const i = ask.op === 'read' ? queued.indexOf(ask.path) : -1;
      if (i >= 0) queued.splice(i, 1);
      got = await answer(ask);
    }
    if (ask.op === 'readdir' && 'value' in got)
      for (const d of got.value as Dirent[]) if (d.isFile()) queued.push(`${ask.path}${sep}${d.name}`);
    topUp();
    step = resume(walk, got);
  }
  return step.value;
}

function* walkTree(absDir: string, displayRoot: string): Walk {
  try {
    if (!((yield { op: 'isDir', path: absDir }) as boolean))
      return { ok: false, error: fileError(displayRoot, 'is a file, not a skill folder (a folder with SKILL.md)') };
  } catch (e) {
    return { ok: false, error: fileError(displayRoot, describeFsError(e)) };
  }

  const entries: TreeEntry[] = [];
  let total = 0;
  function* walk(abs: string, rel: string, depth: number): Generator<Ask, SkillsmithError | undefined, unknown> {
    if (depth > MAX_DEPTH)
      return fileError(
        joinDisplay(displayRoot, rel),
        `nested deeper than ${MAX_DEPTH} folders — refusing to review it`,
      );
    let dirents: Dirent[];
    try {
      dirents = (yield { op: 'readdir', path: abs }) as Dirent[];
    } catch (e) {
      return fileError(joinDisplay(displayRoot, rel || '.'), describeFsError(e));
    }
    const named = dirents
      .map((d) => ({ d, name: d.name.normalize('NFC') }))
      .filter(({ name }) => !(depth === 0 && name === '.git'))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { d, name } of named) {
      // A name from readdir is one clean segment: no join() (and its normalising) needed.
      const childAbs = `${abs}${sep}${d.name}`;
      const childRel = rel ? `${rel}/${name}` : name;
      if (entries.length >= LIMITS.maxEntries) {
        return fileError(displayRoot, `holds more than ${LIMITS.maxEntries} entries — refusing to review it`);
      }
      try {
        if (d.isSymbolicLink()) {
          entries.push({
            kind: 'symlink',
            path: childRel,
            target: (yield { op: 'readlink', path: childAbs }) as string,
          });
        } else if (d.isDirectory()) {
          entries.push({ kind: 'dir', path: childRel });
          const err = yield* walk(childAbs, childRel, depth + 1);
          if (err) return err;
        } else if (d.isFile()) {
          const read = (yield { op: 'read', path: childAbs }) as Bounded;
          if (typeof read === 'number') {
            return fileError(
              joinDisplay(displayRoot, childRel),
              `file is ${formatBytes(read)}, over the ${formatBytes(LIMITS.maxFileBytes)} per-file limit — not read`,
            );
          }
          const { bytes, executable } = read;
          total += bytes.length;
          if (total > LIMITS.maxSkillBytes) {
            return fileError(
              displayRoot,
              `skill is over the ${formatBytes(LIMITS.maxSkillBytes)} total size limit — not read`,
            );
          }
          entries.push({ kind: 'file', path: childRel, bytes, ...(executable ? { executable: true } : {}) });
        }
      } catch (e) {
        return fileError(joinDisplay(displayRoot, childRel), describeFsError(e));
      }
    }
    return undefined;
  }
  const err = yield* walk(absDir, '', 0);
  return err ? { ok: false, error: err } : { ok: true, value: { root: displayRoot, entries } };
}

function askSync(a: Ask): unknown {
  switch (a.op) {
    case 'isDir':
      return statSync(a.path).isDirectory();
    case 'readdir':
      return readdirSync(a.path, { withFileTypes: true });
    case 'readlink':
      return readlinkSync(a.path);
    case 'read':
      return readBounded(a.path);
  }
}

async function askAsync(a: Ask): Promise<unknown> {
  switch (a.op) {
    case 'isDir':
      return (await stat(a.path)).isDirectory();
    case 'readdir':
      return readdirEntries(a.path);
    case 'readlink':
      return readlink(a.path);
    case 'read':
      return readBoundedAsync(a.path);
  }
}

function readBounded(path: string): Bounded {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const executable = (st.mode & 0o111) !== 0;
    if (size > LIMITS.maxFileBytes) return size;
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { bytes: off === size ? buf : buf.subarray(0, off), executable };
  } finally {
    closeSync(fd);
  }
}

/**
 * readBounded through the callback API: one open, fstat, read and close on the thread
 * pool — a FileHandle costs twice the main-thread time per file, and a skill folder is
 * mostly small files.
 */
function readBoundedAsync(path: string): Promise<Bounded> {
  return new Promise((resolve, reject) => {
    open(path, 'r', (openError, fd) => {
      if (openError) return reject(openError);
      const done = (error: unknown, value?: Bounded) => close(fd, () => (error ? reject(error) : resolve(value!)));
      fstat(fd, (statError, st) => {
        if (statError) return done(statError);
        const size = st.size;
        const executable = (st.mode & 0o111) !== 0;
        if (size > LIMITS.maxFileBytes) return done(undefined, size);
        const buf = Buffer.allocUnsafe(size);
        const step = (off: number): void => {
          if (off >= size) return done(undefined, { bytes: buf, executable });
          read(fd, buf, off, size - off, off, (readError, n) => {
            if (readError) return done(readError);
            if (n === 0) return done(undefined, { bytes: buf.subarray(0, off), executable });
            step(off + n);
          });
        };
        step(0);
      });
    });
  });
}

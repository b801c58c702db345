import { plural } from '../../../shared/text/format';
import { createHash, randomBytes } from 'node:crypto';
import { readdir, rename, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { LOCK_FILE, serializeLock, type LockEntry } from '../../../shared/lock/lockfile';
import {
  assertOwnFoldersInside,
  openProjectDir,
  readFileIn,
  removeIn,
  replaceFileIn,
  withProjectDir,
  writeFileInside,
  type ProjectDir,
} from '../fs/inside';
import { SKILLS_DIR } from '../skills/locate';
import type { SkillTree } from '../../../shared/ksf/tree';
import type { ProjectIndex } from '../skills/project-index';
import { lstatOrUndefined } from '../fs/stamp';
import { writeTree } from '../sources/copy';
import { faultPoint } from './fault';

/**
 * One change to the installed set, applied so that a crash at any point leaves the
 * project in the old or the new state:
 *
 *   1. copy each new folder into `.kitbash/.txn-<id>/new/` (same filesystem as the target)
 *   2. write `journal.json` — from here on the change is "committing"
 *   3. move each replaced or removed folder to `.kitbash/.txn-<id>/old/`
 *   4. rename each new folder into `.kitbash/skills/`
 *   5. write kitbash.lock atomically — the commit point
 *   6. delete the transaction folder
 *
 * `recover` (run before every change, under the project lock) rolls an interrupted
 * transaction back when the lock file is still the old one, forward when it is the new.
 */
export interface Change {
  /** name → what to install (new or replacing): a verified tree to write. */
  readonly put: ReadonlyMap<string, { readonly tree: SkillTree; readonly executable: ReadonlySet<string> }>;
  /** Names whose installed folder goes away. */
  readonly remove: readonly string[];
  readonly lock: readonly LockEntry[];
  /**
   * Project-relative paths of hand-written agent-facing copies that adopted skills replace
   * (compile regenerates them from `.kitbash/skills`). They are moved aside with the old
   * folders: restored on rollback, deleted only once the lock is committed.
   */
  readonly retire?: readonly string[];
}

interface Journal {
  readonly put: string[];
  readonly remove: string[];
  /** sha256 of the new kitbash.lock bytes. */
  readonly lockSha: string;
  /** Whether each put name replaced an installed folder. */
  readonly replaced: string[];
  /** Retired paths; the i-th is kept at `retired/<i>` until the commit. */
  readonly retire?: string[];
}

const TXN_PREFIX = '.txn-';
/** The project's own folders a change writes through; neither may lead outside the project. */
export const OWN_FOLDERS = ['.kitbash', SKILLS_DIR] as const;

/** Run `fn` on the opened parent folder of the project path `rel` and its last name. */
async function inParent<T>(
  root: string,
  rel: string,
  create: boolean,
  fn: (parent: ProjectDir, name: string) => Promise<T>,
): Promise<T> {
  const dir = posix.dirname(rel);
  const parent = openProjectDir(root, dir === '.' ? '' : dir, { create });
  try {
    return await fn(parent, posix.basename(rel));
  } finally {
    parent.close();
  }
}

function sha(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** existsSync through promises: something is at `p`, through a symlink. */
const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );
/** Anything at `p` itself, a dangling symlink included. */
const isThere = async (p: string): Promise<boolean> => (await lstatOrUndefined(p)) !== undefined;

/**
 * Apply `change` (see Change). The skill files are written through promises; `index`,
 * when given, learns the lock it writes, so the next command need not parse it again.
 */
export async function applyChange(root: string, change: Change, step = 'install', index?: ProjectIndex): Promise<void> {
  assertOwnFoldersInside(root, OWN_FOLDERS);
  const txnName = `${TXN_PREFIX}${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const dirs: ProjectDir[] = [];
  const open = (rel: string) => {
    const d = openProjectDir(root, rel, { create: true });
    dirs.push(d);
    return d;
  };
  try {
    const skills = open(SKILLS_DIR);
    const base = open('.kitbash');
    const txn = open(`.kitbash/${txnName}`);
    const fresh = open(`.kitbash/${txnName}/new`);
    for (const [name, from] of change.put) await writeTree(from.tree, fresh, name, from.executable);
    faultPoint(`${step}:copied`);
    const lockText = serializeLock(change.lock);
    const names = [...change.put.keys()];
    const replaced: string[] = [];
    for (const n of names) if (await exists(skills.at(n))) replaced.push(n);
    const retire = [...(change.retire ?? [])];
    const journal: Journal = {
      put: names,
      remove: [...change.remove],
      lockSha: sha(lockText),
      replaced,
      ...(retire.length ? { retire } : {}),
    };
    replaceFileIn(txn, 'journal.json', JSON.stringify(journal));
    faultPoint(`${step}:journal`);
    // `old/` only when something is moved aside: a plain install makes one folder fewer.
    let old: ProjectDir | undefined;
    for (const n of [...replaced, ...change.remove]) {
      old ??= open(`.kitbash/${txnName}/old`);
      if (await exists(skills.at(n))) await rename(skills.at(n), old.at(n));
      faultPoint(`${step}:moved-old`);
    }
    if (retire.length) {
      const retired = open(`.kitbash/${txnName}/retired`);
      for (const [i, rel] of retire.entries()) {
        await inParent(root, rel, false, (parent, name) => rename(parent.at(name), retired.at(String(i))));
        faultPoint(`${step}:retired`);
      }
    }
    for (const n of names) {
      await rename(fresh.at(n), skills.at(n));
      faultPoint(`${step}:placed`);
    }
    writeFileInside(root, LOCK_FILE, lockText);
    index?.learnLock(lockText, change.lock);
    faultPoint(`${step}:locked`);
    removeIn(base, txnName);
  } finally {
    for (const d of dirs) d.close();
  }
}

/** Finish or undo every interrupted transaction; returns one line per transaction handled. */
export async function recover(root: string): Promise<string[]> {
  if (!(await exists(join(root, '.kitbash')))) return [];
  assertOwnFoldersInside(root, OWN_FOLDERS);
  const done: string[] = [];
  const base = openProjectDir(root, '.kitbash');
  try {
    for (const d of await readdir(base.at())) {
      if (!d.startsWith(TXN_PREFIX)) continue;
      const journal = readJournal(base, d);
      if (!journal) {
        removeIn(base, d);
        done.push(`discarded an interrupted change that had not started committing (${d})`);
        continue;
      }
      const lockBytes = withProjectDir(root, '', {}, (r) => readFileIn(r, LOCK_FILE));
      const lockSha = lockBytes ? sha(lockBytes) : '';
      const skills = openProjectDir(root, SKILLS_DIR, { create: true });
      try {
        const inTxn = (part: 'new' | 'old', n: string) => exists(base.at(`${d}/${part}/${n}`));
        if (lockSha === journal.lockSha) {
          // Committed: make sure every new folder is in place, drop the old ones.
          for (const n of journal.put)
            if ((await inTxn('new', n)) && !(await exists(skills.at(n))))
              await rename(base.at(`${d}/new/${n}`), skills.at(n));
          done.push(`completed an interrupted change (${journal.put.length} placed, ${journal.remove.length} removed)`);
        } else {
          // Not committed: take new folders back out, put the old ones back.
          for (const n of journal.put) {
            const movedAside = await inTxn('old', n);
            const wasReplacement = journal.replaced.includes(n);
            if (!(await inTxn('new', n)) && (await exists(skills.at(n))) && (movedAside || !wasReplacement))
              removeIn(skills, n);
          }
          for (const n of new Set([...journal.replaced, ...journal.remove])) {
            if ((await inTxn('old', n)) && !(await exists(skills.at(n))))
              await rename(base.at(`${d}/old/${n}`), skills.at(n));
          }
          for (const [i, rel] of (journal.retire ?? []).entries()) {
            const kept = base.at(`${d}/retired/${i}`);
            if (!(await isThere(kept))) continue;
            await inParent(root, rel, true, async (parent, name) => {
              if (!(await isThere(parent.at(name)))) await rename(kept, parent.at(name));
            });
          }
          done.push(
            `rolled back an interrupted change (${plural(journal.put.length + journal.remove.length, 'skill folder')} restored)`,
          );
        }
      } finally {
        skills.close();
      }
      removeIn(base, d);
    }
  } finally {
    base.close();
  }
  return done;
}

function readJournal(base: ProjectDir, txn: string): Journal | undefined {
  try {
    const bytes = withProjectDir(base.at(), txn, {}, (t) => readFileIn(t, 'journal.json'));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as Journal) : undefined;
  } catch {
    return undefined;
  }
}

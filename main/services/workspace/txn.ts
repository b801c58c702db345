import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync } from 'node:fs';
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
import { writeTree } from '../sources/copy';
import { faultPoint } from './fault';
import { isPresent } from '../fs/probe';

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
function inParent<T>(root: string, rel: string, create: boolean, fn: (parent: ProjectDir, name: string) => T): T {
  const dir = posix.dirname(rel);
  return withProjectDir(root, dir === '.' ? '' : dir, { create }, (parent) => fn(parent, posix.basename(rel)));
}

function sha(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export function applyChange(root: string, change: Change, step = 'install'): void {
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
    const old = open(`.kitbash/${txnName}/old`);
    for (const [name, from] of change.put) writeTree(from.tree, fresh, name, from.executable);
    faultPoint(`${step}:copied`);
    const lockText = serializeLock(change.lock);
    const names = [...change.put.keys()];
    const replaced = names.filter((n) => existsSync(skills.at(n)));
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
    for (const n of [...replaced, ...change.remove]) {
      if (existsSync(skills.at(n))) renameSync(skills.at(n), old.at(n));
      faultPoint(`${step}:moved-old`);
    }
    if (retire.length) {
      const retired = open(`.kitbash/${txnName}/retired`);
      retire.forEach((rel, i) => {
        inParent(root, rel, false, (parent, name) => renameSync(parent.at(name), retired.at(String(i))));
        faultPoint(`${step}:retired`);
      });
    }
    for (const n of names) {
      renameSync(fresh.at(n), skills.at(n));
      faultPoint(`${step}:placed`);
    }
    writeFileInside(root, LOCK_FILE, lockText);
    faultPoint(`${step}:locked`);
    removeIn(base, txnName);
  } finally {
    for (const d of dirs) d.close();
  }
}

/** Finish or undo every interrupted transaction; returns one line per transaction handled. */
export function recover(root: string): string[] {
  if (!existsSync(join(root, '.kitbash'))) return [];
  assertOwnFoldersInside(root, OWN_FOLDERS);
  const done: string[] = [];
  withProjectDir(root, '.kitbash', {}, (base) => {
    for (const d of readdirSync(base.at())) {
      if (!d.startsWith(TXN_PREFIX)) continue;
      const journal = readJournal(base, d);
      if (!journal) {
        removeIn(base, d);
        done.push(`discarded an interrupted change that had not started committing (${d})`);
        continue;
      }
      const lockBytes = withProjectDir(root, '', {}, (r) => readFileIn(r, LOCK_FILE));
      const lockSha = lockBytes ? sha(lockBytes) : '';
      withProjectDir(root, SKILLS_DIR, { create: true }, (skills) => {
        const inTxn = (part: 'new' | 'old', n: string) => existsSync(base.at(`${d}/${part}/${n}`));
        if (lockSha === journal.lockSha) {
          // Committed: make sure every new folder is in place, drop the old ones.
          for (const n of journal.put)
            if (inTxn('new', n) && !existsSync(skills.at(n))) renameSync(base.at(`${d}/new/${n}`), skills.at(n));
          done.push(`completed an interrupted change (${journal.put.length} placed, ${journal.remove.length} removed)`);
        } else {
          // Not committed: take new folders back out, put the old ones back.
          for (const n of journal.put) {
            const movedAside = inTxn('old', n);
            const wasReplacement = journal.replaced.includes(n);
            if (!inTxn('new', n) && existsSync(skills.at(n)) && (movedAside || !wasReplacement)) removeIn(skills, n);
          }
          for (const n of new Set([...journal.replaced, ...journal.remove])) {
            if (inTxn('old', n) && !existsSync(skills.at(n))) renameSync(base.at(`${d}/old/${n}`), skills.at(n));
          }
          (journal.retire ?? []).forEach((rel, i) => {
            const kept = base.at(`${d}/retired/${i}`);
            if (!isPresent(kept)) return;
            inParent(root, rel, true, (parent, name) => {
              if (!isPresent(parent.at(name))) renameSync(kept, parent.at(name));
            });
          });
          done.push(
            `rolled back an interrupted change (${journal.put.length + journal.remove.length} skill folder(s) restored)`,
          );
        }
      });
      removeIn(base, d);
    }
  });
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

import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCK_FILE, serializeLock, type LockEntry } from '../../../shared/lock/lockfile';
import { writeFileAtomic } from '../fs/atomic';
import { SKILLS_DIR } from '../skills/locate';
import type { SkillTree } from '../../../shared/ksf/tree';
import { copySkillFolder, writeTree } from '../sources/copy';
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
  /** name → what to install (new or replacing): a folder to copy, or a verified tree to write. */
  readonly put: ReadonlyMap<string, string | { readonly tree: SkillTree; readonly executable: ReadonlySet<string> }>;
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

/** True for anything at `p`, a dangling symlink included (existsSync follows links). */
function isPresent(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function sha(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export function applyChange(root: string, change: Change, step = 'install'): void {
  const skills = join(root, SKILLS_DIR);
  mkdirSync(skills, { recursive: true });
  const txn = join(root, '.kitbash', `${TXN_PREFIX}${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
  mkdirSync(join(txn, 'new'), { recursive: true });
  mkdirSync(join(txn, 'old'), { recursive: true });
  for (const [name, from] of change.put) {
    if (typeof from === 'string') copySkillFolder(from, join(txn, 'new', name), { maxFiles: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }, name);
    else writeTree(from.tree, join(txn, 'new', name), from.executable);
  }
  faultPoint(`${step}:copied`);
  const lockText = serializeLock(change.lock);
  const names = [...change.put.keys()];
  const replaced = names.filter((n) => existsSync(join(skills, n)));
  const retire = [...(change.retire ?? [])];
  const journal: Journal = { put: names, remove: [...change.remove], lockSha: sha(lockText), replaced, ...(retire.length ? { retire } : {}) };
  writeFileAtomic(join(txn, 'journal.json'), JSON.stringify(journal));
  faultPoint(`${step}:journal`);
  for (const n of [...replaced, ...change.remove]) {
    if (existsSync(join(skills, n))) renameSync(join(skills, n), join(txn, 'old', n));
    faultPoint(`${step}:moved-old`);
  }
  if (retire.length) mkdirSync(join(txn, 'retired'));
  retire.forEach((rel, i) => {
    renameSync(join(root, ...rel.split('/')), join(txn, 'retired', String(i)));
    faultPoint(`${step}:retired`);
  });
  for (const n of names) {
    renameSync(join(txn, 'new', n), join(skills, n));
    faultPoint(`${step}:placed`);
  }
  writeFileAtomic(join(root, LOCK_FILE), lockText);
  faultPoint(`${step}:locked`);
  rmSync(txn, { recursive: true, force: true });
}

/** Finish or undo every interrupted transaction; returns one line per transaction handled. */
export function recover(root: string): string[] {
  const base = join(root, '.kitbash');
  if (!existsSync(base)) return [];
  const skills = join(root, SKILLS_DIR);
  const done: string[] = [];
  for (const d of readdirSync(base)) {
    if (!d.startsWith(TXN_PREFIX)) continue;
    const txn = join(base, d);
    let journal: Journal | undefined;
    try {
      journal = JSON.parse(readFileSync(join(txn, 'journal.json'), 'utf8')) as Journal;
    } catch {
      journal = undefined;
    }
    if (!journal) {
      rmSync(txn, { recursive: true, force: true });
      done.push(`discarded an interrupted change that had not started committing (${d})`);
      continue;
    }
    let lockSha = '';
    try {
      lockSha = sha(readFileSync(join(root, LOCK_FILE)));
    } catch {
      lockSha = '';
    }
    if (lockSha === journal.lockSha) {
      // Committed: make sure every new folder is in place, drop the old ones.
      for (const n of journal.put) if (existsSync(join(txn, 'new', n)) && !existsSync(join(skills, n))) renameSync(join(txn, 'new', n), join(skills, n));
      done.push(`completed an interrupted change (${journal.put.length} placed, ${journal.remove.length} removed)`);
    } else {
      // Not committed: take new folders back out, put the old ones back.
      for (const n of journal.put) {
        const movedAside = existsSync(join(txn, 'old', n));
        const wasReplacement = journal.replaced.includes(n);
        if (!existsSync(join(txn, 'new', n)) && existsSync(join(skills, n)) && (movedAside || !wasReplacement)) rmSync(join(skills, n), { recursive: true, force: true });
      }
      for (const n of new Set([...journal.replaced, ...journal.remove])) {
        if (existsSync(join(txn, 'old', n)) && !existsSync(join(skills, n))) renameSync(join(txn, 'old', n), join(skills, n));
      }
      (journal.retire ?? []).forEach((rel, i) => {
        const kept = join(txn, 'retired', String(i));
        const home = join(root, ...rel.split('/'));
        if (!isPresent(kept) || isPresent(home)) return;
        mkdirSync(dirname(home), { recursive: true });
        renameSync(kept, home);
      });
      done.push(`rolled back an interrupted change (${journal.put.length + journal.remove.length} skill folder(s) restored)`);
    }
    rmSync(txn, { recursive: true, force: true });
  }
  return done;
}

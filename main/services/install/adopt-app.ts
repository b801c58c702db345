import { CodedError, isCoded } from '../../../shared/result';
import { acquireProjectLockAsync } from '../workspace/project-lock';
import { recompileAfterChange } from '../workspace/recompile';
import { commitAdoption, scanAdoption, type AdoptPlan } from './adopt';
import { listSourceSkills } from './listing';

/**
 * Adoption for the desktop, stateless across calls: `scanForApp` reviews and forgets;
 * `adoptShown` scans again and adopts only when the new review hashes to what the window
 * was shown, so a file edited in between (or a window naming another hash) adopts nothing.
 */

/**
 * What adoption cannot take is refused: a folder that does not stage (invalid-input) is
 * `forbidden` here, as a changed review is. Any other failure (a bad kitbash.toml) is the
 * user's to fix: its first line, not an internal error.
 */
function userError(e: unknown): never {
  if (isCoded(e, 'invalid-input')) throw new CodedError('forbidden', e.message);
  if (isCoded(e)) throw e;
  if (e instanceof Error) throw new CodedError('invalid-input', e.message.split('\n')[0]!);
  throw e;
}

/** Run `read` over a fresh scan of the project's hand-written skills, then dispose the scan. */
export async function scanForApp<T>(root: string, read: (plan: AdoptPlan) => T): Promise<T> {
  let scan;
  try {
    scan = await scanAdoption(root);
  } catch (e) {
    userError(e);
  }
  try {
    return read(scan.plan);
  } finally {
    await scan.dispose();
  }
}

export async function adoptShown(root: string, integrity: string) {
  const release = await acquireProjectLockAsync(root, { command: 'adopt (app)' });
  try {
    const scan = await scanAdoption(root);
    try {
      if (scan.plan.integrity !== integrity)
        throw new CodedError(
          'forbidden',
          'the hand-written skills changed since the review — nothing adopted; review them again',
        );
      if (!scan.plan.items.some((i) => i.status === 'adoptable'))
        throw new CodedError('not-found', 'there is nothing to adopt');
      const result = await commitAdoption(scan, { integrity });
      const notes: string[] = [];
      await recompileAfterChange(root, (t) => notes.push(t.trim()), 'adopt');
      return { adopted: result.adopted, retired: result.retired, notes };
    } finally {
      await scan.dispose();
    }
  } catch (e) {
    return userError(e);
  } finally {
    release();
  }
}

/** The skills a source offers, for picking one before the install review. */
export async function listSourceForApp(source: string, root: string) {
  try {
    const l = await listSourceSkills(source, root);
    return { single: l.single, skills: l.skills.map((s) => ({ ...s })) };
  } catch (e) {
    return userError(e);
  }
}

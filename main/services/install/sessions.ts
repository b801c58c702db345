import type { InstallReview } from '../../../shared/lock/review';
import { acquireProjectLock } from '../workspace/project-lock';
import { recompileAfterChange } from '../workspace/recompile';
import { recover } from '../workspace/txn';
import { withEnforcement } from './enforcement';
import { commitInstall, stageInstall, type StagedInstall } from './stage';

/**
 * Install sessions for the desktop approval dialog: `beginInstall` stages and returns the
 * review (with enforcement labels); the dialog shows it; `approveInstall` commits exactly
 * that review by its hash; `cancelInstall` throws the staged copy away. Sessions live in
 * this process only and expire after 30 minutes.
 */
const sessions = new Map<string, { staged: StagedInstall; at: number }>();
const TTL_MS = 30 * 60 * 1000;

function sweep(): void {
  const now = Date.now();
  for (const [id, s] of sessions) {
    if (now - s.at > TTL_MS) {
      s.staged.dispose();
      sessions.delete(id);
    }
  }
}

/** Stage `source` for `project` and return the session id and its review. Throws a one-line Error on a bad source. */
export async function beginInstall(project: string, source: string): Promise<{ id: string; review: InstallReview }> {
  sweep();
  const staged = stageInstall(project, source);
  sessions.set(staged.id, { staged, at: Date.now() });
  return { id: staged.id, review: await withEnforcement(staged.review) };
}

/** Commit the session's staged files if `integrity` is the review's hash; recompiles afterwards. */
export async function approveInstall(id: string, integrity: string): Promise<{ installed: string[]; notes: string[] }> {
  const s = sessions.get(id);
  if (!s) throw new Error('this install review has expired or was already used — review the source again');
  sessions.delete(id);
  const notes: string[] = [];
  const release = acquireProjectLock(s.staged.project, { command: `install (app) ${s.staged.review.root}` });
  try {
    notes.push(...recover(s.staged.project));
    const r = commitInstall(s.staged, { integrity });
    if (r.installed.length) await recompileAfterChange(s.staged.project, (t) => notes.push(t.trim()), 'install');
    return { installed: r.installed, notes };
  } finally {
    release();
    s.staged.dispose();
  }
}

/** The staged install behind a live session (its folders, the nodes), or undefined. */
export function stagedOf(id: string): StagedInstall | undefined {
  return sessions.get(id)?.staged;
}

/** Drop a session without installing anything. */
export function cancelInstall(id: string): void {
  const s = sessions.get(id);
  if (!s) return;
  sessions.delete(id);
  s.staged.dispose();
}

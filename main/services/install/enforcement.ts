import type { InstallReview, PermissionEntry } from '../../../shared/lock/review';
import { currentHost, probeReport } from '../sandbox/probe';
import { LABEL, type RestrictionId } from '../sandbox/types';

/** Which sandbox restriction holds each kind of declared permission. */
function restrictionFor(permission: string): RestrictionId {
  if (permission === 'network') return 'network';
  if (permission === 'write') return 'filesystem';
  return 'tools';
}

/**
 * Label each declared permission with how this machine's sandbox would hold a skill to
 * it (the sandbox probe). Labels do not change the review's integrity.
 */
export async function withEnforcement(review: InstallReview): Promise<InstallReview> {
  let rows;
  try {
    // A declared permission is labelled as it reads when granted (network = true, write =
    // true), the same rows the Runs tab shows for that skill — not the no-network default.
    const report = await probeReport(currentHost());
    rows = [...report.granted, ...report.rows.filter((r) => r.id === 'tools')];
  } catch {
    return review;
  }
  const label = (p: PermissionEntry): PermissionEntry['enforcement'] => {
    const row = rows.find((r) => r.id === restrictionFor(p.permission));
    if (!row) return { label: 'unavailable', detail: 'the sandbox probe did not report this restriction' };
    if (row.label === LABEL.advisory) return { label: 'advisory', detail: row.what };
    return { label: 'enforced', detail: `${row.label}: ${row.what}` };
  };
  return { ...review, nodes: review.nodes.map((n) => ({ ...n, permissions: n.permissions.map((p) => ({ ...p, enforcement: label(p) })) })) };
}

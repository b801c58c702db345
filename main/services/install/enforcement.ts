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
 * Start the sandbox probe (it spawns the sandbox tools, and is kept per process) so that
 * it runs while the source is fetched and staged, instead of after.
 */
export function probeEnforcement(): void {
  probeReport(currentHost(), { version: false }).catch(() => undefined);
}

/**
 * Label each declared permission with how this machine's sandbox would hold a skill to
 * it (the sandbox probe). Labels do not change the review's integrity.
 */
export async function withEnforcement(review: InstallReview): Promise<InstallReview> {
  const host = currentHost();
  const nodes = [];
  // Nodes that declare the same permissions get the same rows (a closure can hold hundreds).
  const reports = new Map<string, ReturnType<typeof probeReport>>();
  for (const n of review.nodes) {
    // Probed with the node's own declared permissions, so the rows (e.g. the tools row)
    // describe what this skill declares rather than an empty default.
    const declared = (id: string) => n.permissions.some((p) => p.permission === id && p.declared);
    const permissions = {
      network: declared('network'),
      write: declared('write'),
      tools: n.permissions
        .filter((p) => p.permission.startsWith('tool:') && p.declared)
        .map((p) => p.permission.slice(5)),
    };
    const key = JSON.stringify(permissions);
    let report = reports.get(key);
    if (!report) reports.set(key, (report = probeReport(host, { permissions, version: false })));
    let rows;
    try {
      rows = (await report).rows;
    } catch {
      return review;
    }
    nodes.push({ ...n, permissions: n.permissions.map((p) => ({ ...p, enforcement: label(rows, p) })) });
  }
  return { ...review, nodes };
}

function label(
  rows: Awaited<ReturnType<typeof probeReport>>['rows'],
  p: PermissionEntry,
): PermissionEntry['enforcement'] {
  const row = rows.find((r) => r.id === restrictionFor(p.permission));
  if (!row) return { label: 'unavailable', detail: 'the sandbox probe did not report this restriction' };
  if (row.label === LABEL.advisory) return { label: 'advisory', detail: row.what };
  return { label: 'enforced', detail: `${row.label}: ${row.what}` };
}

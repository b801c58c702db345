import type { StagedFile } from '../../../shared/ipc/channels/review';
import { decodeLenient, isBinary } from '../../../shared/ksf/text';
import { lintSkill } from '../../../shared/lint/checks';
import { CodedError } from '../../../shared/result';
import { acceptFinding, type AcceptRequest } from '../policy/exceptions';
import type { LiveReview } from './reviews';
import type { StagedNode } from './stage';

/**
 * The review dialog's file viewer: a live review's staged in-memory tree (nothing else is
 * read), with each file's lint findings, and accepting one finding into the project policy.
 */

/** Largest text sent to the viewer; the rest is named as cut. */
const MAX_TEXT = 512 * 1024;

/** The node of a live review by skill name. */
export function nodeOf(review: LiveReview, skill: string): StagedNode {
  const node = review.staged.nodes.find((n) => n.name === skill);
  if (!node) throw new CodedError('not-found', `${skill} is not part of this review`);
  return node;
}

export function stagedFiles(node: StagedNode) {
  const checks = lintSkill(node.skill);
  const count = (path: string) =>
    checks.reduce(
      (n, c) => n + (c.status === 'pass' ? 0 : (c.locations ?? []).filter((l) => l.file === path).length),
      0,
    );
  return {
    files: node.skill.tree.entries.flatMap(
      (e): { path: string; kind: 'text' | 'binary' | 'symlink'; bytes: number; findings: number }[] => {
        if (e.kind === 'dir') return [];
        if (e.kind === 'symlink')
          return [{ path: e.path, kind: 'symlink', bytes: e.target.length, findings: count(e.path) }];
        return [
          {
            path: e.path,
            kind: isBinary(e.bytes) ? 'binary' : 'text',
            bytes: e.bytes.length,
            findings: count(e.path),
          },
        ];
      },
    ),
  };
}

export function stagedFile(node: StagedNode, skill: string, path: string): StagedFile {
  const entry = node.skill.tree.entries.find((e) => e.path === path && e.kind !== 'dir');
  if (!entry || entry.kind === 'dir') throw new CodedError('not-found', `${skill} has no file ${path}`);
  const findings = lintSkill(node.skill).flatMap((c) =>
    c.status === 'pass'
      ? []
      : (c.locations ?? [])
          .filter((l) => l.file === path)
          .map((l) => ({
            check: c.id,
            status: c.status as 'warn' | 'fail',
            detail: c.detail ?? c.id,
            location: { ...l },
          })),
  );
  const base = { skill, path, findings };
  if (entry.kind === 'symlink')
    return { ...base, kind: 'symlink', bytes: entry.target.length, truncated: false, target: entry.target };
  if (isBinary(entry.bytes)) return { ...base, kind: 'binary', bytes: entry.bytes.length, truncated: false };
  const cut = entry.bytes.length > MAX_TEXT;
  return {
    ...base,
    kind: 'text',
    bytes: entry.bytes.length,
    text: decodeLenient(cut ? entry.bytes.subarray(0, MAX_TEXT) : entry.bytes).text,
    truncated: cut,
  };
}

/**
 * Accept one finding of a staged skill (a built-in check's, a scanner's this review found, or
 * the require_signed refusal of its signature) into the project's policy exceptions.
 */
export function acceptStagedFinding(review: LiveReview, node: StagedNode, finding: AcceptRequest) {
  const reviewed = review.review.nodes.find((n) => n.name === node.name);
  const found = { scanners: reviewed?.scanners ?? [], signature: reviewed?.signature, policy: reviewed?.policy ?? [] };
  const r = acceptFinding(review.project, node.skill, node.integrity, finding, found);
  if (!r.ok) throw CodedError.of(r.error);
  return { entry: { ...r.value } };
}

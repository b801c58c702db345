import type { StagedFile } from '../../../shared/ipc/channels/review';
import { decodeLenient, isBinary } from '../../../shared/ksf/text';
import { lintSkill } from '../../../shared/lint/checks';
import type { StagedNode } from '../../services/install/stage';
import { acceptFinding } from '../../services/policy/exceptions';
import { HandlerError } from '../errors';
import type { AreaHandlers, HandlerContext } from '../table';
import { liveReview } from './install';

/** Largest text sent to the viewer; the rest is named as cut. */
const MAX_TEXT = 512 * 1024;

/** The node of a live review by skill name; its files are the staged in-memory tree, nothing else. */
function nodeOf(ctx: HandlerContext, id: string, skill: string): { project: string; node: StagedNode } {
  const { project, staged } = liveReview(ctx, id);
  const node = staged.nodes.find((n) => n.name === skill);
  if (!node) throw new HandlerError('not-found', `${skill} is not part of this review`);
  return { project, node };
}

export const reviewHandlers: AreaHandlers<'review'> = {
  files: (req, ctx) => {
    const { node } = nodeOf(ctx, req.id, req.skill);
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
  },

  file: (req, ctx) => {
    const { node } = nodeOf(ctx, req.id, req.skill);
    const entry = node.skill.tree.entries.find((e) => e.path === req.path && e.kind !== 'dir');
    if (!entry || entry.kind === 'dir') throw new HandlerError('not-found', `${req.skill} has no file ${req.path}`);
    const findings = lintSkill(node.skill).flatMap((c) =>
      c.status === 'pass'
        ? []
        : (c.locations ?? [])
            .filter((l) => l.file === req.path)
            .map((l) => ({
              check: c.id,
              status: c.status as 'warn' | 'fail',
              detail: c.detail ?? c.id,
              location: { ...l },
            })),
    );
    const base = { skill: req.skill, path: req.path, findings };
    if (entry.kind === 'symlink')
      return {
        ...base,
        kind: 'symlink',
        bytes: entry.target.length,
        truncated: false,
        target: entry.target,
      } satisfies StagedFile;
    if (isBinary(entry.bytes))
      return { ...base, kind: 'binary', bytes: entry.bytes.length, truncated: false } satisfies StagedFile;
    const cut = entry.bytes.length > MAX_TEXT;
    return {
      ...base,
      kind: 'text',
      bytes: entry.bytes.length,
      text: decodeLenient(cut ? entry.bytes.subarray(0, MAX_TEXT) : entry.bytes).text,
      truncated: cut,
    } satisfies StagedFile;
  },

  acceptFinding: (req, ctx) => {
    const { project, node } = nodeOf(ctx, req.id, req.skill);
    const r = acceptFinding(project, node.skill, node.integrity, {
      check: req.check,
      file: req.file,
      line: req.line,
      by: req.by,
      reason: req.reason,
    });
    if (!r.ok) throw new HandlerError('forbidden', r.message);
    return { entry: { ...r.entry } };
  },
};

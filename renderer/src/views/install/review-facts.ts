/** Pure readings of a review object that more than one part of the review panel shows. */
import type { ReviewNodeView, ReviewView } from '../../../../shared/ipc/channels/install';

export type Finding = ReviewNodeView['lint'][number];

/** The permissions a reviewer should weigh first: they reach out of the skill's folder. */
export const HOT: ReadonlySet<string> = new Set(['network', 'write']);

/** `file:line:col–line:col` of a finding's first place, or null when it has none. */
export function span(f: Finding): string | null {
  const l = f.locations[0];
  if (!l) return null;
  const end = l.endLine === l.line ? `${l.endColumn}` : `${l.endLine}:${l.endColumn}`;
  return `${l.file}:${l.line}:${l.column}–${end}`;
}

/** `skill: permission` for each hot permission any skill of the closure declares. */
export function hotPermissions(review: ReviewView): string[] {
  return review.nodes.flatMap((n) =>
    n.permissions.filter((p) => p.declared && HOT.has(p.permission)).map((p) => `${n.name}: ${p.permission}`),
  );
}

/**
 * The closure's findings by kind, each with the skill it is in. A lint finding that is also
 * a safety finding (same check, same detail) is listed once, with the blocking ones.
 */
export function reviewFindings(review: ReviewView): {
  safety: { node: string; f: Finding }[];
  lint: { node: string; f: Finding }[];
  policy: { node: string; p: string }[];
} {
  return {
    safety: review.nodes.flatMap((n) => n.safety.map((f) => ({ node: n.name, f }))),
    lint: review.nodes.flatMap((n) =>
      n.lint
        .filter((f) => !n.safety.some((s) => s.id === f.id && s.detail === f.detail))
        .map((f) => ({ node: n.name, f })),
    ),
    policy: review.nodes.flatMap((n) => n.policy.map((p) => ({ node: n.name, p }))),
  };
}

/**
 * Characters a reader cannot see (controls, zero-width, bidi overrides, tags, BOM): shown
 * as a visible ⟦U+XXXX⟧ marker so hidden text cannot pass for blank space in the viewer.
 */
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]|\udb40[\udc00-\udc7f]/g;

export function showInvisible(line: string): { text: string; hidden: number } {
  let hidden = 0;
  const text = line.replace(INVISIBLE, (c) => {
    hidden++;
    return `⟦U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟧`;
  });
  return { text, hidden };
}

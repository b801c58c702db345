/**
 * Step 2b of the plan: every always-loaded merged file (AGENTS.md, CONVENTIONS.md, …) is kept
 * within its readers' documented limit (spec D221). A file that would pass it is written with
 * the sections that fit, and the skills left out are named — the file never grows without bound.
 */
import { boundDoc, SharedDoc } from './sections';
import type { ProjectFiles, TargetDef } from '../targets/types';

export interface MergedDoc {
  readonly doc: SharedDoc;
  readonly changed: boolean;
}

/** The always-loaded paths of these targets, with their limit (the strictest when two share a path). */
export function readLimits(targets: readonly TargetDef[]): Map<string, { maxBytes: number; source: string }> {
  const out = new Map<string, { maxBytes: number; source: string }>();
  for (const t of targets)
    for (const a of t.alwaysLoaded) {
      const prev = out.get(a.path);
      if (!prev || a.maxBytes < prev.maxBytes) out.set(a.path, { maxBytes: a.maxBytes, source: a.source });
    }
  return out;
}

/** One line naming the skills a merged file has no room for, with its size and limit. */
export function leftOutWarning(
  path: string,
  left: readonly string[],
  unbounded: number,
  limit: { maxBytes: number; source: string },
): string {
  const names = left.length > 5 ? `${left.slice(0, 5).join(', ')}, … (${left.length} in all)` : left.join(', ');
  return `${path} would be ${unbounded} bytes, over the ${limit.maxBytes}-byte limit of its readers (${limit.source}) — not written there: ${names}. Its readers do not get ${left.length === 1 ? 'this skill' : 'these skills'}: choose a target that loads skills lazily, or fewer skills`;
}

/**
 * Cut each over-limit merged file to its limit: `docs` is updated in place, `sections` holds
 * each limited file's sections in emit order. Returns the warnings.
 */
export function boundMergedFiles(
  targets: readonly TargetDef[],
  project: ProjectFiles,
  docs: Map<string, MergedDoc>,
  sections: ReadonlyMap<string, readonly { name: string; content: string }[]>,
): string[] {
  const warnings: string[] = [];
  for (const [path, limit] of readLimits(targets)) {
    const merged = docs.get(path);
    if (!merged || merged.doc.byteLength() <= limit.maxBytes) continue;
    const disk = project.read(path) ?? '';
    const bounded = boundDoc(
      SharedDoc.parse(disk, () => false),
      sections.get(path) ?? [],
      limit.maxBytes,
      // The merged doc just measured holds the same section strings: their sizes serve again.
      (s) => merged.doc.sectionBytes(s.name, s.content),
    );
    // Only the user's own text can keep a file past its limit: then every section is left out.
    docs.set(path, { doc: bounded.doc, changed: bounded.doc.toString() !== disk });
    if (bounded.left.length) warnings.push(leftOutWarning(path, bounded.left, bounded.unbounded, limit));
  }
  return warnings;
}

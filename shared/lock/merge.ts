import { diff3Merge } from 'node-diff3';
import type { SkillTree, TreeEntry } from '../ksf/tree';
import { isBinary } from '../ksf/text';
import { hashableBytes, utf8Encode } from './integrity';

/** Which side an update takes for a file both sides changed in ways that do not merge. */
export type Prefer = 'ours' | 'theirs';

/** The marker lines a conflict is left with (git's shape, labelled by side). */
export const MARKERS = { ours: '<<<<<<< local', mid: '=======', theirs: '>>>>>>> upstream' } as const;

/**
 * What the update did to one file: `upstream` took the new upstream file (the local copy was
 * the base), `deleted` followed upstream removing an unedited file, `local` kept a local edit
 * upstream did not touch (or a file only the user has), `merged` combined both edits cleanly,
 * `conflict` left markers, `ours`/`theirs` settled a conflict as `--ours`/`--theirs` asked,
 * and `unresolved` is a conflict no marker can hold (a binary file, a link, an edit against a
 * removal) with neither flag given.
 */
export type FileOutcome = 'upstream' | 'deleted' | 'local' | 'merged' | 'conflict' | 'ours' | 'theirs' | 'unresolved';

export interface TreeMerge {
  /** The files (and links) of the merged folder; `executable` as on the side each came from. */
  readonly entries: readonly TreeEntry[];
  /** Every file whose result is not simply the local copy unchanged, in path order. */
  readonly files: readonly { readonly path: string; readonly outcome: FileOutcome }[];
}

type Leaf = Exclude<TreeEntry, { kind: 'dir' }>;

const dec = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function leaves(t: SkillTree): Map<string, Leaf> {
  return new Map(t.entries.filter((e): e is Leaf => e.kind !== 'dir').map((e) => [e.path, e]));
}

/** Same content as the lock hash sees it (CRLF-normalised text; a link by its target). */
function same(a: Leaf | undefined, b: Leaf | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'symlink' || b.kind === 'symlink')
    return a.kind === 'symlink' && b.kind === 'symlink' && a.target === b.target;
  const x = hashableBytes(a.bytes);
  const y = hashableBytes(b.bytes);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** The text of a file that can take a line merge; undefined for a link or a binary file. */
function textOf(e: Leaf | undefined): string | undefined {
  if (!e || e.kind !== 'file' || isBinary(e.bytes)) return undefined;
  return dec.decode(hashableBytes(e.bytes));
}

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const ended = (ls: readonly string[]): string => {
  const s = ls.join('');
  return s === '' || s.endsWith('\n') ? s : `${s}\n`;
};

/** A line-level three-way merge; `conflict` when some hunk was changed differently on both sides. */
export function mergeText(ours: string, base: string, theirs: string): { text: string; conflict: boolean } {
  let out = '';
  let conflict = false;
  for (const r of diff3Merge(lines(ours), lines(base), lines(theirs))) {
    if (r.ok) out += r.ok.join('');
    else if (r.conflict) {
      conflict = true;
      out = ended([out]);
      out += `${MARKERS.ours}\n${ended(r.conflict.a)}${MARKERS.mid}\n${ended(r.conflict.b)}${MARKERS.theirs}\n`;
    }
  }
  return { text: out, conflict };
}

/**
 * Merge the installed copy (`ours`) with the new upstream (`theirs`) over the version they
 * both started from (`base`). Without a base nothing can tell an edit from an upstream
 * change, so every file that differs is a conflict for `prefer` to settle, and a file only
 * one side has is kept (upstream's new file is added; the local one is never deleted).
 */
export function mergeTrees(
  base: SkillTree | undefined,
  ours: SkillTree,
  theirs: SkillTree,
  prefer?: Prefer,
): TreeMerge {
  const b = base ? leaves(base) : undefined;
  const o = leaves(ours);
  const t = leaves(theirs);
  const paths = [...new Set([...(b?.keys() ?? []), ...o.keys(), ...t.keys()])].sort();
  const entries: TreeEntry[] = [];
  const files: { path: string; outcome: FileOutcome }[] = [];
  const take = (e: Leaf | undefined, path: string, outcome?: FileOutcome) => {
    if (e) entries.push(e);
    if (outcome) files.push({ path, outcome });
  };
  for (const path of paths) {
    const be = b?.get(path);
    const oe = o.get(path);
    const te = t.get(path);
    if (same(oe, te)) take(oe, path);
    else if (b && same(oe, be)) take(te, path, te ? 'upstream' : 'deleted');
    else if (!b && !oe) take(te, path, 'upstream');
    else if ((b && same(te, be)) || (!b && !te)) take(oe, path, 'local');
    else {
      // Both sides changed the file. A line merge is tried only over a real base.
      const [ot, bt, tt] = [textOf(oe), b ? (be ? textOf(be) : '') : undefined, textOf(te)];
      const merged = ot !== undefined && bt !== undefined && tt !== undefined ? mergeText(ot, bt, tt) : undefined;
      if (merged && !merged.conflict) {
        take({ kind: 'file', path, bytes: utf8Encode(merged.text), ...executableOf(oe) }, path, 'merged');
      } else if (prefer) take(prefer === 'ours' ? oe : te, path, prefer);
      else if (merged)
        take({ kind: 'file', path, bytes: utf8Encode(merged.text), ...executableOf(oe) }, path, 'conflict');
      else take(oe, path, 'unresolved');
    }
  }
  return { entries, files };
}

function executableOf(e: Leaf | undefined): { executable?: true } {
  return e?.kind === 'file' && e.executable ? { executable: true } : {};
}

/** The first line of `text` that is a conflict marker this merge writes (1-based), if any. */
export function conflictMarkerAt(text: string): number | undefined {
  const i = text.split('\n').findIndex((l) => l === MARKERS.ours || l === MARKERS.theirs);
  return i >= 0 ? i + 1 : undefined;
}

/** `path:line` of every text file in `tree` that still holds a conflict marker. */
export function conflictMarkers(tree: SkillTree): string[] {
  const out: string[] = [];
  for (const e of tree.entries) {
    const text = e.kind === 'file' ? textOf(e) : undefined;
    const at = text === undefined ? undefined : conflictMarkerAt(text);
    if (at !== undefined) out.push(`${e.path}:${at}`);
  }
  return out;
}

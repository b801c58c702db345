/**
 * A shared markdown file (AGENTS.md, CONVENTIONS.md, GEMINI.md) as text and marked
 * sections. Built once from the file on disk, then sections are replaced or appended
 * in place, so merging n skills costs O(total size), not O(n × size).
 */
import { utf8Length } from '../text/utf8';

const SECTION_RE = /<!-- kitbash:begin ([a-z0-9-]+) -->[\s\S]*?<!-- kitbash:end \1 -->/g;

/**
 * Never changed once made, so copies of a doc share them — except that its size is filled in,
 * and its text may be swapped for an equal string (see `upsert`).
 */
interface Part {
  text: string;
  /** Set for a marked section. */
  readonly name?: string;
  /** UTF-8 length of `text`, once measured. */
  bytes?: number;
}

/** The separators every appended section brings, shared by all docs (a re-plan appends a thousand). */
const BLANK_LINE: Part = Object.freeze({ text: '\n\n', bytes: 2 });
const NEWLINE: Part = Object.freeze({ text: '\n', bytes: 1 });

export class SharedDoc {
  private readonly parts: Part[] = [];
  private readonly index = new Map<string, number>();
  /** Names of sections dropped while parsing. */
  readonly pruned: string[] = [];
  /**
   * False while the text is still exactly what was parsed (no section dropped, replaced by different text, or added).
   */
  dirty = false;

  /** Parse `text`, dropping sections whose name `keep` rejects (and the blank-line residue they leave). */
  static parse(text: string, keep: (name: string) => boolean): SharedDoc {
    const doc = new SharedDoc();
    let pending = '';
    let cut = false;
    let last = 0;
    SECTION_RE.lastIndex = 0;
    for (let m = SECTION_RE.exec(text); m; m = SECTION_RE.exec(text)) {
      const chunk = text.slice(last, m.index);
      pending = cut ? joinAfterCut(pending, chunk, doc.parts.length === 0, false) : pending + chunk;
      cut = false;
      last = m.index + m[0].length;
      const name = m[1]!;
      if (!keep(name)) {
        doc.pruned.push(name);
        doc.dirty = true;
        cut = true;
        continue;
      }
      if (pending) doc.parts.push({ text: pending });
      pending = '';
      if (!doc.index.has(name)) doc.index.set(name, doc.parts.length);
      doc.parts.push({ text: m[0], name });
    }
    const tail = text.slice(last);
    pending = cut ? joinAfterCut(pending, tail, doc.parts.length === 0, true) : pending + tail;
    if (pending) doc.parts.push({ text: pending });
    return doc;
  }

  /** An independent copy (parsing is the expensive part; re-plans start from a copy). */
  clone(): SharedDoc {
    const doc = new SharedDoc();
    // The parts themselves are shared: a size measured through any copy serves them all.
    for (const p of this.parts) doc.parts.push(p);
    for (const [k, v] of this.index) doc.index.set(k, v);
    doc.pruned.push(...this.pruned);
    doc.dirty = this.dirty;
    return doc;
  }

  /**
   * Replace the section `name` (first occurrence), or append it after a blank line. `bytes`,
   * when given, is the section's UTF-8 length, already measured by the caller.
   */
  upsert(name: string, section: string, bytes?: number): void {
    const at = this.index.get(name);
    if (at !== undefined) {
      const part = this.parts[at]!;
      if (part.text === section) {
        // Equal but not the same string (one parsed from the disk, one emitted): comparing them reads both
        // whole (AGENTS.md is megabytes), so the part keeps the emitted one, which the next re-plan passes again.
        part.text = section;
        return;
      }
      this.dirty = true;
      this.parts[at] = { text: section, name, ...(bytes !== undefined ? { bytes } : {}) };
      return;
    }
    this.dirty = true;
    if (this.hasText()) {
      for (let i = this.parts.length - 1; i >= 0; i--) {
        const p = this.parts[i]!;
        const trimmed = p.name ? p.text : trimEndWhitespace(p.text);
        if (trimmed !== p.text) this.parts[i] = { text: trimmed };
        if (trimmed !== '') break;
      }
      this.parts.push(BLANK_LINE);
    } else {
      this.parts.length = 0;
    }
    this.index.set(name, this.parts.length);
    this.parts.push({ text: section, name, ...(bytes !== undefined ? { bytes } : {}) });
    this.parts.push(NEWLINE);
    this.sections++;
  }

  /** Number of sections (kept or added); with it, "has any text" is O(1) once sections exist. */
  private sections = 0;

  private hasText(): boolean {
    return this.sections > 0 || this.index.size > 0 || this.parts.some((p) => p.text.trim() !== '');
  }

  /** The UTF-8 length of section `name` if it holds exactly `text` (measured once, whichever doc asks). */
  sectionBytes(name: string, text: string): number {
    const at = this.index.get(name);
    const part = at === undefined ? undefined : this.parts[at];
    return part?.text === text ? (part.bytes ??= utf8Length(text)) : utf8Length(text);
  }

  toString(): string {
    return this.parts.map((p) => p.text).join('');
  }

  /**
   * UTF-8 length of `toString()`, without joining it: the always-loaded limit is checked on
   * every plan, and joining a merged file of a thousand sections to measure it cost more than
   * the rest of a re-plan's merge. The parts' sizes add up to the whole's because no part
   * boundary splits a surrogate pair: every boundary touches a section marker or the
   * separators around one, all ASCII.
   */
  byteLength(): number {
    let n = 0;
    for (const p of this.parts) n += p.bytes ??= utf8Length(p.text);
    return n;
  }
}

/**
 * Text on both sides of a removed section, joined so the separator the section came with
 * goes with it: at most one blank line remains, none at the start or the end of the file.
 */
function joinAfterCut(before: string, after: string, atStart: boolean, atEnd: boolean): string {
  const b = before.replace(/\n+$/, '');
  const nb = before.length - b.length;
  const a = after.replace(/^\n+/, '');
  const na = after.length - a.length;
  if (a === '' && atEnd) return b === '' ? (atStart ? '' : '\n') : `${b}\n`;
  if (b === '' && atStart) return a;
  const sep = Math.min(2, Math.max(nb, na));
  return `${b}${'\n'.repeat(sep)}${a}`;
}

/** `s` without trailing whitespace, scanning back from the end only (no regex backtracking). */
function trimEndWhitespace(s: string): string {
  let end = s.length;
  while (end > 0 && /\s/.test(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** A merged file cut to its readers' limit: the document written, and the sections that did not fit. */
export interface BoundedDoc {
  readonly doc: SharedDoc;
  /** Skills whose section would have taken the file past the limit, in emit order: not written there. */
  readonly left: readonly string[];
  /** The file's size with every section in it: what it would have grown to. */
  readonly unbounded: number;
}

/**
 * The merged file with as many sections as fit in `maxBytes`, in emit order, each one that
 * does not fit left out (a smaller one after it may still fit). Built from the user's own
 * text (`base`, no sections): what lies past the limit is never read by the agent, so writing
 * it would cost the file's every other reader and give this one nothing (spec D221).
 */
export function boundDoc(
  base: SharedDoc,
  sections: readonly { name: string; content: string }[],
  maxBytes: number,
  sizeOf: (s: { name: string; content: string }) => number = (s) => utf8Length(s.content),
): BoundedDoc {
  // Each section measured once: the file is megabytes at a few hundred eager skills, and every plan bounds it.
  const sizes = sections.map(sizeOf);
  const all = base.clone();
  for (const [i, s] of sections.entries()) all.upsert(s.name, s.content, sizes[i]);
  const unbounded = all.byteLength();
  if (unbounded <= maxBytes) return { doc: all, left: [], unbounded };
  let doc = base.clone();
  const left: string[] = [];
  for (const [i, s] of sections.entries()) {
    const next = doc.clone();
    next.upsert(s.name, s.content, sizes[i]);
    if (next.byteLength() <= maxBytes) doc = next;
    else left.push(s.name);
  }
  return { doc, left, unbounded };
}

/**
 * Unsaved editor buffers, kept in localStorage so they survive a reload of the window
 * (and a crash). One entry per file of a skill:
 *
 *   key   `skillsmith.draft.v1\u0000<projectRoot>\u0000<dir>\u0000<file>`
 *   value JSON `{ "v": 1, "text": string, "base": string | null, "at": ISO time }`
 *
 * - `file` is skill-relative with '/' ('skill.toml', 'SKILL.md', 'skill.spec.yml',
 *   'prompts/review.md').
 * - `text` is the buffer the author (or another view) wants to keep.
 * - `base` is the file's content on disk when the buffer was forked from it (what the
 *   editor compares against to detect that someone else changed the file meanwhile);
 *   `null` when the draft was not forked from the disk — a new file, or a draft handed in
 *   by another view. With `null` the editor treats whatever is on disk when it opens as
 *   the base, so the draft shows as unsaved and is validated, and a save writes it.
 *
 * Other views hand a buffer to the editor with `saveDraft(...)` and then navigate to
 * `#/editor/<dir>`; the editor opens that file's tab with the draft as unsaved text.
 * A draft whose text equals what is on disk is dropped on open.
 */
import { localStore } from '../../local-storage';

const PREFIX = 'skillsmith.draft.v1';
const SEP = '\u0000';

export interface Draft {
  readonly text: string;
  /** Disk content the draft was forked from; null = not forked from the disk. */
  readonly base: string | null;
  /** ISO time of the last write. */
  readonly at: string;
}

export function draftKey(projectRoot: string, dir: string, file: string): string {
  return [PREFIX, projectRoot, dir, file].join(SEP);
}

/**
 * Keep `text` as the unsaved buffer of `file` in skill `dir` of the project at
 * `projectRoot`. `base` (optional) is the disk text the buffer was forked from. Returns
 * false when the browser refuses (storage full or disabled) — the caller should then keep
 * the buffer in memory and tell the author.
 */
export function saveDraft(
  projectRoot: string,
  dir: string,
  file: string,
  text: string,
  base: string | null = null,
): boolean {
  const s = localStore();
  if (!s) return false;
  const value: Draft & { v: 1 } = { v: 1, text, base, at: new Date().toISOString() };
  try {
    s.setItem(draftKey(projectRoot, dir, file), JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function loadDraft(projectRoot: string, dir: string, file: string): Draft | null {
  const raw = localStore()?.getItem(draftKey(projectRoot, dir, file));
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { v?: unknown; text?: unknown; base?: unknown; at?: unknown };
    if (v.v !== 1 || typeof v.text !== 'string') return null;
    return { text: v.text, base: typeof v.base === 'string' ? v.base : null, at: typeof v.at === 'string' ? v.at : '' };
  } catch {
    return null;
  }
}

export function clearDraft(projectRoot: string, dir: string, file: string): void {
  try {
    localStore()?.removeItem(draftKey(projectRoot, dir, file));
  } catch {
    // nothing to clear
  }
}

/** The files of skill `dir` that have a draft, sorted. */
export function draftFiles(projectRoot: string, dir: string): string[] {
  const s = localStore();
  if (!s) return [];
  const head = [PREFIX, projectRoot, dir, ''].join(SEP);
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k?.startsWith(head)) out.push(k.slice(head.length));
  }
  return out.sort();
}

/** The file of skill `dir` whose draft was written last (what another view just handed in), and when. */
export function newestDraft(projectRoot: string, dir: string): { file: string; at: string } | null {
  let best: { file: string; at: string } | null = null;
  for (const file of draftFiles(projectRoot, dir)) {
    const d = loadDraft(projectRoot, dir, file);
    if (d && (!best || d.at > best.at)) best = { file, at: d.at };
  }
  return best;
}

/** Asks an open editor to write its pending (debounced) drafts now, e.g. before the project is left. */
export const FLUSH_DRAFTS_EVENT = 'skillsmith:flush-drafts';

/** Every unsaved buffer of the project at `projectRoot`, as `<dir>/<file>`, sorted. */
export function projectDrafts(projectRoot: string): string[] {
  const s = localStore();
  if (!s) return [];
  const head = [PREFIX, projectRoot, ''].join(SEP);
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k?.startsWith(head)) out.push(k.slice(head.length).replace(SEP, '/'));
  }
  return out.sort();
}

/** Drops every unsaved buffer of the project at `projectRoot`. */
export function clearProjectDrafts(projectRoot: string): void {
  for (const d of projectDrafts(projectRoot)) {
    const i = d.indexOf('/');
    clearDraft(projectRoot, d.slice(0, i), d.slice(i + 1));
  }
}

/**
 * The skill and file tab last open in the editor, per project, so a reload or a switch back
 * to the project opens them again. localStorage:
 *
 *   key   `skillsmith.editor.last.v1\u0000<projectRoot>`
 *   value JSON `{ "dir": string, "file": string, "at": ISO time }`
 */
import { localStore } from '../../local-storage';
import { newestDraft } from './drafts';

const PREFIX = 'skillsmith.editor.last.v1';

export interface LastOpen {
  readonly dir: string;
  readonly file: string;
  readonly at: string;
}

const key = (root: string): string => `${PREFIX}\u0000${root}`;

export function lastOpen(root: string): LastOpen | null {
  try {
    const v = JSON.parse(localStore()?.getItem(key(root)) ?? 'null') as Partial<LastOpen> | null;
    return v && typeof v.dir === 'string' && typeof v.file === 'string'
      ? { dir: v.dir, file: v.file, at: typeof v.at === 'string' ? v.at : '' }
      : null;
  } catch {
    return null;
  }
}

/** Remember `file` of skill `dir` as the open one (a full or disabled storage only loses the memory). */
export function rememberOpen(root: string, dir: string, file: string): void {
  try {
    localStore()?.setItem(key(root), JSON.stringify({ dir, file, at: new Date().toISOString() }));
  } catch {
    // Nothing to restore next time; editing is unaffected.
  }
}

/** The author went back to the skill list: nothing to reopen. */
export function forgetOpen(root: string): void {
  try {
    localStore()?.removeItem(key(root));
  } catch {
    // nothing stored
  }
}

/**
 * The tab to open first: the one the route names; else a draft another view handed in
 * since (the playground's new test); else the tab open last time; else SKILL.md.
 */
export function firstTab(root: string, dir: string, file: string | undefined): string {
  if (file) return file;
  const draft = newestDraft(root, dir);
  const last = lastOpen(root);
  const remembered = last?.dir === dir ? last : null;
  if (draft && (!remembered || draft.at > remembered.at)) return draft.file;
  return remembered?.file ?? 'SKILL.md';
}

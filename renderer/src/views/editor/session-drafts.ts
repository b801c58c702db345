import { clearDraft, saveDraft } from './drafts';
import type { FileState } from './session';

const DRAFT_DEBOUNCE_MS = 250;

/**
 * The open skill's unsaved buffers, kept in localStorage (drafts.ts) a moment after typing
 * stops, and at once when the page goes away. `refused` hears when the browser will not
 * keep one (storage full or off).
 */
export class DraftKeeper {
  private timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly root: string,
    private readonly dir: string,
    private readonly refused: (path: string) => void,
  ) {}

  schedule(state: FileState): void {
    clearTimeout(this.timers.get(state.path));
    this.timers.set(
      state.path,
      setTimeout(() => this.write(state), DRAFT_DEBOUNCE_MS),
    );
  }

  /** Keep the buffer now, or drop its draft when it matches the disk again. */
  write(state: FileState): void {
    clearTimeout(this.timers.get(state.path));
    this.timers.delete(state.path);
    if (!state.dirty && !state.conflict) {
      clearDraft(this.root, this.dir, state.path);
      return;
    }
    const base = state.baseVersion === null && state.baseText === '' ? null : state.baseText;
    if (!saveDraft(this.root, this.dir, state.path, state.model.getValue(), base)) this.refused(state.path);
  }

  /** Saved: nothing pending for it, and no draft left when the buffer is the file. */
  saved(state: FileState): void {
    clearTimeout(this.timers.get(state.path));
    this.timers.delete(state.path);
    if (!state.dirty) clearDraft(this.root, this.dir, state.path);
  }

  /** Write every pending draft now (before the page goes away). */
  flush(files: ReadonlyMap<string, FileState>): void {
    for (const path of [...this.timers.keys()]) {
      const s = files.get(path);
      if (s) this.write(s);
    }
  }

  dispose(files: ReadonlyMap<string, FileState>): void {
    this.flush(files);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}

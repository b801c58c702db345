import type { Api } from '../../../../shared/ipc';
import type { EditorSkill } from '../../../../shared/ipc/channels/editor';
import { languageOf, monaco, type editor } from '../../monaco/setup';
import type { Analysis, TextEdit } from './analyze';
import type { Rest } from './analyzer';
import { registerLanguageFeatures, setModelDiagnostics } from './codeActions';
import { base64Bytes } from '../../base64';
import { clearDraft, draftFiles, loadDraft } from './drafts';
import { Notices } from './notices';
import { reconcile } from './reconcile';
import { LiveAnalysis } from './session-analysis';
import { DraftKeeper } from './session-drafts';

/** What the author sees about one file's relation to the disk. */
export interface Conflict {
  /** The disk's text now; null when the file was deleted on disk. */
  readonly text: string | null;
  readonly version: string | null;
}

export interface FileState {
  readonly path: string;
  readonly model: editor.ITextModel;
  /** Disk text the buffer is based on ('' for a file that does not exist yet). */
  baseText: string;
  /** Disk version the buffer is based on; null = not on disk yet. */
  baseVersion: string | null;
  /** The disk moved away from the base and the buffer has edits of its own. */
  conflict: Conflict | null;
  dirty: boolean;
  /** Restored from a draft when the view opened. */
  restored: boolean;
  viewState: editor.ICodeEditorViewState | null;
}

const PREVIEW_DEBOUNCE_MS = 250;
const EDITABLE =
  /^(?:skill\.toml|SKILL\.md|skill\.spec\.yml|prompts\/[A-Za-z0-9][A-Za-z0-9._-]*\.md|evals\/[A-Za-z0-9][A-Za-z0-9._-]*\.eval\.yaml)$/;
const ORDER = (p: string) => (p === 'SKILL.md' ? 0 : p === 'skill.toml' ? 1 : p === 'skill.spec.yml' ? 2 : 3);

/** Differs from the base: the length first, so a keystroke rarely compares the whole text. */
function isDirty(s: FileState): boolean {
  return s.baseVersion === null || s.model.getValueLength() !== s.baseText.length || s.model.getValue() !== s.baseText;
}

/**
 * One skill open in the editor: a Monaco model per editable file, its disk base, drafts
 * in localStorage, the live diagnostics and the conflict state. React reads it through
 * `subscribe`/`version`; everything that changes what is shown bumps the version.
 */
export class EditorSession {
  readonly files = new Map<string, FileState>();
  /** Text files that are not editable here (scripts, evals): they are linted too. */
  readonly others = new Map<string, string>();
  readonly binaries = new Map<string, Uint8Array>();
  dirs: string[] = [];
  path = '';
  analysis: Analysis | null = null;
  loadError: string | null = null;
  loaded = false;
  /** kitbash.lock pins other bytes than the saved files (from the dashboard). */
  drift = false;
  /** Buffers as of the last pause in typing, for the previews panel. */
  snapshot: ReadonlyMap<string, string> = new Map();
  readonly notices = new Notices(() => this.bump());
  readonly live: LiveAnalysis;

  private listeners = new Set<() => void>();
  private ver = 0;
  private drafts: DraftKeeper;
  private previewTimer: ReturnType<typeof setTimeout> | undefined;
  private disposables: { dispose(): void }[] = [];
  private disposed = false;

  constructor(
    readonly api: Api,
    readonly root: string,
    readonly dir: string,
  ) {
    registerLanguageFeatures();
    this.drafts = new DraftKeeper(root, dir, (path) =>
      this.notices.push('error', `Could not keep a draft of ${path} (browser storage is full or off) — save soon`),
    );
    this.live = new LiveAnalysis(
      () => this.files,
      () => this.rest(),
      (a) => this.answered(a),
      (m) => this.notices.push('error', `Diagnostics failed: ${m}`),
    );
  }

  subscribe = (cb: () => void): (() => void) => {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  };
  version = (): number => this.ver;
  private bump(): void {
    this.ver++;
    for (const l of this.listeners) l();
  }

  /** Files in tab order: SKILL.md, skill.toml, skill.spec.yml, prompts. */
  tabs(): FileState[] {
    return [...this.files.values()].sort((a, b) => ORDER(a.path) - ORDER(b.path) || (a.path < b.path ? -1 : 1));
  }

  fileOf(model: editor.ITextModel | null): FileState | undefined {
    return model ? [...this.files.values()].find((f) => f.model === model) : undefined;
  }

  uriOf(path: string) {
    return monaco.Uri.from({ scheme: 'skill', authority: 'project', path: `/${this.dir}/${path}` });
  }

  async load(): Promise<void> {
    let skill: EditorSkill;
    try {
      skill = await this.api.editor.open({ dir: this.dir });
    } catch (e) {
      this.loadError = e instanceof Error ? e.message : String(e);
      this.bump();
      return;
    }
    if (this.disposed) return;
    this.path = skill.path;
    this.readOthers(skill);
    for (const f of skill.files) if (f.editable && f.text !== null) this.addFile(f.path, f.text, f.version, true);
    // Drafts of files that are not on disk (a new prompt, a spec handed in by the playground).
    for (const file of draftFiles(this.root, this.dir)) {
      if (!this.files.has(file) && EDITABLE.test(file)) this.addFile(file, null, null, true);
    }
    this.loaded = true;
    this.snapshot = this.texts();
    this.bump();
    this.live.schedule();
  }

  /** The dashboard's lock verdict changed: the diagnostics say so (with the way to re-pin). */
  setDrift(drift: boolean): void {
    if (drift === this.drift) return;
    this.drift = drift;
    this.restNow = null;
    this.live.schedule();
  }

  private readOthers(skill: EditorSkill): void {
    this.restNow = null;
    this.others.clear();
    this.binaries.clear();
    this.dirs = skill.dirs;
    for (const f of skill.files) {
      if (f.editable && f.text !== null) continue;
      if (f.text !== null) this.others.set(f.path, f.text);
      else if (f.base64 !== null) this.binaries.set(f.path, base64Bytes(f.base64));
    }
  }

  /** A file's state from its disk text, with its draft (if any) as the buffer. */
  private addFile(path: string, diskText: string | null, diskVersion: string | null, useDraft: boolean): FileState {
    const draft = useDraft ? loadDraft(this.root, this.dir, path) : null;
    const disk = diskText ?? '';
    let text = disk;
    let baseText = disk;
    let conflict: Conflict | null = null;
    let restored = false;
    if (draft && draft.text !== disk) {
      text = draft.text;
      restored = true;
      if (draft.base !== null && draft.base !== disk) {
        // Forked from an older disk text that someone changed meanwhile: both versions matter.
        baseText = draft.base;
        conflict = { text: diskText, version: diskVersion };
      }
    } else if (draft) {
      clearDraft(this.root, this.dir, path);
    }
    const uri = this.uriOf(path);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(text, languageOf(path), uri);
    model.setEOL(monaco.editor.EndOfLineSequence.LF);
    const state: FileState = {
      path,
      model,
      baseText,
      baseVersion: diskVersion,
      conflict,
      dirty: false,
      restored,
      viewState: null,
    };
    state.dirty = isDirty(state);
    this.files.set(path, state);
    this.live.track(path, model);
    this.disposables.push(
      model.onDidChangeContent((e) => {
        const wasDirty = state.dirty;
        state.dirty = isDirty(state);
        this.live.edited(path, model, e);
        this.drafts.schedule(state);
        this.schedulePreview();
        // React hears about the keystroke through the analysis; only a dirty flip re-renders now.
        if (wasDirty !== state.dirty) this.bump();
      }),
    );
    return state;
  }

  /** Create a new editable file (a prompt, the spec): unsaved until the author saves it. */
  createFile(path: string, text: string): FileState {
    const existing = this.files.get(path);
    if (existing) return existing;
    const state = this.addFile(path, null, null, false);
    state.model.setValue(text);
    state.dirty = true;
    this.drafts.schedule(state);
    this.live.schedule();
    this.bump();
    return state;
  }

  /** Write every pending draft now (before the page goes away). */
  flushDrafts(): void {
    this.drafts.flush(this.files);
  }

  private texts(): Map<string, string> {
    const texts = new Map(this.others);
    for (const [p, s] of this.files) texts.set(p, s.model.getValue());
    return texts;
  }

  private restNow: Rest | null = null;

  /** What the worker reads besides the buffers; the same object until something in it changes. */
  private rest(): Rest {
    this.restNow ??= {
      dir: this.dir,
      others: Object.fromEntries(this.others),
      binaries: Object.fromEntries(this.binaries),
      dirs: this.dirs,
      drift: this.drift,
    };
    return this.restNow;
  }

  /**
   * The previews re-plan every target from the buffers; on a large body that is more work
   * than the diagnostics, so they follow a pause in typing instead of every key.
   */
  private schedulePreview(): void {
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => {
      if (this.disposed) return;
      this.snapshot = this.texts();
      this.bump();
    }, PREVIEW_DEBOUNCE_MS);
  }

  private answered(a: Analysis): void {
    const before = this.analysis;
    this.analysis = a;
    // Same findings, same meter: nothing on screen changes, so React is not woken.
    if (before && sameShown(before, a)) return;
    this.bump();
  }

  /** Save one file with the conflict check. Returns the state so the view can open the diff. */
  async save(path: string, force = false): Promise<'saved' | 'conflict' | 'error'> {
    const s = this.files.get(path);
    if (!s) return 'error';
    if (s.conflict && !force) return 'conflict';
    const text = s.model.getValue();
    try {
      const r = await this.api.editor.save({
        dir: this.dir,
        file: path,
        text,
        expected: s.baseVersion,
        ...(force ? { force: true } : {}),
      });
      if (r.status === 'conflict') {
        s.conflict = r.disk;
        this.bump();
        return 'conflict';
      }
      s.baseText = text;
      s.baseVersion = r.version;
      s.conflict = null;
      s.restored = false;
      s.dirty = isDirty(s);
      this.drafts.saved(s);
      this.notices.push('info', `Saved ${path}`);
      return 'saved';
    } catch (e) {
      this.notices.push('error', `${path}: ${e instanceof Error ? e.message : String(e)}`);
      return 'error';
    }
  }

  /** Apply a quick fix to its file's buffer (one undo step). */
  applyFix(file: string, edits: readonly TextEdit[]): void {
    const s = this.files.get(file);
    if (!s || edits.length === 0) return;
    s.model.pushStackElement();
    s.model.pushEditOperations(
      [],
      edits.map((e) => ({
        range: new monaco.Range(e.range.startLine, e.range.startColumn, e.range.endLine, e.range.endColumn),
        text: e.text,
      })),
      () => null,
    );
    s.model.pushStackElement();
  }

  /** The author took the disk version: the buffer is replaced (one undo brings theirs back). */
  takeDisk(path: string): void {
    const s = this.files.get(path);
    if (!s || !s.conflict) return;
    const disk = s.conflict.text ?? '';
    s.baseText = disk;
    s.baseVersion = s.conflict.version;
    s.conflict = null;
    s.model.pushEditOperations([], [{ range: s.model.getFullModelRange(), text: disk }], () => null);
    s.dirty = isDirty(s);
    this.drafts.write(s);
    this.bump();
  }

  /** Files of this skill changed on disk: reconcile every buffer with what is there now. */
  async refreshFromDisk(): Promise<void> {
    // Before the first load is in, that load reads the disk as it is (with the drafts).
    if (!this.loaded) return;
    let skill: EditorSkill;
    try {
      skill = await this.api.editor.open({ dir: this.dir });
    } catch {
      return;
    }
    if (this.disposed) return;
    const seen = new Set<string>();
    const reloaded: string[] = [];
    this.readOthers(skill);
    for (const f of skill.files) {
      if (!(f.editable && f.text !== null)) continue;
      seen.add(f.path);
      const s = this.files.get(f.path);
      if (!s) {
        this.addFile(f.path, f.text, f.version, false);
        continue;
      }
      const verdict = reconcile(
        { text: s.model.getValue(), baseVersion: s.baseVersion, dirty: s.dirty, conflicted: s.conflict !== null },
        { text: f.text, version: f.version },
      );
      if (verdict === 'unchanged') continue;
      if (verdict === 'conflict') {
        s.conflict = { text: f.text, version: f.version };
        continue;
      }
      s.baseText = f.text;
      s.baseVersion = f.version;
      s.conflict = null;
      if (verdict === 'reload') {
        s.model.pushEditOperations([], [{ range: s.model.getFullModelRange(), text: f.text }], () => null);
        reloaded.push(f.path);
      }
      s.dirty = false;
    }
    for (const s of this.files.values()) {
      if (!seen.has(s.path) && s.baseVersion !== null) s.conflict = { text: null, version: null };
    }
    if (reloaded.length)
      this.notices.push('info', `Reloaded ${reloaded.join(', ')} — changed on disk, no unsaved edits here`);
    this.live.schedule();
    this.bump();
  }

  dispose(): void {
    this.drafts.dispose(this.files);
    this.disposed = true;
    clearTimeout(this.previewTimer);
    this.notices.dispose();
    this.live.dispose();
    for (const d of this.disposables) d.dispose();
    for (const s of this.files.values()) {
      setModelDiagnostics(s.model, null);
      s.model.dispose();
    }
    this.files.clear();
  }
}

/** Two analyses show the same thing (the timing aside). */
function sameShown(a: Analysis, b: Analysis): boolean {
  return (
    JSON.stringify([a.diagnostics, a.meter, a.stub, a.summary]) ===
    JSON.stringify([b.diagnostics, b.meter, b.stub, b.summary])
  );
}

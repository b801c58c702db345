import type { Api } from '../../../../shared/ipc';
import type { EditorSkill } from '../../../../shared/ipc/channels/editor';
import { languageOf, monaco, type editor } from '../../monaco/setup';
import type { Analysis, AnalyzeInput, Diagnostic } from './analyze';
import { Analyzer } from './analyzer';
import { clearDraft, draftFiles, loadDraft, saveDraft } from './drafts';
import { tomlCompletions } from './tomlComplete';

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

export interface Notice {
  readonly kind: 'info' | 'error';
  readonly text: string;
}

/** Latency records for the bench and the e2e: keystroke → markers on the model. */
export interface Stats {
  latencies: number[];
  analyses: number;
  lastMs: number;
}

const ANALYZE_DEBOUNCE_MS = 5;
const DRAFT_DEBOUNCE_MS = 250;
const PREVIEW_DEBOUNCE_MS = 250;
const EDITABLE =
  /^(?:skill\.toml|SKILL\.md|skill\.spec\.yml|prompts\/[A-Za-z0-9][A-Za-z0-9._-]*\.md|evals\/[A-Za-z0-9][A-Za-z0-9._-]*\.eval\.yaml)$/;
const ORDER = (p: string) => (p === 'SKILL.md' ? 0 : p === 'skill.toml' ? 1 : p === 'skill.spec.yml' ? 2 : 3);

/** Diagnostics by model URI, for the one code-action provider. */
const byModel = new Map<string, readonly Diagnostic[]>();
let actionsRegistered = false;

function registerQuickFixes(): void {
  if (actionsRegistered) return;
  actionsRegistered = true;
  monaco.languages.registerCompletionItemProvider('toml', {
    triggerCharacters: ['['],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const suggestions = tomlCompletions(model.getValue(), position.lineNumber, position.column).map((s) => ({
        label: s.label,
        kind:
          s.kind === 'table'
            ? monaco.languages.CompletionItemKind.Module
            : monaco.languages.CompletionItemKind.Property,
        insertText: s.insert,
        detail: s.kind === 'table' ? 'KSF manifest table' : 'KSF manifest key',
        range,
      }));
      return { suggestions };
    },
  });
  for (const lang of ['toml', 'yaml', 'markdown']) {
    monaco.languages.registerCodeActionProvider(lang, {
      provideCodeActions(model, range) {
        const found = byModel.get(model.uri.toString()) ?? [];
        const actions: import('monaco-editor').languages.CodeAction[] = [];
        for (const d of found) {
          const r = new monaco.Range(d.range.startLine, d.range.startColumn, d.range.endLine, d.range.endColumn);
          if (!monaco.Range.areIntersectingOrTouching(r, range)) continue;
          for (const fix of d.fixes) {
            actions.push({
              title: fix.title,
              kind: 'quickfix',
              isPreferred: true,
              diagnostics: [{ ...markerOf(d), resource: model.uri } as never],
              edit: {
                edits: fix.edits.map((e) => ({
                  resource: model.uri,
                  versionId: model.getVersionId(),
                  textEdit: {
                    range: new monaco.Range(e.range.startLine, e.range.startColumn, e.range.endLine, e.range.endColumn),
                    text: e.text,
                  },
                })),
              },
            });
          }
        }
        return { actions, dispose: () => undefined };
      },
    });
  }
}

export function markerOf(d: Diagnostic): editor.IMarkerData {
  return {
    severity:
      d.severity === 'error'
        ? monaco.MarkerSeverity.Error
        : d.severity === 'warning'
          ? monaco.MarkerSeverity.Warning
          : monaco.MarkerSeverity.Info,
    message: d.message,
    code: d.code,
    source: d.blocking ? 'skillsmith · safety' : 'skillsmith',
    startLineNumber: d.range.startLine,
    startColumn: d.range.startColumn,
    endLineNumber: d.range.endLine,
    endColumn: d.range.endColumn,
  };
}

/**
 * One skill open in the editor: a Monaco model per editable file, its disk base, drafts
 * in localStorage, the diagnostics worker and the conflict state. React reads it through
 * `subscribe`/`version`; everything that changes bumps the version.
 */
export class EditorSession {
  readonly files = new Map<string, FileState>();
  /** Text files that are not editable here (scripts, evals): they are linted too. */
  readonly others = new Map<string, string>();
  readonly binaries = new Map<string, Uint8Array>();
  dirs: string[] = [];
  path = '';
  analysis: Analysis | null = null;
  notice: Notice | null = null;
  loadError: string | null = null;
  loaded = false;
  /** Buffers as of the last analysis request, for the previews panel. */
  snapshot: ReadonlyMap<string, string> = new Map();
  readonly stats: Stats = { latencies: [], analyses: 0, lastMs: 0 };

  private listeners = new Set<() => void>();
  private ver = 0;
  private analyzer: Analyzer;
  private analyzeTimer: ReturnType<typeof setTimeout> | undefined;
  private previewTimer: ReturnType<typeof setTimeout> | undefined;
  private draftTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private disposables: { dispose(): void }[] = [];
  private pendingKey: number | null = null;
  private requestedAt = new Map<number, number>();
  private disposed = false;

  constructor(
    readonly api: Api,
    readonly root: string,
    readonly dir: string,
  ) {
    registerQuickFixes();
    this.analyzer = new Analyzer(
      (a, seq) => this.applyAnalysis(a, seq),
      (m) => this.setNotice({ kind: 'error', text: `diagnostics failed: ${m}` }),
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

  private noticeTimer: ReturnType<typeof setTimeout> | undefined;

  /** Show a notice; an info notice goes away by itself after a few seconds. */
  setNotice(n: Notice | null): void {
    this.notice = n;
    clearTimeout(this.noticeTimer);
    if (n?.kind === 'info') this.noticeTimer = setTimeout(() => this.notice === n && this.setNotice(null), 4000);
    this.bump();
  }

  /** Files in tab order: SKILL.md, skill.toml, skill.spec.yml, prompts. */
  tabs(): FileState[] {
    return [...this.files.values()].sort((a, b) => ORDER(a.path) - ORDER(b.path) || (a.path < b.path ? -1 : 1));
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
    this.dirs = skill.dirs;
    for (const f of skill.files) {
      if (f.editable && f.text !== null) this.addFile(f.path, f.text, f.version, true);
      else if (f.text !== null) this.others.set(f.path, f.text);
      else if (f.base64 !== null) this.binaries.set(f.path, base64Bytes(f.base64));
    }
    // Drafts of files that are not on disk (a new prompt, a spec handed in by the playground).
    for (const file of draftFiles(this.root, this.dir)) {
      if (!this.files.has(file) && EDITABLE.test(file)) this.addFile(file, null, null, true);
    }
    this.loaded = true;
    this.bump();
    this.scheduleAnalysis(0);
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
      dirty: text !== baseText || diskVersion === null,
      restored,
      viewState: null,
    };
    this.files.set(path, state);
    this.disposables.push(
      model.onDidChangeContent(() => {
        const wasDirty = state.dirty;
        state.dirty = model.getValue() !== state.baseText || state.baseVersion === null;
        this.markEdit();
        this.scheduleDraft(state);
        this.scheduleAnalysis(ANALYZE_DEBOUNCE_MS);
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
    this.scheduleDraft(state);
    this.scheduleAnalysis(0);
    this.bump();
    return state;
  }

  private scheduleDraft(state: FileState): void {
    clearTimeout(this.draftTimers.get(state.path));
    this.draftTimers.set(
      state.path,
      setTimeout(() => this.writeDraft(state), DRAFT_DEBOUNCE_MS),
    );
  }

  private writeDraft(state: FileState): void {
    this.draftTimers.delete(state.path);
    if (!state.dirty && !state.conflict) {
      clearDraft(this.root, this.dir, state.path);
      return;
    }
    if (
      !saveDraft(
        this.root,
        this.dir,
        state.path,
        state.model.getValue(),
        state.baseVersion === null && state.baseText === '' ? null : state.baseText,
      )
    ) {
      this.setNotice({
        kind: 'error',
        text: `could not keep a draft of ${state.path} (browser storage is full or off) — save soon`,
      });
    }
  }

  /** Write every pending draft now (before the page goes away). */
  flushDrafts(): void {
    for (const path of [...this.draftTimers.keys()]) {
      clearTimeout(this.draftTimers.get(path));
      const s = this.files.get(path);
      if (s) this.writeDraft(s);
    }
  }

  private lastKeyAt = -Infinity;

  /** A key went down (event.timeStamp): the edit it causes is timed from here. */
  markKeystroke(at: number): void {
    this.lastKeyAt = at;
  }

  /** An edit happened: the first one since the last analysis request is timed. */
  private markEdit(): void {
    if (this.pendingKey !== null) return;
    const now = performance.now();
    this.pendingKey = now - this.lastKeyAt < 100 ? this.lastKeyAt : now;
  }

  private scheduleAnalysis(delay: number): void {
    clearTimeout(this.analyzeTimer);
    this.analyzeTimer = setTimeout(() => this.requestAnalysis(), delay);
  }

  input(): AnalyzeInput {
    const texts: Record<string, string> = {};
    for (const [p, t] of this.others) texts[p] = t;
    for (const [p, s] of this.files) texts[p] = s.model.getValue();
    return { dir: this.dir, texts, binaries: Object.fromEntries(this.binaries), dirs: this.dirs };
  }

  /**
   * The previews re-plan every target from the buffers; on a large body that is more work
   * than the diagnostics, so they follow a pause in typing instead of every key.
   */
  private schedulePreview(): void {
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => {
      if (this.disposed) return;
      this.snapshot = new Map(Object.entries(this.input().texts));
      this.bump();
    }, PREVIEW_DEBOUNCE_MS);
  }

  private requestAnalysis(): void {
    if (this.disposed) return;
    const input = this.input();
    if (this.snapshot.size === 0) this.snapshot = new Map(Object.entries(input.texts));
    const seq = this.analyzer.request(input);
    if (this.pendingKey !== null) {
      this.requestedAt.set(seq, this.pendingKey);
      this.pendingKey = null;
    }
  }

  private applyAnalysis(a: Analysis, seq: number): void {
    if (this.disposed) return;
    this.analysis = a;
    this.stats.analyses++;
    this.stats.lastMs = a.ms;
    for (const s of this.files.values()) {
      const mine = a.diagnostics.filter((d) => d.file === s.path);
      byModel.set(s.model.uri.toString(), mine);
      monaco.editor.setModelMarkers(s.model, 'skillsmith', mine.map(markerOf));
    }
    // Keystrokes folded into this or an earlier request are answered now.
    // Timed to the next frame, when Monaco paints the markers.
    const answered = [...this.requestedAt].filter(([k]) => k <= seq);
    for (const [k] of answered) this.requestedAt.delete(k);
    if (answered.length)
      requestAnimationFrame(() => {
        const now = performance.now();
        for (const [, at] of answered) this.stats.latencies.push(now - at);
      });
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
      s.dirty = s.model.getValue() !== text;
      clearTimeout(this.draftTimers.get(path));
      if (!s.dirty) clearDraft(this.root, this.dir, path);
      this.setNotice({ kind: 'info', text: `Saved ${path}` });
      return 'saved';
    } catch (e) {
      this.setNotice({ kind: 'error', text: `${path}: ${e instanceof Error ? e.message : String(e)}` });
      return 'error';
    }
  }

  /** Apply a quick fix to its file's buffer (undoable). */
  applyFix(file: string, edits: Diagnostic['fixes'][number]['edits']): void {
    const s = this.files.get(file);
    if (!s) return;
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
    s.dirty = s.model.getValue() !== s.baseText || s.baseVersion === null;
    this.writeDraft(s);
    this.bump();
  }

  /** Files of this skill changed on disk: reconcile every buffer with what is there now. */
  async refreshFromDisk(): Promise<void> {
    let skill: EditorSkill;
    try {
      skill = await this.api.editor.open({ dir: this.dir });
    } catch {
      return;
    }
    if (this.disposed) return;
    const seen = new Set<string>();
    const reloaded: string[] = [];
    this.others.clear();
    this.binaries.clear();
    this.dirs = skill.dirs;
    for (const f of skill.files) {
      if (!(f.editable && f.text !== null)) {
        if (f.text !== null) this.others.set(f.path, f.text);
        else if (f.base64 !== null) this.binaries.set(f.path, base64Bytes(f.base64));
        continue;
      }
      seen.add(f.path);
      const s = this.files.get(f.path);
      if (!s) {
        this.addFile(f.path, f.text, f.version, false);
        continue;
      }
      if (f.version === s.baseVersion) continue;
      const buffer = s.model.getValue();
      if (buffer === f.text) {
        s.baseText = f.text;
        s.baseVersion = f.version;
        s.conflict = null;
        s.dirty = false;
      } else if (!s.dirty && !s.conflict) {
        s.baseText = f.text;
        s.baseVersion = f.version;
        s.model.pushEditOperations([], [{ range: s.model.getFullModelRange(), text: f.text }], () => null);
        s.dirty = false;
        reloaded.push(f.path);
      } else {
        s.conflict = { text: f.text, version: f.version };
      }
    }
    for (const s of this.files.values()) {
      if (!seen.has(s.path) && s.baseVersion !== null) s.conflict = { text: null, version: null };
    }
    if (reloaded.length)
      this.setNotice({
        kind: 'info',
        text: `Reloaded ${reloaded.join(', ')} — changed on disk, no unsaved edits here`,
      });
    this.scheduleAnalysis(0);
    this.bump();
  }

  dispose(): void {
    this.flushDrafts();
    this.disposed = true;
    clearTimeout(this.analyzeTimer);
    clearTimeout(this.previewTimer);
    clearTimeout(this.noticeTimer);
    this.analyzer.dispose();
    for (const d of this.disposables) d.dispose();
    for (const s of this.files.values()) {
      byModel.delete(s.model.uri.toString());
      s.model.dispose();
    }
    this.files.clear();
  }
}

function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

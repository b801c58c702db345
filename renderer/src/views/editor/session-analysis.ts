import { monaco, type editor } from '../../monaco/setup';
import type { Analysis, Diagnostic } from './analyze';
import { Analyzer, type Rest } from './analyzer';
import { markerOf, setModelDiagnostics } from './codeActions';

/** Latency records for the bench and the e2e: keystroke → markers on the model. */
export interface Stats {
  latencies: number[];
  analyses: number;
  lastMs: number;
}

/**
 * Diagnostics as the author types: edits made in one task are folded into one request to
 * the worker (no timer between the key and the request), which gets the edits rather
 * than the whole text; the worker is never more than one request behind; and an answer
 * touches only the models whose markers changed.
 */
export class LiveAnalysis {
  readonly stats: Stats = { latencies: [], analyses: 0, lastMs: 0 };
  private readonly analyzer: Analyzer;
  private queued = false;
  private disposed = false;
  private lastKeyAt = -Infinity;
  private pendingKey: number | null = null;
  private requestedAt = new Map<number, number>();
  private shown = new Map<string, string>();

  constructor(
    private readonly models: () => ReadonlyMap<string, { model: editor.ITextModel }>,
    private readonly rest: () => Rest,
    private readonly answered: (a: Analysis) => void,
    failed: (message: string) => void,
  ) {
    this.analyzer = new Analyzer(
      () =>
        new Map(
          [...this.models()].map(([path, { model }]) => [
            path,
            { text: () => model.getValue(), length: () => model.getValueLength() },
          ]),
        ),
      (a, seq) => this.apply(a, seq),
      failed,
    );
  }

  /** A buffer to analyse from now on, with its text as it is. */
  track(path: string, model: editor.ITextModel): void {
    this.analyzer.set(path, model.getValue());
    this.shown.delete(path);
  }

  /** A key went down (event.timeStamp): the edit it causes is timed from here. */
  markKeystroke(at: number): void {
    this.lastKeyAt = at;
  }

  /** A buffer changed: the worker gets the edits; the first change since the last request is timed. */
  edited(path: string, model: editor.ITextModel, e: editor.IModelContentChangedEvent): void {
    if (e.isFlush || e.isEolChange) this.analyzer.set(path, model.getValue());
    else
      this.analyzer.edit(
        path,
        e.changes.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })),
      );
    if (this.pendingKey === null) {
      const now = performance.now();
      this.pendingKey = now - this.lastKeyAt < 100 ? this.lastKeyAt : now;
    }
    this.schedule();
  }

  /** Analyse once the current task is done (a paste or a multi-cursor edit is one request). */
  schedule(): void {
    if (this.queued || this.disposed) return;
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      if (this.disposed) return;
      const seq = this.analyzer.request(this.rest());
      if (this.pendingKey !== null) {
        this.requestedAt.set(seq, this.pendingKey);
        this.pendingKey = null;
      }
    });
  }

  private apply(a: Analysis, seq: number): void {
    if (this.disposed) return;
    this.stats.analyses++;
    this.stats.lastMs = a.ms;
    for (const [path, { model }] of this.models()) {
      const mine = a.diagnostics.filter((d) => d.file === path);
      setModelDiagnostics(model, mine);
      const key = JSON.stringify(mine.map(markerKey));
      if (this.shown.get(path) === key) continue;
      this.shown.set(path, key);
      monaco.editor.setModelMarkers(model, 'skillsmith', mine.map(markerOf));
    }
    this.answered(a);
    // Keystrokes folded into this or an earlier request are answered now; timed to the
    // next frame, when Monaco paints the markers.
    const done = [...this.requestedAt].filter(([k]) => k <= seq);
    for (const [k] of done) this.requestedAt.delete(k);
    if (done.length)
      requestAnimationFrame(() => {
        const now = performance.now();
        for (const [, at] of done) this.stats.latencies.push(now - at);
      });
  }

  dispose(): void {
    this.disposed = true;
    this.analyzer.dispose();
  }
}

const markerKey = (d: Diagnostic) => [d.severity, d.message, d.blocking, d.range];

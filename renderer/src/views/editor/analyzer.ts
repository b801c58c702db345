import type { Analysis } from './analyze';
import AnalyzeWorker from './analyze.worker.ts?worker';
import type { Edit, Reply, SyncRequest } from './analyze.worker';

/** The parts of the input that are not the editable buffers: sent again only when they change. */
export interface Rest {
  readonly dir: string;
  readonly others: Readonly<Record<string, string>>;
  readonly binaries: Readonly<Record<string, Uint8Array>>;
  readonly dirs: readonly string[];
  readonly drift: boolean;
}

/**
 * The client side of the diagnostics worker. The worker keeps the buffers; each request
 * carries only what changed since the last one — the edits of a keystroke, not the whole
 * 20,000-token body — with every buffer's length, so a worker that ever disagrees asks
 * for the full texts again. At most one request is in flight; while it runs, changes
 * gather for the next one, so the worker never falls behind the typing.
 */
export class Analyzer {
  private readonly worker = new AnalyzeWorker({ name: 'skillsmith-diagnostics' });
  private seq = 0;
  private busy = false;
  private wanted = false;
  private texts = new Map<string, string>();
  private edits = new Map<string, Edit[]>();
  private rest: Rest | null = null;
  /** The `rest` the worker has; sent again only when the session hands in another. */
  private sentRest: Rest | null = null;

  constructor(
    /** Every buffer's text and length now (for a full resend, and the length check). */
    private readonly buffers: () => ReadonlyMap<string, { text: () => string; length: () => number }>,
    private readonly onResult: (a: Analysis, seq: number) => void,
    private readonly onError: (message: string) => void,
  ) {
    this.worker.onmessage = (e: MessageEvent<Reply>) => {
      this.busy = false;
      const r = e.data;
      if (r.ok) this.onResult(r.analysis, r.seq);
      else if (r.resync) this.resendAll();
      else this.onError(r.message);
      this.flush();
    };
    this.worker.onerror = (e) => {
      this.busy = false;
      this.onError(e.message || 'the diagnostics worker failed');
    };
  }

  /** A buffer's whole text (a new file, a reload): replaces whatever was pending for it. */
  set(path: string, text: string): void {
    this.texts.set(path, text);
    this.edits.delete(path);
  }

  /** Edits to a buffer, in the order they apply (Monaco's order within one change event). */
  edit(path: string, edits: readonly Edit[]): void {
    const pending = this.texts.get(path);
    if (pending !== undefined) {
      let t = pending;
      for (const e of edits) t = t.slice(0, e.offset) + e.text + t.slice(e.offset + e.length);
      this.texts.set(path, t);
      return;
    }
    const list = this.edits.get(path) ?? [];
    list.push(...edits);
    this.edits.set(path, list);
  }

  /** Ask for an analysis with `rest`; returns the sequence number of the request that will carry it. */
  request(rest: Rest): number {
    this.rest = rest;
    this.wanted = true;
    const next = this.seq + 1;
    this.flush();
    return this.busy && this.wanted ? next : this.seq;
  }

  private resendAll(): void {
    this.edits.clear();
    for (const [path, b] of this.buffers()) this.texts.set(path, b.text());
    this.sentRest = null;
    this.wanted = true;
  }

  private flush(): void {
    if (this.busy || !this.wanted || !this.rest) return;
    this.wanted = false;
    const lengths: Record<string, number> = {};
    for (const [path, b] of this.buffers()) lengths[path] = b.length();
    const msg: SyncRequest = {
      seq: ++this.seq,
      set: Object.fromEntries(this.texts),
      edits: Object.fromEntries(this.edits),
      lengths,
      ...(this.rest !== this.sentRest ? { rest: this.rest } : {}),
    };
    this.sentRest = this.rest;
    this.texts = new Map();
    this.edits = new Map();
    this.busy = true;
    this.worker.postMessage(msg);
  }

  dispose(): void {
    this.worker.terminate();
  }
}

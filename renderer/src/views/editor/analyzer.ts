import type { Analysis, AnalyzeInput } from './analyze';
import AnalyzeWorker from './analyze.worker.ts?worker';

type Reply = { seq: number; ok: true; analysis: Analysis } | { seq: number; ok: false; message: string };

/**
 * The client side of the diagnostics worker. At most one request is in flight; while it
 * runs, newer inputs replace each other, so the worker never falls behind the typing.
 */
export class Analyzer {
  private readonly worker = new AnalyzeWorker({ name: 'skillsmith-diagnostics' });
  private seq = 0;
  private busy = false;
  private pending: AnalyzeInput | null = null;

  constructor(
    private readonly onResult: (a: Analysis, seq: number) => void,
    private readonly onError: (message: string) => void,
  ) {
    this.worker.onmessage = (e: MessageEvent<Reply>) => {
      this.busy = false;
      const r = e.data;
      if (r.ok) this.onResult(r.analysis, r.seq);
      else this.onError(r.message);
      this.flush();
    };
    this.worker.onerror = (e) => {
      this.busy = false;
      this.onError(e.message || 'the diagnostics worker failed');
    };
  }

  /** Queue an analysis of `input`; returns its sequence number. */
  request(input: AnalyzeInput): number {
    this.pending = input;
    const next = this.seq + 1;
    this.flush();
    return this.busy ? next : this.seq;
  }

  private flush(): void {
    if (this.busy || !this.pending) return;
    const input = this.pending;
    this.pending = null;
    this.busy = true;
    this.worker.postMessage({ seq: ++this.seq, input });
  }

  dispose(): void {
    this.worker.terminate();
  }
}

/**
 * The diagnostics engine off the main thread: the renderer posts the skill's buffers,
 * the worker answers with the analysis. Requests carry a sequence number; the client
 * drops answers to anything but the newest.
 */
import { analyze, type AnalyzeInput } from './analyze';

interface Request {
  readonly seq: number;
  readonly input: AnalyzeInput;
}

const ctx = self as unknown as {
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(m: unknown): void;
};

ctx.onmessage = (e) => {
  const { seq, input } = e.data;
  try {
    ctx.postMessage({ seq, ok: true, analysis: analyze(input, () => performance.now()) });
  } catch (err) {
    ctx.postMessage({ seq, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
};

/**
 * The diagnostics engine off the main thread. The worker keeps the skill's buffers; the
 * renderer sends what changed (whole texts, or the edits of a keystroke) and every
 * buffer's length, and the worker answers with the analysis of the whole skill. A length
 * that does not match means the two copies parted: the worker asks for the full texts
 * instead of analysing the wrong ones.
 */
import { analyze, type Analysis } from './analyze';
import type { Rest } from './analyzer';

export interface Edit {
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

export interface SyncRequest {
  readonly seq: number;
  readonly set: Readonly<Record<string, string>>;
  readonly edits: Readonly<Record<string, readonly Edit[]>>;
  /** Every editable buffer's length as the renderer has it now. */
  readonly lengths: Readonly<Record<string, number>>;
  /** Sent when it changed: the files that are not buffers, the folder name, the lock's verdict. */
  readonly rest?: Rest;
}

export type Reply =
  | { seq: number; ok: true; analysis: Analysis }
  | { seq: number; ok: false; resync: true }
  | { seq: number; ok: false; resync?: false; message: string };

const ctx = self as unknown as {
  onmessage: ((e: MessageEvent<SyncRequest>) => void) | null;
  postMessage(m: Reply): void;
};

const buffers = new Map<string, string>();
let rest: Rest | null = null;

ctx.onmessage = (e) => {
  const m = e.data;
  if (m.rest) rest = m.rest;
  for (const [path, text] of Object.entries(m.set)) buffers.set(path, text);
  for (const [path, edits] of Object.entries(m.edits)) {
    let t = buffers.get(path);
    if (t === undefined) continue;
    for (const x of edits) t = t.slice(0, x.offset) + x.text + t.slice(x.offset + x.length);
    buffers.set(path, t);
  }
  const parted =
    !rest ||
    buffers.size !== Object.keys(m.lengths).length ||
    Object.entries(m.lengths).some(([path, n]) => buffers.get(path)?.length !== n);
  if (parted) {
    buffers.clear();
    ctx.postMessage({ seq: m.seq, ok: false, resync: true });
    return;
  }
  try {
    const input = {
      dir: rest!.dir,
      texts: { ...rest!.others, ...Object.fromEntries(buffers) },
      binaries: rest!.binaries,
      dirs: rest!.dirs,
      ...(rest!.drift ? { drift: true } : {}),
    };
    ctx.postMessage({ seq: m.seq, ok: true, analysis: analyze(input, () => performance.now()) });
  } catch (err) {
    ctx.postMessage({ seq: m.seq, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
};

import { useEffect, useSyncExternalStore } from 'react';
import type { Api, EventPayload } from '../../../../shared/ipc';

/**
 * Output and state of the runs this window started, by run id, fed by the `run.output`
 * and `run.status` streams. Events are kept even before the window knows the id (the
 * start answer and the first event may cross), and the display keeps at most
 * MAX_CHARS of output per run (the runner itself caps each stream).
 */
export const MAX_CHARS = 2 * 1024 * 1024;

export type ExitStatus = Extract<EventPayload<'run.status'>, { type: 'exit' }>;

export interface RunState {
  readonly runId: string;
  readonly chunks: ReadonlyArray<{ stream: 'stdout' | 'stderr'; text: string }>;
  readonly chars: number;
  readonly startedAt: number | null;
  readonly truncated: ReadonlyArray<{ stream: 'stdout' | 'stderr'; limitBytes: number }>;
  readonly exit: ExitStatus | null;
  /** Output the display dropped (over MAX_CHARS). */
  readonly droppedChars: number;
}

const runs = new Map<string, RunState>();
const listeners = new Set<() => void>();
let version = 0;

function update(runId: string, f: (r: RunState) => RunState): void {
  const cur = runs.get(runId) ?? {
    runId,
    chunks: [],
    chars: 0,
    startedAt: null,
    truncated: [],
    exit: null,
    droppedChars: 0,
  };
  runs.set(runId, f(cur));
  version++;
  for (const l of listeners) l();
}

let attached: Api | null = null;
let detach: (() => void) | null = null;

/** Subscribe the store to this Api's run streams (once per Api). */
export function useRunStreams(api: Api): void {
  useEffect(() => {
    if (attached === api) return;
    detach?.();
    attached = api;
    const offOut = api.on('run.output', (e) => {
      update(e.runId, (r) => {
        if (r.chars >= MAX_CHARS) return { ...r, droppedChars: r.droppedChars + e.chunk.length };
        const text = e.chunk.slice(0, MAX_CHARS - r.chars);
        const last = r.chunks[r.chunks.length - 1];
        // Merge consecutive chunks of one stream so a chatty script is not thousands of nodes.
        const chunks =
          last && last.stream === e.stream && last.text.length < 16 * 1024
            ? [...r.chunks.slice(0, -1), { stream: e.stream, text: last.text + text }]
            : [...r.chunks, { stream: e.stream, text }];
        return {
          ...r,
          chunks,
          chars: r.chars + text.length,
          droppedChars: r.droppedChars + (e.chunk.length - text.length),
        };
      });
    });
    const offStatus = api.on('run.status', (e) => {
      update(e.runId, (r) => {
        if (e.type === 'started') return { ...r, startedAt: Date.now() };
        if (e.type === 'truncated')
          return { ...r, truncated: [...r.truncated, { stream: e.stream, limitBytes: e.limitBytes }] };
        return { ...r, exit: e };
      });
    });
    detach = () => {
      offOut();
      offStatus();
    };
  }, [api]);
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useRun(runId: string | null): RunState | null {
  useSyncExternalStore(subscribe, () => version);
  return runId ? (runs.get(runId) ?? null) : null;
}

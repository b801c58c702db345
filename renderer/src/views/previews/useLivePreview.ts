import { useEffect, useRef, useState } from 'react';
import type { LivePreview } from '../../../../shared/ipc/channels/compile';
import { useApi } from '../../api/context';

interface Ask {
  readonly dir: string;
  readonly files: ReadonlyMap<string, string>;
  readonly inactive: boolean;
  /** Changes on disk seen so far: a new state of the project is a new question. */
  readonly changes: number;
}

export interface LiveState {
  /** The last answer (for older buffers while `stale`). */
  readonly live: LivePreview | null;
  readonly error: Error | null;
  /** The answer shown is not yet for these buffers (or this state of the project). */
  readonly stale: boolean;
}

/**
 * The compiled previews of skill `dir` with `files` (its unsaved buffers), planned by main.
 * At most one request is in flight: buffers that change meanwhile are sent once it answers,
 * the latest only, so a fast typist never queues up plans. A change on disk asks again.
 */
export function useLivePreview(
  root: string,
  dir: string,
  files: ReadonlyMap<string, string>,
  inactive: boolean,
): LiveState {
  const api = useApi();
  const [changes, setChanges] = useState(0);
  const [answer, setAnswer] = useState<{ ask: Ask; live: LivePreview | null; error: Error | null } | null>(null);
  // Outlives each render's effect: an answer to older buffers still sends the newest ones.
  const box = useRef({ busy: false, alive: true, sent: null as Ask | null, wanted: null as Ask | null });

  useEffect(
    () =>
      api.on('project.changed', (e) => {
        if (e.root === root) setChanges((n) => n + 1);
      }),
    [api, root],
  );

  useEffect(() => {
    const b = box.current;
    b.alive = true;
    return () => {
      b.alive = false;
    };
  }, []);

  useEffect(() => {
    const b = box.current;
    const pump = (): void => {
      const ask = b.wanted;
      if (!b.alive || b.busy || !ask || ask === b.sent) return;
      b.sent = ask;
      b.busy = true;
      api.compile
        .preview({ dir: ask.dir, files: Object.fromEntries(ask.files), inactive: ask.inactive })
        .then(
          (live) => b.alive && setAnswer({ ask, live, error: null }),
          (e: unknown) =>
            b.alive &&
            setAnswer((a) => ({ ask, live: a?.live ?? null, error: e instanceof Error ? e : new Error(String(e)) })),
        )
        .finally(() => {
          b.busy = false;
          pump();
        });
    };
    b.wanted = { dir, files, inactive, changes };
    pump();
  }, [api, dir, files, inactive, changes]);

  const ask = answer?.ask;
  return {
    live: answer && answer.ask.dir === dir ? answer.live : null,
    error: answer?.error ?? null,
    stale: !ask || ask.dir !== dir || ask.files !== files || ask.inactive !== inactive || ask.changes !== changes,
  };
}

import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/context';

/** How long an operation may run before it shows progress. */
export const PROGRESS_AFTER_MS = 300;

let counter = 0;
/** A fresh id for one call's `progress` events. */
export function newProgressId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

export interface ProgressState {
  readonly label: string | null;
  readonly done: number;
  readonly total: number | null;
}

/**
 * While `active`, listen for `progress` events of `id` and report them; `visible` turns
 * true only once the operation has run for more than 300 ms (quick answers never flash).
 */
export function useProgress(
  id: string | null,
  active: boolean,
): { visible: boolean; state: ProgressState; elapsedMs: number } {
  const api = useApi();
  const [state, setState] = useState<ProgressState>({
    label: null,
    done: 0,
    total: null,
  });
  const [elapsedMs, setElapsed] = useState(0);
  const started = useRef(0);
  useEffect(() => {
    if (!active) return;
    setState({ label: null, done: 0, total: null });
    setElapsed(0);
    started.current = Date.now();
    const off =
      id === null
        ? () => undefined
        : api.on('progress', (p) => {
            if (p.id === id) setState({ label: p.label, done: p.done, total: p.total });
          });
    const timer = setInterval(() => setElapsed(Date.now() - started.current), 100);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [api, id, active]);
  return { visible: active && elapsedMs > PROGRESS_AFTER_MS, state, elapsedMs };
}

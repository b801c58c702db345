import { useEffect, useState } from 'react';
import type { RunState } from './run-store';

/** Milliseconds since the run started, ticking while it runs; its final duration once it exited. */
export function useElapsed(run: RunState | null): number | null {
  const [now, setNow] = useState(Date.now());
  const live = run?.startedAt != null && run.exit == null;
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [live]);
  if (!run?.startedAt) return null;
  return run.exit ? run.exit.durationMs : now - run.startedAt;
}

import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../components/States';
import type { RunState } from './run-store';
import { outputText, seconds } from './run-text';
import { useElapsed } from './use-elapsed';

/** The run's output as it streams (following the end unless scrolled up), then its exit, verdict and caps. */
export function Output({ run, runId }: { run: RunState | null; runId: string }) {
  const elapsed = useElapsed(run);
  const pre = useRef<HTMLPreElement>(null);
  const [follow, setFollow] = useState(true);
  useEffect(() => {
    if (follow && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [run?.chars, follow]);
  const panel = useRef<HTMLElement>(null);
  const exit = run?.exit;
  // A new run, and its end (the exit line and any verdict below it): keep the output in view, where Run was clicked.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [runId, exit]);
  const ok = exit && exit.outcome === 'exited' && exit.exitCode === 0 && exit.verdict !== 'fail';
  return (
    <section className="runs-output" aria-label="Output" data-run={runId} ref={panel}>
      <div className="panel-head">
        <h3>Output</h3>
        <span className="runs-status" data-testid="status">
          {!exit ? (
            <>
              <Spinner label="Running" /> running{elapsed !== null ? ` · ${seconds(elapsed)}` : ''}
            </>
          ) : (
            <>
              <span className={`badge ${ok ? 'pass' : 'fail'}`} data-testid="exit">
                {exit.outcome === 'exited' ? `exit ${exit.exitCode}` : exit.outcome}
                {exit.verdict ? ` · verdict ${exit.verdict}` : ''}
              </span>{' '}
              <span className="muted small" data-testid="duration">
                {seconds(exit.durationMs)}
              </span>
            </>
          )}
        </span>
      </div>
      <pre
        className="terminal mono"
        ref={pre}
        data-testid="output"
        onScroll={(e) =>
          setFollow(e.currentTarget.scrollTop + e.currentTarget.clientHeight >= e.currentTarget.scrollHeight - 8)
        }
      >
        {run?.chunks.map((c, i) => (
          <span key={i} className={`runs-chunk ${c.stream}`}>
            {outputText(c.text)}
          </span>
        ))}
        {!run?.chunks.length && <span className="muted">{exit ? '(no output)' : 'waiting for output…'}</span>}
      </pre>
      {run && run.truncated.length > 0 && (
        <p className="small muted">
          Output capped by the runner: {run.truncated.map((t) => `${t.stream} at ${t.limitBytes} bytes`).join(', ')}.
        </p>
      )}
      {run && run.droppedChars > 0 && <p className="small muted">{run.droppedChars} characters not shown.</p>}
      {exit?.verdictDetail && <p className="small">{exit.verdictDetail}</p>}
      {exit?.message && <p className="small">{exit.message}</p>}
    </section>
  );
}

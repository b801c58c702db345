import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/context';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/States';
import { ADVISORY } from './LabelsTable';
import { RefusalBox } from './RefusalBox';
import { errorText, type Ask } from './run-text';
import { queryKeys } from '../../query-keys';

/**
 * The explicit one-time override: a separate confirmation that asks main for the
 * unconfined plan and shows exactly what runs (command, folder, environment) and which
 * restrictions will not hold. The token it gets is good for this one run only and is
 * dropped when the dialog closes; nothing is remembered.
 */
export function OverrideDialog({
  ask,
  onClose,
  onConfirm,
}: {
  ask: Ask;
  onClose: () => void;
  onConfirm: (token: string) => void;
}) {
  const api = useApi();
  // A fresh key per opening: an override plan (and its token) is never reused from a cache.
  const [nonce] = useState(() => `${Date.now()}-${Math.random()}`);
  const q = useQuery({
    queryKey: queryKeys.runs.override(JSON.stringify(ask), nonce),
    queryFn: () => api.runs.plan({ ...ask, unconfined: true }),
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [understood, setUnderstood] = useState(false);
  const a = q.data;
  const plan = a?.ok ? a.plan : null;
  const unheld = plan ? plan.rows.filter((r) => r.label === ADVISORY) : [];
  return (
    <Dialog
      onClose={onClose}
      className="runs-dialog"
      backdropClassName="runs-overlay"
      label="Run once without the sandbox"
    >
      <h2>Run once without the sandbox?</h2>
      <p className="small">
        This machine cannot hold the restrictions this skill needs. You can run it this one time with none of the OS
        restrictions below. This choice is not remembered: the next run is refused again.
      </p>
      {q.isPending && (
        <p className="small muted">
          <Spinner label="Preparing the override" /> Preparing exactly what would run…
        </p>
      )}
      {q.isError && (
        <div className="inline-error" role="alert">
          {errorText(q.error, 'runs.plan')}
        </div>
      )}
      {a && !a.ok && <RefusalBox refusal={a.refusal} onOverride={undefined} />}
      {plan && (
        <>
          <h3>What runs</h3>
          <div className="runs-cmd mono" data-testid="override-command">
            <span className="muted">$</span> {plan.argv.join(' ')}
          </div>
          <p className="small muted">in {plan.cwd}</p>
          <h3>Environment</h3>
          <pre className="runs-env mono small" data-testid="override-env">
            {Object.entries(plan.env)
              .map(([k, v]) => `${k}=${v}`)
              .join('\n')}
          </pre>
          <h3>Not enforced for this run ({unheld.length})</h3>
          <ul className="runs-unheld" data-testid="override-unheld">
            {unheld.map((r) => (
              <li key={r.id}>
                <span className="mono">{r.id}</span> — {r.what}
              </li>
            ))}
          </ul>
          <label className="small runs-understood">
            <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} /> I
            understand that this script runs with my account's full access, this once.
          </label>
        </>
      )}
      <div className="runs-dialog-actions">
        <button type="button" className="btn ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn danger"
          data-testid="override-confirm"
          disabled={!plan || !a?.ok || !a.overrideToken || !understood}
          onClick={() => a?.ok && a.overrideToken && onConfirm(a.overrideToken)}
        >
          Run once without the sandbox
        </button>
      </div>
    </Dialog>
  );
}

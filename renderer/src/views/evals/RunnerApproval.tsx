import { useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { EvalRunRequest, RunnerApproval } from '../../../../shared/ipc/channels/evals';
import { useApi } from '../../api/context';
import { Dialog } from '../../components/Dialog';
import './runner-approval.css';

type Started = { ok: true; runId: string } | { ok: false; message: string };
interface Asking {
  readonly request: EvalRunRequest;
  readonly pending: RunnerApproval[];
  /** Why the dialog is asking again, when an approval was refused. */
  readonly notice?: string;
}

/**
 * Starting an eval run from the app: first the runners it would use (evals.runners); if one
 * is not approved as defined now, the approval dialog instead of the run. "Approve and run"
 * records each approval bound to the definition shown, then starts the same request — which
 * lists again, so a runner changed in between is asked about again rather than run.
 */
export function useApprovedStart(onStarted: (runId: string) => void) {
  const api = useApi();
  const [asking, setAsking] = useState<Asking | null>(null);
  const start = useMutation({
    mutationFn: async (request: EvalRunRequest): Promise<Started | null> => {
      let runners: RunnerApproval[];
      try {
        runners = (await api.evals.runners(request)).runners;
      } catch {
        // A request that cannot be planned (no runner, a refused read path): start refuses it
        // with the same one-line message, shown where a refusal always was.
        return api.evals.start(request);
      }
      const pending = runners.filter((r) => !r.approved);
      if (pending.length) {
        setAsking({ request, pending });
        return null;
      }
      return api.evals.start(request);
    },
    onSuccess: (a) => {
      if (a?.ok) onStarted(a.runId);
    },
  });
  const dialog = asking && (
    <RunnerApprovalDialog
      // A new listing is a new question: the dialog starts over on it.
      key={asking.pending.map((p) => p.key).join()}
      pending={asking.pending}
      notice={asking.notice}
      onCancel={() => setAsking(null)}
      onApproved={() => {
        setAsking(null);
        start.mutate(asking.request);
      }}
      onRefused={async (message) => {
        // Nothing was approved (the runner changed since it was shown, or went): ask about it as it is now.
        try {
          const now = (await api.evals.runners(asking.request)).runners.filter((r) => !r.approved);
          setAsking(
            now.length ? { ...asking, pending: now, notice: `${message}: it is shown below as defined now.` } : null,
          );
        } catch (e) {
          setAsking({ ...asking, notice: `${message}; ${e instanceof Error ? e.message : String(e)}` });
        }
      }}
    />
  );
  return { start, dialog };
}

/** Which summary line a change is about (`read: + /x` → `reads: …`), to mark it. */
const LINE_OF: Record<string, string> = {
  command: 'command',
  read: 'reads',
  home: 'home',
  env: 'env',
  network: 'network',
  target: 'target',
  transcript: 'target',
  timeout: 'target',
};
const labelOf = (line: string): string => line.slice(0, line.indexOf(':'));
const changedLabels = (changes: readonly string[]): Set<string> =>
  new Set(changes.map((c) => LINE_OF[labelOf(c)] ?? labelOf(c)));

/**
 * What each runner would be allowed, in the CLI's words (grantSummary), and what changed
 * since it was last approved here. Cancel (or Escape) runs nothing.
 */
export function RunnerApprovalDialog({
  pending,
  notice,
  onCancel,
  onApproved,
  onRefused,
}: {
  pending: readonly RunnerApproval[];
  notice?: string | undefined;
  onCancel: () => void;
  onApproved: () => void;
  /** An approval was refused (main's one-line reason): list the runners again. */
  onRefused: (message: string) => Promise<void>;
}) {
  const api = useApi();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const approve = useMutation({
    mutationFn: async () => {
      // One at a time, each bound to the key it was shown with; main refuses a stale one.
      for (const r of pending) await api.evals.approveRunner({ runner: r.id, key: r.key });
    },
    onSuccess: onApproved,
    onError: (e) => void onRefused(e instanceof Error ? e.message : String(e)),
  });
  const ids = pending.map((p) => p.id).join(', ');
  const many = pending.length > 1;
  return (
    <Dialog
      onClose={onCancel}
      className="evals-approve-dialog"
      labelledBy="evals-approve-title"
      describedBy="evals-approve-why"
      initialFocus={cancelRef}
      testId="runner-approval"
    >
      <div className="modal-head">
        <h2 id="evals-approve-title">{many ? `Approve runners ${ids}?` : `Approve runner ${ids}?`}</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onCancel}>
          ×
        </button>
      </div>
      <p id="evals-approve-why" className="muted small">
        A runner is the agent command an eval runs, defined in this project&apos;s kitbash.toml — which whoever wrote
        the project controls. Approve it only if you trust what it may do. The approval is yours, kept outside the
        project (runner-approvals.json), and covers this definition in this project only: any change asks again.
      </p>
      {notice && (
        <div className="banner warn" role="alert" data-testid="runner-approval-notice">
          {notice}
        </div>
      )}
      {pending.map((r) => {
        const marked = changedLabels(r.changes);
        return (
          <section
            key={r.id}
            className={`evals-approve-runner${r.changes.length ? ' changed' : ''}`}
            aria-label={`Runner ${r.id}`}
            data-runner={r.id}
          >
            <div className="evals-approve-icon" aria-hidden="true">
              {r.changes.length ? '!' : '?'}
            </div>
            <div>
              <h3>
                Runner <span className="mono">{r.id}</span>{' '}
                {r.changes.length ? 'changed since you approved it' : 'has not been approved in this project'}
              </h3>
              {r.changes.length > 0 && (
                <>
                  <p className="small">What changed:</p>
                  <ul className="evals-approve-lines evals-approve-changes" aria-label={`Changes to ${r.id}`}>
                    {r.changes.map((c) => (
                      <li key={c} className="mono">
                        {c}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              <p className="small">{r.changes.length ? 'Now it would run with:' : 'It would run with:'}</p>
              <ul className="evals-approve-lines" aria-label={`What ${r.id} may do`}>
                {r.summary.map((line) => (
                  <li
                    key={line}
                    className={`mono${marked.has(labelOf(line)) ? ' changed' : ''}`}
                    data-line={labelOf(line)}
                  >
                    {line}
                  </li>
                ))}
              </ul>
            </div>
          </section>
        );
      })}
      <div className="modal-actions">
        <button type="button" className="btn ghost" ref={cancelRef} onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="btn primary"
          disabled={approve.isPending}
          onClick={() => approve.mutate()}
          data-action="approve-runner"
        >
          {approve.isPending ? 'Approving…' : 'Approve and run'}
        </button>
      </div>
    </Dialog>
  );
}

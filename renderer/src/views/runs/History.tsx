import { useQuery } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { AuditEntry } from '../../../../shared/ipc/channels/runs';
import { useApi } from '../../api/context';
import { Spinner } from '../../components/States';
import { errorText, seconds } from './run-text';
import { formatDateTime } from '../../format';
import { queryKeys } from '../../query-keys';

/** The audit log (.kitbash/runs.jsonl), newest first: every run and refusal, of one skill or all. */
export function History({ project, skill }: { project: ProjectRef; skill: string | null }) {
  const api = useApi();
  const q = useQuery({
    queryKey: queryKeys.runs.history(project.root, skill),
    queryFn: () => api.runs.history({ ...(skill ? { skill } : {}), limit: 100 }),
    retry: false,
  });
  return (
    <section className="panel" aria-label="History">
      <div className="panel-head">
        <h2>History {skill ? <span className="muted small">· {skill}</span> : null}</h2>
        <span className="muted small">{q.data ? `${q.data.total} in .kitbash/runs.jsonl` : ''}</span>
      </div>
      {q.isError ? (
        <div className="inline-error" role="alert">
          {errorText(q.error, 'runs.history')}
        </div>
      ) : q.isPending ? (
        <Spinner label="Reading the audit log" />
      ) : q.data.records.length === 0 ? (
        <p className="muted small">No runs yet.</p>
      ) : (
        <div className="runs-table-scroll">
          <table className="runs-history" data-testid="history">
            <thead>
              <tr>
                <th>when</th>
                <th>skill</th>
                <th>script</th>
                <th>outcome</th>
                <th>duration</th>
                <th>sandbox</th>
              </tr>
            </thead>
            <tbody>
              {q.data.records.map((r) => (
                <HistoryRow key={r.runId} r={r} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function HistoryRow({ r }: { r: AuditEntry }) {
  const good = r.outcome === 'exited' && r.exitCode === 0 && r.verdict !== 'fail';
  return (
    <tr data-run={r.runId} className={r.override ? 'override' : ''}>
      <td className="small" title={r.time}>
        {formatDateTime(r.time, { seconds: true })}
      </td>
      <td>{r.skill}</td>
      <td className="mono small">{r.script ?? (r.mode === 'gate' ? '(gate)' : '')}</td>
      <td>
        <span className={`badge ${good ? 'pass' : r.outcome === 'refused' ? 'warn' : 'fail'}`}>
          {r.outcome === 'exited' ? `exit ${r.exitCode}` : r.outcome}
        </span>
        {r.verdict ? <span className="small"> verdict {r.verdict}</span> : null}
        {r.refused && <div className="small muted runs-refused-line">{r.refused}</div>}
      </td>
      <td className="small">{r.outcome === 'refused' ? '—' : seconds(r.durationMs)}</td>
      <td className="small">
        {r.backend}
        {r.override ? <span className="tag subtle">override</span> : null}
      </td>
    </tr>
  );
}

import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type {
  AuditEntry,
  PlanAnswer,
  Refusal,
  RestrictionRowView,
  RunPlanView,
  RunTarget,
} from '../../../../shared/ipc/channels/runs';
import { IpcError } from '../../../../shared/ipc/errors';
import { useApi } from '../../api/context';
import { EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { useRun, useRunStreams, type RunState } from './run-store';
import './runs.css';
import { useEscape } from '../../use-escape';

const ADVISORY = 'advisory — not enforced here';
/** The permissions a manifest declares; their rows are highlighted. */
const DECLARED = new Set(['network', 'filesystem']);

export const runsKeys = {
  all: (root: string) => ['runs', root] as const,
  targets: (root: string) => ['runs', root, 'targets'] as const,
  plan: (root: string, ask: string) => ['runs', root, 'plan', ask] as const,
  history: (root: string, skill: string | null) => ['runs', root, 'history', skill ?? ''] as const,
};

interface Ask {
  skill: string;
  mode: 'run' | 'gate';
  script?: string;
  args: string[];
}

/** Arguments as typed: split on whitespace; "double" or 'single' quotes keep spaces. */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

function errorText(e: unknown, where: string): string {
  const msg = e instanceof Error ? e.message : String(e);
  return `${msg} (${where}${e instanceof IpcError ? `, ${e.code}` : ''})`;
}

export function RunsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const api = useApi();
  useRunStreams(api);
  const qc = useQueryClient();
  useEffect(
    () =>
      api.on('project.changed', (e) => {
        // Skill files, the lock or the policy changed: labels, plans (drift, refusals) and history may too.
        if (e.root === project.root) void qc.invalidateQueries({ queryKey: runsKeys.all(project.root) });
      }),
    [api, qc, project.root],
  );
  const targets = useQuery({
    queryKey: runsKeys.targets(project.root),
    queryFn: () => api.runs.targets({}),
    retry: false,
  });
  const skills = targets.data?.skills ?? [];
  const runnable = skills.filter((s) => s.scripts.length > 0 || s.mode === 'gate');
  const selected = skills.find((s) => s.dir === arg) ?? null;

  return (
    <main className="runs" aria-label="Runs">
      <div className="play-head">
        <div>
          <h2>Runs</h2>
          <p className="muted small">
            Run a script or gate of an installed skill inside the sandbox its manifest declares. Output streams live;
            every run and refusal lands in <code>.kitbash/runs.jsonl</code>.
          </p>
        </div>
        {targets.data && (
          <span
            className={`badge ${targets.data.backend.works ? 'pass' : 'fail'}`}
            data-testid="backend"
            title={targets.data.backend.reason ?? targets.data.backend.path ?? ''}
          >
            sandbox: {targets.data.backend.backend}
            {targets.data.backend.version ? ` ${targets.data.backend.version}` : ''}{' '}
            {targets.data.backend.works ? 'works' : 'unavailable'}
          </span>
        )}
      </div>
      {targets.data && !targets.data.backend.works && (
        <div className="banner error" role="alert">
          The OS sandbox does not work here: {targets.data.backend.reason ?? 'unknown reason'}. Runs are refused; a
          single run can go ahead only through the explicit override.
        </div>
      )}
      {targets.isError ? (
        <ErrorState error={targets.error} onRetry={() => void targets.refetch()} />
      ) : targets.isPending ? (
        <div className="panel play-loading">
          <Spinner label="Probing the sandbox" /> Probing the sandbox and reading installed skills…
        </div>
      ) : (
        <div className="runs-grid">
          <nav className="panel runs-skills" aria-label="Skills with scripts">
            <h3>Skills</h3>
            {runnable.length === 0 ? (
              <p className="muted small">No installed skill has scripts or is a gate.</p>
            ) : (
              <ul>
                {runnable.map((s) => (
                  <li key={s.dir}>
                    <button
                      type="button"
                      className={`runs-skill ${s.dir === arg ? 'active' : ''}`}
                      data-skill={s.dir}
                      onClick={() => navigate({ view: 'runs', arg: s.dir })}
                    >
                      <span className="skill-name">{s.dir}</span>
                      <span className="muted small">
                        {s.mode === 'gate' ? 'gate · ' : ''}
                        {s.scripts.length} script{s.scripts.length === 1 ? '' : 's'}
                        {s.permissions?.network ? ' · network' : ''}
                        {s.permissions?.write ? ' · write' : ''}
                        {s.verdict && s.verdict.blocking.length > 0 ? ' · blocked' : ''}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </nav>
          <div className="runs-main">
            {selected ? (
              <SkillRuns key={selected.dir} project={project} target={selected} />
            ) : (
              <EmptyState title="Pick a skill" icon="▷">
                {arg ? (
                  <>
                    No installed skill <code>{arg}</code>.
                  </>
                ) : (
                  'Choose a skill on the left to see its scripts and how each restriction is held here.'
                )}
              </EmptyState>
            )}
            <History project={project} skill={selected?.dir ?? null} />
          </div>
        </div>
      )}
    </main>
  );
}

function LabelsTable({ rows, caption }: { rows: readonly RestrictionRowView[]; caption: string }) {
  return (
    <table className="runs-labels" aria-label={caption}>
      <thead>
        <tr>
          <th>restriction</th>
          <th>held to</th>
          <th>on this machine</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.id}
            data-row={r.id}
            className={`${DECLARED.has(r.id) ? 'declared' : ''} ${r.label === ADVISORY ? (r.required ? 'unheld required' : 'unheld') : ''}`}
          >
            <td className="mono">{r.id}</td>
            <td>{r.what}</td>
            <td>
              <span className={`label ${r.label === ADVISORY ? (r.required ? 'bad' : 'warn') : 'ok'}`} data-label>
                {r.label}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SkillRuns({ project, target }: { project: ProjectRef; target: RunTarget }) {
  const api = useApi();
  const qc = useQueryClient();
  const gate = target.mode === 'gate';
  const choices = useMemo(
    () => [
      ...(gate ? [{ value: '\u0000gate', label: 'gate (verdict)' }] : []),
      ...target.scripts.map((s) => ({ value: s, label: `scripts/${s}` })),
    ],
    [gate, target.scripts],
  );
  const [choice, setChoice] = useState<string>(choices[0]?.value ?? '');
  const [argText, setArgText] = useState('');
  const [runId, setRunId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [refusedAtStart, setRefusedAtStart] = useState<Refusal | null>(null);
  const [override, setOverride] = useState(false);
  const ask: Ask | null = choice
    ? {
        skill: target.dir,
        mode: choice === '\u0000gate' ? 'gate' : 'run',
        ...(choice === '\u0000gate' ? {} : { script: choice }),
        args: splitArgs(argText),
      }
    : null;
  const askKey = JSON.stringify(ask);
  const plan = useQuery({
    queryKey: runsKeys.plan(project.root, askKey),
    queryFn: () => api.runs.plan(ask!),
    enabled: ask !== null,
    retry: false,
    staleTime: 0,
  });
  const run = useRun(runId);
  const running = runId !== null && run?.exit == null;

  useEffect(() => {
    if (run?.exit) void qc.invalidateQueries({ queryKey: ['runs', project.root, 'history'] });
  }, [run?.exit, qc, project.root]);

  const start = useMutation({
    mutationFn: (extra: { overrideToken?: string }) => api.runs.start({ ...ask!, ...extra }),
    onMutate: () => {
      setStartError(null);
      setRefusedAtStart(null);
    },
    onSuccess: (a) => {
      if (a.ok) setRunId(a.runId);
      else {
        setRefusedAtStart(a.refusal);
        void qc.invalidateQueries({ queryKey: ['runs', project.root, 'history'] });
      }
    },
    onError: (e) => setStartError(errorText(e, 'runs.start')),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => api.runs.cancel({ runId: id }),
    onError: (e) => setStartError(errorText(e, 'runs.cancel')),
  });

  if (choices.length === 0) {
    return (
      <section className="panel">
        <h2>{target.dir}</h2>
        <p className="muted">This skill has no scripts/ to run.</p>
      </section>
    );
  }
  const answer: PlanAnswer | undefined = plan.data;
  const refusal = answer && !answer.ok ? answer.refusal : null;

  return (
    <>
      <section className="panel runs-setup" aria-label={`Run ${target.dir}`}>
        <div className="panel-head">
          <h2>
            {target.dir}{' '}
            <span className="muted small">
              {target.version ? `v${target.version}` : ''} {gate ? '· gate' : ''}
            </span>
          </h2>
          {target.permissions && (
            <span className="perm-badges small">
              <span className={`perm-flag ${target.permissions.network ? 'on' : ''}`}>
                network = {String(target.permissions.network)}
              </span>
              <span className={`perm-flag ${target.permissions.write ? 'on' : ''}`}>
                write = {String(target.permissions.write)}
              </span>
              {target.permissions.tools.length > 0 && (
                <span className="perm-flag">tools: {target.permissions.tools.join(', ')}</span>
              )}
            </span>
          )}
        </div>
        {target.verdict && (
          <p
            className={`small ${target.verdict.blocking.length ? 'inline-error' : 'muted'}`}
            data-testid="runs-verdict"
          >
            Checks: {target.verdict.failures} failure(s), {target.verdict.warnings} warning(s)
            {target.verdict.blocking.length > 0 &&
              `, ${target.verdict.blocking.length} blocking — runs are refused until it is fixed or accepted by a reviewed exception`}
            {target.verdict.accepted > 0 && `, ${target.verdict.accepted} accepted by exception`}
          </p>
        )}
        {target.problem && (
          <div className="inline-error" role="alert">
            {target.problem} <span className="muted small">(skill loader)</span>
          </div>
        )}
        <div className="runs-form">
          <label>
            <span className="muted small">Script</span>
            <select aria-label="Script" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={running}>
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <label className="runs-args-label">
            <span className="muted small">Arguments</span>
            <input
              className="runs-args"
              aria-label="Arguments"
              value={argText}
              onChange={(e) => setArgText(e.target.value)}
              disabled={running}
              placeholder="none"
            />
          </label>
          <button
            type="button"
            className="btn primary"
            data-testid="run"
            disabled={!answer?.ok || running || start.isPending}
            onClick={() => start.mutate({})}
          >
            {start.isPending ? <Spinner label="Starting" /> : '▶'} Run
          </button>
          {running && (
            <button
              type="button"
              className="btn"
              data-testid="cancel"
              onClick={() => cancel.mutate(runId!)}
              disabled={cancel.isPending}
            >
              Cancel
            </button>
          )}
        </div>
        {plan.isFetching && (
          <p className="small muted">
            <Spinner label="Checking the run" /> Checking what would run and how it is confined…
          </p>
        )}
        {plan.isError && (
          <div className="inline-error" role="alert">
            {errorText(plan.error, 'runs.plan')}
          </div>
        )}
        {refusal && (
          <RefusalBox
            refusal={refusal}
            onOverride={refusal.reason === 'unenforced' ? () => setOverride(true) : undefined}
          />
        )}
        {refusedAtStart && <RefusalBox refusal={refusedAtStart} onOverride={undefined} />}
        {startError && (
          <div className="inline-error" role="alert">
            {startError}
          </div>
        )}
        {answer?.ok && <PlanBox plan={answer.plan} />}
        {!answer && target.rows.length > 0 && <LabelsTable rows={target.rows} caption="Sandbox labels" />}
      </section>
      {override && ask && (
        <OverrideDialog
          ask={ask}
          onClose={() => setOverride(false)}
          onConfirm={(token) => {
            setOverride(false);
            start.mutate({ overrideToken: token });
          }}
        />
      )}
      {runId && <Output run={run} runId={runId} />}
    </>
  );
}

function RefusalBox({ refusal, onOverride }: { refusal: Refusal; onOverride: (() => void) | undefined }) {
  return (
    <div className="runs-refusal" role="alert" data-testid="refusal" data-reason={refusal.reason}>
      <div>
        <strong>The runner refuses this run</strong> <span className="tag subtle">{refusal.reason}</span>
      </div>
      <p>{refusal.message}</p>
      {refusal.rows && <LabelsTable rows={refusal.rows} caption="Sandbox labels" />}
      {onOverride && (
        <button type="button" className="btn" data-testid="override" onClick={onOverride}>
          Run once without the sandbox…
        </button>
      )}
    </div>
  );
}

function PlanBox({ plan }: { plan: RunPlanView }) {
  return (
    <div className="runs-plan" data-testid="plan">
      <div className="runs-cmd mono" title={plan.cwd}>
        <span className="muted">$</span> {plan.argv.join(' ')}
      </div>
      <p className="small muted">
        in {plan.cwd} ·{' '}
        {plan.override ? 'without the OS sandbox (one-time override)' : `confined by ${plan.backend.backend}`}
        {plan.produces.length ? ` · validates ${plan.produces.join(', ')}` : ''}
      </p>
      <LabelsTable rows={plan.rows} caption="Sandbox labels" />
    </div>
  );
}

/**
 * The explicit one-time override: a separate confirmation that asks main for the
 * unconfined plan and shows exactly what runs (command, folder, environment) and which
 * restrictions will not hold. The token it gets is good for this one run only and is
 * dropped when the dialog closes; nothing is remembered.
 */
function OverrideDialog({
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
    queryKey: ['runs', 'override', JSON.stringify(ask), nonce],
    queryFn: () => api.runs.plan({ ...ask, unconfined: true }),
    retry: false,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [understood, setUnderstood] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEscape(onClose);
  useEffect(() => ref.current?.focus(), []);
  const a = q.data;
  const plan = a?.ok ? a.plan : null;
  const unheld = plan ? plan.rows.filter((r) => r.label === ADVISORY) : [];
  return (
    <div className="runs-overlay" onClick={onClose}>
      <div
        className="runs-dialog panel"
        role="dialog"
        aria-modal="true"
        aria-label="Run once without the sandbox"
        tabIndex={-1}
        ref={ref}
        onClick={(e) => e.stopPropagation()}
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
            Run once unconfined
          </button>
        </div>
      </div>
    </div>
  );
}

function useElapsed(run: RunState | null): number | null {
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

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function Output({ run, runId }: { run: RunState | null; runId: string }) {
  const elapsed = useElapsed(run);
  const pre = useRef<HTMLPreElement>(null);
  const [follow, setFollow] = useState(true);
  useEffect(() => {
    if (follow && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [run?.chars, follow]);
  const exit = run?.exit;
  const ok = exit && exit.outcome === 'exited' && exit.exitCode === 0 && exit.verdict !== 'fail';
  return (
    <section className="panel runs-output" aria-label="Output" data-run={runId}>
      <div className="panel-head">
        <h2>Output</h2>
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
        className="runs-pre mono"
        ref={pre}
        data-testid="output"
        onScroll={(e) =>
          setFollow(e.currentTarget.scrollTop + e.currentTarget.clientHeight >= e.currentTarget.scrollHeight - 8)
        }
      >
        {run?.chunks.map((c, i) => (
          <span key={i} className={c.stream}>
            {c.text}
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

function History({ project, skill }: { project: ProjectRef; skill: string | null }) {
  const api = useApi();
  const q = useQuery({
    queryKey: runsKeys.history(project.root, skill),
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
      )}
    </section>
  );
}

function HistoryRow({ r }: { r: AuditEntry }) {
  const good = r.outcome === 'exited' && r.exitCode === 0 && r.verdict !== 'fail';
  return (
    <tr data-run={r.runId} className={r.override ? 'override' : ''}>
      <td className="small" title={r.time}>
        {new Date(r.time).toLocaleString()}
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

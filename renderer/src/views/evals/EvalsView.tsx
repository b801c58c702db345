import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { EvalProgress, EvalResultView, EvalsOverview } from '../../../../shared/ipc/channels/evals';
import { useApi } from '../../api/context';
import { EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { HistoryChart, TrialPanel } from './EvalDetail';
import './evals.css';

export const evalsKeys = {
  all: (root: string) => ['evals', root] as const,
  overview: (root: string) => ['evals', root, 'overview'] as const,
  status: (root: string, runId: string) => ['evals', root, 'status', runId] as const,
  history: (root: string, skill: string) => ['evals', root, 'history', skill] as const,
  trial: (root: string, key: string) => ['evals', root, 'trial', key] as const,
};

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`);
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.round(Math.abs(x) * 100)}%`;

/** The skill's effect, e.g. `+67% [+12%, +90%]`. */
export function deltaText(r: Pick<EvalResultView, 'delta'>): string {
  if (!r.delta) return '';
  return r.delta.interval
    ? `${signed(r.delta.value)} [${signed(r.delta.interval.low)}, ${signed(r.delta.interval.high)}]`
    : signed(r.delta.value);
}

export interface Cell {
  readonly runId: string;
  readonly result: EvalResultView;
}

export function EvalsView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const api = useApi();
  const qc = useQueryClient();
  useEffect(
    () =>
      api.on('project.changed', (e) => {
        if (e.root === project.root) void qc.invalidateQueries({ queryKey: evalsKeys.overview(project.root) });
      }),
    [api, qc, project.root],
  );
  const overview = useQuery({
    queryKey: evalsKeys.overview(project.root),
    queryFn: () => api.evals.overview({}),
    retry: false,
  });
  const skills = overview.data?.skills ?? [];
  const selected = skills.find((s) => s.name === arg) ?? (arg === undefined ? skills[0] : undefined) ?? null;

  return (
    <main className="evals" aria-label="Evals">
      <div className="play-head">
        <div>
          <h2>Evals</h2>
          <p className="muted small">
            A skill's behavioral and trigger evals run against coding agents, each trial in a fresh sandboxed workspace
            — with the skill and, for a baseline, without. Results and transcripts land in <code>.kitbash/evals/</code>.
          </p>
        </div>
      </div>
      {overview.data?.problems.map((p) => (
        <div key={p} className="banner error" role="alert">
          {p}
        </div>
      ))}
      {overview.isError ? (
        <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />
      ) : overview.isPending ? (
        <div className="panel play-loading">
          <Spinner label="Reading evals" /> Reading the skills' evals…
        </div>
      ) : skills.length === 0 ? (
        <EmptyState title="No evals to run" icon="◎">
          No installed skill has an audit, behavioral or trigger eval. Add <code>evals/&lt;name&gt;.eval.yaml</code> to
          a skill (the editor has a template).
        </EmptyState>
      ) : (
        <div className="runs-grid">
          <nav className="panel runs-skills" aria-label="Skills with evals">
            <h3>Skills</h3>
            <ul>
              {skills.map((s) => (
                <li key={s.name}>
                  <button
                    type="button"
                    className={`runs-skill ${s.name === selected?.name ? 'active' : ''}`}
                    data-skill={s.name}
                    onClick={() => navigate({ view: 'evals', arg: s.name })}
                  >
                    <span className="skill-name">{s.name}</span>
                    <span className="muted small">
                      {s.version} · {s.evals.length} eval{s.evals.length === 1 ? '' : 's'}
                      {s.refused ? ' · refused' : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <div className="runs-main">
            {selected ? (
              <SkillEvals key={selected.name} project={project} overview={overview.data} skill={selected} />
            ) : (
              <EmptyState title="No such skill">
                No installed skill with evals is named <code>{arg}</code>.
              </EmptyState>
            )}
          </div>
        </div>
      )}
    </main>
  );
}

type SkillRow = EvalsOverview['skills'][number];

/** The editor's "Run evals": starts this skill's evals (with a baseline) and opens the Evals view on it. */
export function RunEvalsButton({ project, skill }: { project: ProjectRef; skill: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const overview = useQuery({
    queryKey: evalsKeys.overview(project.root),
    queryFn: () => api.evals.overview({}),
    retry: false,
  });
  const [refusal, setRefusal] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api.evals.start({ skills: [skill], baseline: true }),
    onSuccess: async (a) => {
      if (!a.ok) return setRefusal(a.message);
      await qc.invalidateQueries({ queryKey: evalsKeys.overview(project.root) });
      navigate({ view: 'evals', arg: skill });
    },
  });
  const entry = overview.data?.skills.find((s) => s.name === skill);
  if (!entry) return null;
  const why = entry.refused ?? refusal;
  return (
    <button
      type="button"
      className="btn"
      disabled={entry.refused !== null || start.isPending}
      title={why ?? `Run ${skill}'s ${entry.evals.length} eval(s) against the configured runners, with a baseline`}
      onClick={() => start.mutate()}
      data-testid="editor-run-evals"
    >
      Run evals{refusal ? ' — refused' : ''}
    </button>
  );
}

function SkillEvals({ project, overview, skill }: { project: ProjectRef; overview: EvalsOverview; skill: SkillRow }) {
  const api = useApi();
  const qc = useQueryClient();
  const configured = overview.runners.filter((r) => r.configured);
  const [runner, setRunner] = useState<string>(configured.length ? '' : (overview.runners[0]?.id ?? ''));
  const [repeat, setRepeat] = useState<string>('');
  const [baseline, setBaseline] = useState(true);
  // A run started elsewhere (the editor's "Run evals") is picked up and followed here.
  const [runId, setRunId] = useState<string | null>(overview.active);
  const [picked, setPicked] = useState<{ eval: string; runner: string } | null>(null);

  const start = useMutation({
    mutationFn: () =>
      api.evals.start({
        skills: [skill.name],
        baseline,
        ...(runner ? { runner } : {}),
        ...(repeat ? { repeat: Number(repeat) } : {}),
      }),
    onSuccess: (a) => {
      if (a.ok) setRunId(a.runId);
    },
  });
  const status = useQuery({
    queryKey: evalsKeys.status(project.root, runId ?? ''),
    queryFn: () => api.evals.status({ runId: runId! }),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 400 : false),
  });
  const progress: EvalProgress | undefined = status.data;
  const running = progress?.state === 'running';
  useEffect(() => {
    if (progress && progress.state !== 'running') {
      void qc.invalidateQueries({ queryKey: evalsKeys.overview(project.root) });
      void qc.invalidateQueries({ queryKey: evalsKeys.history(project.root, skill.name) });
    }
  }, [progress, qc, project.root, skill.name]);
  const cancel = useMutation({ mutationFn: () => api.evals.cancel({ runId: runId! }) });

  // Cells: this run's results over the newest stored ones.
  const cells = useMemo(() => {
    const m = new Map<string, Cell>();
    for (const l of overview.latest)
      if (l.result.skill === skill.name) m.set(`${l.result.eval}\0${l.result.runner}`, l);
    for (const r of progress?.results ?? []) m.set(`${r.eval}\0${r.runner}`, { runId: progress!.runId, result: r });
    return m;
  }, [overview.latest, progress, skill.name]);
  const runnerIds = useMemo(() => {
    const ids = new Set<string>(configured.map((r) => r.id));
    for (const c of cells.values()) ids.add(c.result.runner);
    if (runner) ids.add(runner);
    return [...ids];
  }, [configured, cells, runner]);
  const pickedCell = picked ? cells.get(`${picked.eval}\0${picked.runner}`) : undefined;

  return (
    <>
      <section className="panel" aria-label="Run evals">
        <div className="panel-head">
          <h3>
            {skill.name} <span className="muted small">{skill.version}</span>
          </h3>
        </div>
        {skill.refused ? (
          <div className="banner error" role="alert" data-testid="evals-refused">
            Evals of {skill.name} are refused: {skill.refused}.
          </div>
        ) : (
          <div className="runs-form">
            <label>
              <span className="small muted">Runner</span>
              <select aria-label="Runner" value={runner} onChange={(e) => setRunner(e.target.value)} disabled={running}>
                {configured.length > 0 && (
                  <option value="">each configured runner ({configured.map((r) => r.id).join(', ')})</option>
                )}
                {overview.runners.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.id} — {r.preset && !r.configured ? 'preset, ' : ''}
                    {r.available ? `target ${r.target}` : 'not installed here'}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span className="small muted">Trials (repeat)</span>
              <input
                className="evals-repeat"
                aria-label="Repeat"
                type="number"
                min={1}
                max={100}
                placeholder="per file"
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
                disabled={running}
              />
            </label>
            <label className="evals-check">
              <input
                type="checkbox"
                checked={baseline}
                onChange={(e) => setBaseline(e.target.checked)}
                disabled={running}
              />{' '}
              baseline (without the skill)
            </label>
            {running ? (
              <button type="button" className="btn danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
                Cancel
              </button>
            ) : (
              <button type="button" className="btn primary" onClick={() => start.mutate()} disabled={start.isPending}>
                Run evals
              </button>
            )}
          </div>
        )}
        {start.data && !start.data.ok && (
          <div className="banner error" role="alert">
            {start.data.message}
          </div>
        )}
        {start.isError && <ErrorState error={start.error} />}
        {progress && (
          <div className="evals-progress" data-testid="evals-progress" aria-live="polite">
            <div
              className="meter"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={progress.total}
              aria-valuenow={progress.done}
            >
              <div
                className="meter-fill"
                style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 100}%` }}
              />
            </div>
            <span className="small muted">
              {progress.state === 'running'
                ? `trial ${progress.done} of ${progress.total}`
                : progress.cancelled
                  ? `cancelled after ${progress.done} of ${progress.total} trials`
                  : progress.state === 'failed'
                    ? `failed: ${progress.message ?? ''}`
                    : `done — ${progress.done} trial(s)`}
            </span>
            {progress.problems.map((p) => (
              <div key={p} className="banner error small">
                {p}
              </div>
            ))}
          </div>
        )}
      </section>
      <section className="panel" aria-label="Evals by runner">
        <div className="panel-head">
          <h3>Evals × runners</h3>
          <span className="muted small">pass rate (threshold) · effect vs. baseline · triggered</span>
        </div>
        <table className="evals-grid">
          <thead>
            <tr>
              <th>eval</th>
              {runnerIds.map((id) => (
                <th key={id}>{id}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {skill.evals.map((e) => (
              <tr key={e.name}>
                <th scope="row">
                  <span className="skill-name">{e.name}</span> <span className="muted small">{e.tier}</span>
                  {e.description && <div className="muted small">{e.description}</div>}
                </th>
                {runnerIds.map((id) => {
                  const c = cells.get(`${e.name}\0${id}`);
                  const on = picked?.eval === e.name && picked.runner === id;
                  return (
                    <td key={id}>
                      {c ? (
                        <button
                          type="button"
                          className={`evals-cell ${c.result.passed ? 'pass' : 'fail'} ${on ? 'active' : ''}`}
                          data-cell={`${e.name}/${id}`}
                          onClick={() => setPicked({ eval: e.name, runner: id })}
                        >
                          <strong>
                            {c.result.passed ? '✓' : '✗'} {pct(c.result.passRate)}
                          </strong>
                          <span className="small muted"> (≥ {pct(c.result.threshold)})</span>
                          {c.result.baselinePassRate !== null && (
                            <span className="evals-delta" data-testid="delta">
                              baseline {pct(c.result.baselinePassRate)} · effect {deltaText(c.result)}
                            </span>
                          )}
                          <span className="small muted">
                            {c.result.trigger
                              ? `precision ${pct(c.result.trigger.precision)} · recall ${pct(c.result.trigger.recall)}`
                              : `triggered ${pct(c.result.triggeredRate)}`}
                          </span>
                        </button>
                      ) : (
                        <span className="muted small">not run</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {pickedCell && (
        <CellDetail key={`${pickedCell.runId}/${picked!.eval}/${picked!.runner}`} project={project} cell={pickedCell} />
      )}
      <HistoryChart project={project} skill={skill.name} />
    </>
  );
}

function CellDetail({ project, cell }: { project: ProjectRef; cell: Cell }) {
  const r = cell.result;
  const [trial, setTrial] = useState<{ baseline: boolean; index: number } | null>(
    r.trialResults[0] ? { baseline: r.trialResults[0].baseline, index: r.trialResults[0].index } : null,
  );
  return (
    <section className="panel" aria-label="Eval result">
      <div className="panel-head">
        <h3>
          {r.eval} on {r.runner}
        </h3>
        <span className="muted small">
          run {cell.runId} · {r.skill}@{r.version}
        </span>
      </div>
      {r.error && <div className="banner error">{r.error}</div>}
      <ul className="evals-assertions" aria-label="Assertions">
        {r.assertions.map((a, i) => (
          <li key={i} className={a.status}>
            <span className={`label ${a.status === 'pass' ? 'ok' : a.status === 'unknown' ? 'warn' : 'bad'}`}>
              {a.status}
            </span>{' '}
            <code>{a.kind}</code> {a.detail}
          </li>
        ))}
      </ul>
      <div className="evals-trials" role="tablist" aria-label="Trials">
        {r.trialResults.map((t) => (
          <button
            key={`${t.baseline}-${t.index}`}
            type="button"
            role="tab"
            aria-selected={trial?.baseline === t.baseline && trial.index === t.index}
            className={`evals-trial ${t.passed ? 'pass' : 'fail'}`}
            onClick={() => setTrial({ baseline: t.baseline, index: t.index })}
            title={t.task}
          >
            {t.baseline ? 'baseline' : 'skill'} {t.index + 1} ·{' '}
            {t.passed ? 'pass' : t.outcome === 'completed' ? 'fail' : t.outcome}
          </button>
        ))}
      </div>
      {trial && (
        <TrialPanel project={project} runId={cell.runId} result={r} baseline={trial.baseline} index={trial.index} />
      )}
    </section>
  );
}

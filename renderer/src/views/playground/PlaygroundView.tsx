import { useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type { SpecFile, SpecSummary } from '../../../../shared/ipc/channels/spec';
import { IpcError } from '../../../../shared/ipc/errors';
import type { Decision, DecisionEvent } from '../../../../shared/skillspec/decide';
import {
  checkSpecText,
  decideWithEvents,
  matchedPhraseSpans,
  runScenarioTests,
  segmentInput,
  type PhraseSpan,
  type SkillSpec,
  type TestRun,
} from '../../../../shared/skillspec/index';
import type { Expectation } from '../../../../shared/skillspec/model';
import { useApi } from '../../api/context';
import { EmptyState, ErrorState, Spinner } from '../../components/States';
import { navigate } from '../../route';
import { loadDraft, saveDraft, type Draft } from '../editor/drafts';
import { appendScenario, expectationFrom, scenarioName } from './scenario-text';
import './playground.css';

const SPEC_FILE = 'skill.spec.yml';

export const specKeys = {
  all: (root: string) => ['spec', root] as const,
  list: (root: string) => ['spec', root, 'list'] as const,
  load: (root: string, dir: string) => ['spec', root, 'load', dir] as const,
};

/** What the person typed, kept per project and skill for this tab (survives errors, reloads and tab switches). */
function useStoredInput(root: string, dir: string): [string, (v: string) => void] {
  const key = `skillsmith.playground.v1\u0000${root}\u0000${dir}`;
  const [value, setValue] = useState<string>(() => read(key));
  useEffect(() => setValue(read(key)), [key]);
  const set = (v: string) => {
    setValue(v);
    try {
      sessionStorage.setItem(key, v);
    } catch {
      // storage refused: the input stays in memory
    }
  };
  return [value, set];
}

function read(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/** Refetch the spec files when the project changes on disk (an edit saved in the editor, a git checkout). */
function useSpecRefresh(root: string): void {
  const api = useApi();
  const qc = useQueryClient();
  useEffect(
    () =>
      api.on('project.changed', (e) => {
        if (e.root === root) void qc.invalidateQueries({ queryKey: specKeys.all(root) });
      }),
    [api, qc, root],
  );
}

export function PlaygroundView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const api = useApi();
  useSpecRefresh(project.root);
  const list = useQuery({ queryKey: specKeys.list(project.root), queryFn: () => api.spec.list({}), retry: false });
  const specs = list.data?.specs ?? [];
  const dir = arg ?? (specs.length === 1 ? specs[0]!.dir : undefined);

  return (
    <main className="playground" aria-label="SkillSpec playground">
      <div className="play-head">
        <div>
          <h2>SkillSpec playground</h2>
          <p className="muted small">
            Type what a user might say; the decision and its trace follow as you type. Nothing here runs or writes
            anything.
          </p>
        </div>
        <SpecPicker specs={specs} current={dir} loading={list.isPending} />
      </div>
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <div className="panel play-loading">
          <Spinner label="Looking for skill.spec.yml files" /> Looking for skill.spec.yml files…
        </div>
      ) : dir === undefined ? (
        specs.length === 0 ? (
          <EmptyState
            title="No SkillSpec in this project"
            actions={
              <a className="btn" href="#/editor" data-action="open-editor">
                Open the editor
              </a>
            }
          >
            None of the installed skills has a <code>{SPEC_FILE}</code>. Add one to a skill under{' '}
            <code>.kitbash/skills/</code> and it appears here.
          </EmptyState>
        ) : (
          <EmptyState title="Pick a skill" icon="⌁">
            {specs.length} installed skills carry a <code>{SPEC_FILE}</code>; choose one above.
          </EmptyState>
        )
      ) : (
        <SpecPlayground key={dir} project={project} dir={dir} />
      )}
    </main>
  );
}

function SpecPicker({
  specs,
  current,
  loading,
}: {
  specs: SpecSummary[];
  current: string | undefined;
  loading: boolean;
}) {
  return (
    <label className="play-picker">
      <span className="muted small">Skill</span>
      <select
        aria-label="Skill with a SkillSpec"
        value={current ?? ''}
        disabled={loading || specs.length === 0}
        onChange={(e) => navigate({ view: 'playground', arg: e.target.value })}
      >
        {current === undefined && <option value="">{loading ? 'Loading…' : 'Choose…'}</option>}
        {current !== undefined && !specs.some((s) => s.dir === current) && <option value={current}>{current}</option>}
        {specs.map((s) => (
          <option key={s.dir} value={s.dir}>
            {s.dir}
          </option>
        ))}
      </select>
    </label>
  );
}

type Parsed = { ok: true; spec: SkillSpec } | { ok: false; message: string; where: string };

/** The spec as played: the file on disk, or the editor's unsaved draft of it. */
type Shown = SpecFile & { draft?: Draft };

/** The editor's unsaved draft of the spec, re-read when the window regains focus or another tab writes one. */
function useSpecDraft(root: string, dir: string): Draft | null {
  const [draft, setDraft] = useState<Draft | null>(() => loadDraft(root, dir, SPEC_FILE));
  useEffect(() => {
    const again = () => setDraft(loadDraft(root, dir, SPEC_FILE));
    window.addEventListener('focus', again);
    window.addEventListener('storage', again);
    return () => {
      window.removeEventListener('focus', again);
      window.removeEventListener('storage', again);
    };
  }, [root, dir]);
  return draft;
}

function SpecPlayground({ project, dir }: { project: ProjectRef; dir: string }) {
  const api = useApi();
  const file = useQuery({
    queryKey: specKeys.load(project.root, dir),
    queryFn: () => api.spec.load({ dir }),
    retry: false,
  });
  const [input, setInput] = useStoredInput(project.root, dir);
  const deferred = useDeferredValue(input);

  // Parsing a large spec takes a few hundred ms: let the progress line paint first.
  const draft = useSpecDraft(project.root, dir);
  const [playDraft, setPlayDraft] = useState(false);
  const hasDraft = draft !== null && file.data !== undefined && draft.text !== file.data.text;
  const [parsed, setParsed] = useState<{ of: Shown; value: Parsed } | null>(null);
  useEffect(() => {
    const data: Shown | undefined =
      file.data && (playDraft && hasDraft ? { ...file.data, text: draft.text, draft } : file.data);
    if (!data) return;
    const t = setTimeout(() => {
      const c = checkSpecText(data.text, data.path);
      const pos = !c.ok && c.error.position ? `:${c.error.position.line}:${c.error.position.column}` : '';
      setParsed({
        of: data,
        value: c.ok ? { ok: true, spec: c.spec } : { ok: false, message: c.error.message, where: `${data.path}${pos}` },
      });
    }, 16);
    return () => clearTimeout(t);
  }, [file.data, playDraft, hasDraft, draft]);

  if (file.isError) {
    if (file.error instanceof IpcError && file.error.code === 'not-found') {
      return (
        <EmptyState title={`No ${SPEC_FILE} in ${dir}`}>
          {file.error.message} <span className="muted small">(spec.load)</span>
        </EmptyState>
      );
    }
    return <ErrorState error={file.error} onRetry={() => void file.refetch()} />;
  }
  if (file.isPending || !parsed) {
    return (
      <div className="panel play-loading">
        <Spinner label="Loading the spec" /> Loading and validating{' '}
        <code>
          {dir}/{SPEC_FILE}
        </code>
        …
      </div>
    );
  }
  // While a newer version of the file is parsed, the previous parse stays on screen.
  const current = parsed.value;
  const shownFile = parsed.of;
  return (
    <>
      {hasDraft && (
        <label className="play-draft small">
          <input type="checkbox" checked={playDraft} onChange={(e) => setPlayDraft(e.target.checked)} /> Play the
          unsaved draft from the editor ({new Date(draft.at).toLocaleTimeString()}) instead of the file on disk
        </label>
      )}
      <ValidationBanner
        file={shownFile}
        parsed={current}
        refetching={file.isFetching || (parsed.of !== file.data && !parsed.of.draft)}
      />
      {current.ok ? (
        <Play
          project={project}
          dir={dir}
          file={shownFile}
          spec={current.spec}
          input={input}
          deferred={deferred}
          setInput={setInput}
        />
      ) : (
        <section className="panel play-input" aria-label="Input">
          <div className="panel-head">
            <h2>Input</h2>
            <button type="button" className="btn" onClick={() => navigate({ view: 'editor', arg: dir })}>
              Fix {SPEC_FILE} in the editor
            </button>
          </div>
          <textarea
            className="play-textarea"
            aria-label="What the user says"
            value={input}
            spellCheck={false}
            onChange={(e) => setInput(e.target.value)}
          />
          <p className="muted small">Your input is kept; the decision comes back as soon as the spec loads again.</p>
        </section>
      )}
    </>
  );
}

function ValidationBanner({ file, parsed, refetching }: { file: Shown; parsed: Parsed; refetching: boolean }) {
  const v = file.validation;
  if (!parsed.ok) {
    return (
      <div className="banner error" role="alert" data-testid="spec-error">
        <strong>The spec does not load</strong> — {parsed.where}: {parsed.message}{' '}
        <span className="muted small">(SkillSpec reader)</span>
      </div>
    );
  }
  if (file.draft) {
    return (
      <div className="play-file muted small" data-testid="playing-draft">
        Playing the <strong>unsaved editor draft</strong> of <code>{file.path}</code> — parsed and validated here;
        imports and sidecars are checked when it is saved.
      </div>
    );
  }
  if (!v.ok) {
    const where = v.line !== undefined ? `${file.path}:${v.line}:${v.column ?? 1}` : file.path;
    return (
      <div className="banner warn-banner" role="alert" data-testid="spec-error">
        <strong>The spec has a problem</strong> — {where}: {v.message}{' '}
        <span className="muted small">({v.kind}, full validation in main)</span>. The rules still play below.
      </div>
    );
  }
  return (
    <div className="play-file muted small">
      <code>{file.path}</code> · {v.routes} routes · {v.rules} rules · {v.tests} scenario tests ·{' '}
      <span className="badge pass">valid</span>
      {refetching && <Spinner label="Reloading the spec" />}
    </div>
  );
}

function Play(props: {
  project: ProjectRef;
  dir: string;
  file: Shown;
  spec: SkillSpec;
  input: string;
  deferred: string;
  setInput: (v: string) => void;
}) {
  const { spec, deferred, input, setInput } = props;
  const result = useMemo(() => {
    try {
      const r = decideWithEvents(spec, deferred);
      const spans = matchedPhraseSpans(
        spec,
        deferred,
        r.decision.matched_rules.map((m) => m.id),
      );
      return { ok: true as const, ...r, spans };
    } catch (e) {
      return { ok: false as const, message: e instanceof Error ? e.message : String(e) };
    }
  }, [spec, deferred]);

  return (
    <>
      <div className="play-grid">
        <section className="panel play-input" aria-label="Input">
          <div className="panel-head">
            <h2>Input</h2>
            <span className="muted small">{input.length} characters</span>
          </div>
          <textarea
            className="play-textarea"
            aria-label="What the user says"
            placeholder="e.g. the build is broken, ship a fix today"
            value={input}
            spellCheck={false}
            onChange={(e) => setInput(e.target.value)}
          />
          <h3>Matched phrases</h3>
          {result.ok ? <Highlighted input={deferred} spans={result.spans} /> : null}
          <SaveAsTest {...props} decision={result.ok ? result.decision : null} />
        </section>
        {result.ok ? (
          <DecisionPanel spec={spec} decision={result.decision} spans={result.spans} />
        ) : (
          <section className="panel">
            <div className="inline-error" role="alert">
              The engine failed on this input: {result.message} <span className="muted small">(decide)</span>
            </div>
          </section>
        )}
      </div>
      <div className="grid-2 play-lower">
        {result.ok ? <Trace events={result.events} /> : <section className="panel" />}
        <ScenarioTests spec={spec} onPlay={setInput} />
      </div>
    </>
  );
}

function Highlighted({ input, spans }: { input: string; spans: PhraseSpan[] }) {
  if (input.trim() === '') return <p className="muted small">Type an input to see which phrases the rules match.</p>;
  const segs = segmentInput(input, spans);
  return (
    <p className="play-echo" data-testid="highlighted-input">
      {segs.map((s, i) =>
        s.spans.length ? (
          <mark
            key={i}
            className={s.spans.some((x) => x.source !== 'heuristic') ? 'phrase' : 'phrase heuristic'}
            data-rule={[...new Set(s.spans.map((x) => x.rule_id))].join(' ')}
            title={s.spans
              .map(
                (x) => `${x.rule_id}: ${x.source === 'heuristic' ? `${x.heuristic} keyword` : x.source} "${x.phrase}"`,
              )
              .join('\n')}
          >
            {s.text}
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
      {spans.length === 0 && <span className="muted small play-nomatch"> — no rule matched a phrase</span>}
    </p>
  );
}

const BASIS: Record<string, string> = {
  rule_prefer: 'a rule prefers it',
  route_order_default: 'first of a rule’s route order',
  default_route_order: 'first by rank (no rule chose)',
};

function Field({ k, children, testid }: { k: string; children: ReactNode; testid?: string }) {
  return (
    <div className="play-field" data-field={testid ?? k}>
      <div className="play-k">{k}</div>
      <div className="play-v">{children}</div>
    </div>
  );
}

function Chips({ items, empty = 'none', cls = '' }: { items: readonly string[]; empty?: string; cls?: string }) {
  if (items.length === 0) return <span className="muted">{empty}</span>;
  return (
    <span className="chips">
      {items.map((x) => (
        <span key={x} className={`chip ${cls}`}>
          {x}
        </span>
      ))}
    </span>
  );
}

function DecisionPanel({ spec, decision: d, spans }: { spec: SkillSpec; decision: Decision; spans: PhraseSpan[] }) {
  const route = d.route !== null ? spec.routes.find((r) => r.id === d.route) : undefined;
  return (
    <section className="panel play-decision" aria-label="Decision">
      <div className="panel-head">
        <h2>Decision</h2>
        <span className="muted small">live</span>
      </div>
      <div className="play-route" data-testid="route">
        <span className="play-route-id">{d.route ?? 'no route'}</span>
        {route && <span className="muted">{route.label}</span>}
      </div>
      {d.route_selection && (
        <p className="small muted" data-testid="route-basis">
          <span className="tag">{d.route_selection.basis}</span> {BASIS[d.route_selection.basis]}
          {d.route_selection.rule_id && (
            <>
              {' '}
              — rule <code>{d.route_selection.rule_id}</code>
            </>
          )}
        </p>
      )}
      <Field k="route order">
        <span className="chips">
          {d.route_order.map((r, i) => (
            <span key={r} className={`chip ${r === d.route ? 'chosen' : ''}`}>
              {i + 1}. {r}
            </span>
          ))}
        </span>
      </Field>
      {d.plan_phases.length > 0 && (
        <Field k="plan phases">
          <Chips items={d.plan_phases} />
        </Field>
      )}
      <Field k="forbid">
        <Chips items={d.forbid} cls="bad" />
      </Field>
      <Field k="allow">
        {Object.keys(d.allow).length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <span className="chips">
            {Object.entries(d.allow).map(([k, v]) => (
              <span key={k} className="chip ok">
                {k} = {JSON.stringify(v)}
              </span>
            ))}
          </span>
        )}
      </Field>
      <Field k="elicit">
        {d.elicit.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <div className="play-elicits">
            {d.elicit.map((id) => {
              const e = spec.elicitations[id];
              return (
                <div key={id} className="play-elicit" data-elicit={id}>
                  <div>
                    <code>{id}</code> <strong>{e?.question}</strong>
                    {e?.max_choices != null && <span className="muted small"> (up to {e.max_choices})</span>}
                  </div>
                  <ul>
                    {e?.choices.map((c) => (
                      <li key={c.id}>
                        {c.label}{' '}
                        <span className="muted small">
                          ({c.id}
                          {e.default === c.id ? ', default' : ''}
                          {c.route ? ` → route ${c.route}` : ''})
                        </span>
                        {c.description && <div className="muted small">{c.description}</div>}
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        )}
      </Field>
      <Field k="after success">
        <Chips items={d.after_success} />
      </Field>
      <Field k="matched rules" testid="matched-rules">
        {d.matched_rules.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <ul className="play-rules">
            {d.matched_rules.map((m) => {
              const phrases = [...new Set(spans.filter((s) => s.rule_id === m.id).map((s) => s.phrase))];
              return (
                <li key={m.id} data-rule={m.id}>
                  <code>{m.id}</code>
                  {phrases.length > 0 && (
                    <span className="small">
                      {' '}
                      on{' '}
                      {phrases.map((p) => (
                        <mark key={p} className="phrase">
                          {p}
                        </mark>
                      ))}
                    </span>
                  )}
                  {m.reason && <div className="muted small">{m.reason}</div>}
                </li>
              );
            })}
          </ul>
        )}
      </Field>
      <Field k="reason">{d.reason ?? <span className="muted">none</span>}</Field>
    </section>
  );
}

function eventDetail(e: DecisionEvent): string {
  switch (e.event) {
    case 'input_received':
      return JSON.stringify(e.input);
    case 'spec_loaded':
      return `${e.skill_id} (${e.schema})`;
    case 'rule_evaluated':
      return `${e.rule_id}: ${e.matched ? 'matched' : 'no match'}`;
    case 'rule_matched':
      return `${e.rule_id}${e.reason ? ` — ${e.reason}` : ''}`;
    case 'route_selected':
      return `${e.route} (${e.basis}${e.rule_id ? `, ${e.rule_id}` : ''})`;
    case 'route_order_set':
      return e.route_order.join(' → ');
    case 'forbid_added':
      return e.forbid.join(', ');
    case 'allow_added':
      return Object.entries(e.allow)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ');
    case 'elicitation_requested':
      return e.elicit.join(', ');
    case 'after_success_scheduled':
      return e.after_success.join(', ');
    case 'outcome_recorded':
      return `${e.route ?? 'no route'}; matched ${e.matched_rules.length ? e.matched_rules.join(', ') : 'nothing'}`;
  }
}

function Trace({ events }: { events: DecisionEvent[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? events : events.filter((e) => !(e.event === 'rule_evaluated' && !e.matched));
  const hidden = events.length - shown.length;
  return (
    <section className="panel" aria-label="Trace">
      <div className="panel-head">
        <h2>Trace</h2>
        <label className="small muted">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> show rules that did not
          match{hidden > 0 ? ` (${hidden})` : ''}
        </label>
      </div>
      <ol className="play-trace" data-testid="trace">
        {shown.map((e, i) => (
          <li
            key={i}
            className={`ev ev-${e.event} ${e.event === 'rule_evaluated' && !e.matched ? 'dim' : ''}`}
            data-event={e.event}
          >
            <span className="ev-dot" aria-hidden="true" />
            <span className="ev-name mono">{e.event}</span>
            <span className="ev-detail">{eventDetail(e)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The assertions a test states, as label → expected value (only what it asserts). */
function stated(x: Expectation): Array<[string, string, keyof Decision | 'matched']> {
  const out: Array<[string, string, keyof Decision | 'matched']> = [];
  const list = (v: readonly string[]) => `[${v.join(', ')}]`;
  if (x.route !== null) out.push(['route', x.route, 'route']);
  if (x.route_order.length) out.push(['route_order', list(x.route_order), 'route_order']);
  if (x.plan_phases.length) out.push(['plan_phases', list(x.plan_phases), 'plan_phases']);
  const fam = (
    name: string,
    key: keyof Decision | 'matched',
    incl: readonly string[],
    exact: readonly string[] | null,
    not: readonly string[],
  ) => {
    if (incl.length) out.push([name, `includes ${list(incl)}`, key]);
    if (exact !== null) out.push([`${name}_exact`, list(exact), key]);
    if (not.length) out.push([`not_${name}`, list(not), key]);
  };
  fam('forbid', 'forbid', x.forbid, x.forbid_exact, x.not_forbid);
  fam('elicit', 'elicit', x.elicit, x.elicit_exact, x.not_elicit);
  fam('after_success', 'after_success', x.after_success, x.after_success_exact, x.not_after_success);
  fam('matched_rules', 'matched', x.matched_rules, x.matched_rules_exact, x.not_matched_rules);
  return out;
}

function actual(d: Decision, key: keyof Decision | 'matched'): string {
  if (key === 'matched') return `[${d.matched_rules.map((m) => m.id).join(', ')}]`;
  const v = d[key];
  if (v === null) return 'none';
  return Array.isArray(v) ? `[${v.join(', ')}]` : typeof v === 'string' ? v : JSON.stringify(v);
}

function ScenarioTests({ spec, onPlay }: { spec: SkillSpec; onPlay: (input: string) => void }) {
  const [run, setRun] = useState<{ result: TestRun; spec: SkillSpec; ms: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const stale = run !== null && run.spec !== spec;
  const start = () => {
    setBusy(true);
    setError(null);
    // Yield a frame so the progress shows on a large spec.
    setTimeout(() => {
      const t0 = performance.now();
      try {
        setRun({ result: runScenarioTests(spec), spec, ms: performance.now() - t0 });
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      } finally {
        setBusy(false);
      }
    }, 16);
  };
  const r = run?.result;
  return (
    <section className="panel" aria-label="Scenario tests">
      <div className="panel-head">
        <h2>Scenario tests</h2>
        <span className="play-tests-actions">
          {r && (
            <span className={`badge ${r.failed.length ? 'fail' : 'pass'}`} data-testid="tests-summary">
              {r.passed.length}/{r.total} passed
            </span>
          )}
          <button type="button" className="btn primary" onClick={start} disabled={busy}>
            {busy ? <Spinner label="Running the scenario tests" /> : null}
            {busy ? 'Running…' : r ? 'Run again' : `Run all ${spec.tests.length} tests`}
          </button>
        </span>
      </div>
      {error && (
        <div className="inline-error" role="alert">
          The scenario runner failed: {error} <span className="muted small">(runScenarioTests)</span>
        </div>
      )}
      {stale && <p className="small muted">The spec changed on disk since this run — run again.</p>}
      {!r ? (
        <p className="muted small">
          {spec.tests.length === 0
            ? 'This spec has no scenario tests yet — save an input as one.'
            : `Runs each test's input through the engine and compares the decision with its expect block (${spec.tests.length} tests).`}
        </p>
      ) : (
        <>
          <p className="muted small">Ran in {run!.ms < 1 ? '<1' : Math.round(run!.ms)} ms.</p>
          <ul className="play-tests" data-testid="tests">
            {r.results.map((t, i) => {
              const ok = t.failures.length === 0;
              const test = run!.spec.tests[i]!;
              return (
                <li key={`${i}-${t.name}`} className={`play-test ${ok ? 'pass' : 'fail'}`} data-test={t.name}>
                  <div className="play-test-head">
                    <span className={`badge ${ok ? 'pass' : 'fail'}`}>{ok ? 'pass' : 'fail'}</span>
                    <span className="play-test-name">{t.name}</span>
                    <button type="button" className="link small" onClick={() => onPlay(t.input)}>
                      play
                    </button>
                  </div>
                  {!ok && (
                    <div className="play-test-fail">
                      <div className="small muted">input: {JSON.stringify(t.input)}</div>
                      <ul className="small">
                        {t.failures.map((f) => (
                          <li key={f}>{f}</li>
                        ))}
                      </ul>
                      <table className="play-vs small">
                        <thead>
                          <tr>
                            <th>assertion</th>
                            <th>expected</th>
                            <th>actual</th>
                          </tr>
                        </thead>
                        <tbody>
                          {stated(test.expect).map(([k, want, key]) => (
                            <tr key={k}>
                              <td className="mono">{k}</td>
                              <td className="mono">{want}</td>
                              <td className="mono">{actual(t.decision, key)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

function SaveAsTest({
  project,
  dir,
  file,
  spec,
  input,
  decision,
}: {
  project: ProjectRef;
  dir: string;
  file: Shown;
  spec: SkillSpec;
  input: string;
  decision: Decision | null;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const suggested = scenarioName(
    input,
    spec.tests.map((t) => t.name),
  );
  const [busy, setBusy] = useState(false);
  const save = () => {
    setError(null);
    if (!decision || decision.input !== input)
      return setError('the decision is still catching up with the input — try again');
    const chosen = name.trim() || suggested;
    setBusy(true);
    // Re-parsing and re-testing a large spec takes a moment: show it.
    setTimeout(() => {
      try {
        const r = appendScenario(file.text, { name: chosen, input, expect: expectationFrom(decision) });
        if (!r.ok) return setError(r.message);
        if (!saveDraft(project.root, dir, SPEC_FILE, r.text, file.draft ? file.draft.base : file.text))
          return setError('the browser refused to keep the draft (storage full or disabled) — nothing was changed');
        navigate({ view: 'editor', arg: dir });
      } catch (e) {
        setError(`${e instanceof Error ? e.message : String(e)} (appendScenario)`);
      } finally {
        setBusy(false);
      }
    }, 16);
  };
  return (
    <div className="play-save">
      <h3>Save as scenario test</h3>
      <div className="play-save-row">
        <input
          className="play-name"
          aria-label="Test name"
          placeholder={suggested}
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={input.trim() === ''}
        />
        <button type="button" className="btn" onClick={save} disabled={input.trim() === '' || busy}>
          {busy && <Spinner label="Building the new test" />}
          Open in editor as a new test
        </button>
      </div>
      <p className="muted small">
        Adds this input with the decision above as its expect block to {SPEC_FILE}, as an unsaved change in the editor,
        where it is validated before you save it.
      </p>
      {error && (
        <div className="inline-error" role="alert">
          Not added: {error}
        </div>
      )}
    </div>
  );
}

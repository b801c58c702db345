import { useState } from 'react';
import { runScenarioTests, type SkillSpec, type TestRun } from '../../../../shared/skillspec/index';
import { Spinner } from '../../components/States';
import { Term } from '../../glossary';
import { actual, stated } from './decision-text';

/** Runs the spec's scenario tests on demand; a failing test shows what it expected against what came out. */
export function ScenarioTests({ spec, onPlay }: { spec: SkillSpec; onPlay: (input: string) => void }) {
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
        <h2>
          <Term term="scenario">Scenario tests</Term>
        </h2>
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
                      <div className="play-vs-scroll">
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

import { useMemo } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import {
  decideWithEvents,
  matchedPhraseSpans,
  segmentInput,
  type PhraseSpan,
  type SkillSpec,
} from '../../../../shared/skillspec/index';
import { DecisionPanel } from './DecisionPanel';
import { SaveAsTest } from './SaveAsTest';
import { ScenarioTests } from './ScenarioTests';
import { Trace } from './Trace';
import type { Shown } from './use-spec';

/** A valid spec at play: the input, the live decision with its trace, and the scenario tests. */
export function Play(props: {
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

/** The input again, with each phrase a rule matched marked (heuristic keyword matches paler). */
function Highlighted({ input, spans }: { input: string; spans: PhraseSpan[] }) {
  if (input.trim() === '') return <p className="muted small">Type an input to see which phrases the rules match.</p>;
  const segs = segmentInput(input, spans);
  return (
    <p className="play-echo" data-testid="highlighted-input">
      {segs.map((s, i) =>
        s.spans.length ? (
          <mark
            key={i}
            className={s.spans.some((x) => x.source !== 'heuristic') ? 'play-phrase' : 'play-phrase heuristic'}
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

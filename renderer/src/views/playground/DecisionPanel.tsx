import type { ReactNode } from 'react';
import type { Decision } from '../../../../shared/skillspec/decide';
import type { PhraseSpan, SkillSpec } from '../../../../shared/skillspec/index';
import { Term } from '../../glossary';

const BASIS: Record<string, string> = {
  rule_prefer: 'a rule prefers it',
  route_order_default: 'first of a rule’s route order',
  default_route_order: 'first by rank (no rule chose)',
};

/** One field of the decision: `k` names it (and keys it for tests), `label` shows it where it is a glossary word. */
function Field({ k, label, children, testid }: { k: string; label?: ReactNode; children: ReactNode; testid?: string }) {
  return (
    <div className="play-field" data-field={testid ?? k}>
      <div className="play-k">{label ?? k}</div>
      <div className="play-v">{children}</div>
    </div>
  );
}

function Chips({ items, empty = 'none', cls = '' }: { items: readonly string[]; empty?: string; cls?: string }) {
  if (items.length === 0) return <span className="muted">{empty}</span>;
  return (
    <span className="play-chips">
      {items.map((x) => (
        <span key={x} className={`play-chip ${cls}`}>
          {x}
        </span>
      ))}
    </span>
  );
}

/** The live decision for the input: route and why, order, forbid/allow, questions, follow-ups, matched rules. */
export function DecisionPanel({
  spec,
  decision: d,
  spans,
}: {
  spec: SkillSpec;
  decision: Decision;
  spans: PhraseSpan[];
}) {
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
        <span className="play-chips">
          {d.route_order.map((r, i) => (
            <span key={r} className={`play-chip ${r === d.route ? 'chosen' : ''}`}>
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
          <span className="play-chips">
            {Object.entries(d.allow).map(([k, v]) => (
              <span key={k} className="play-chip ok">
                {k} = {JSON.stringify(v)}
              </span>
            ))}
          </span>
        )}
      </Field>
      <Field k="elicit" label={<Term term="elicit" />}>
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
                        <mark key={p} className="play-phrase">
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

import { useState } from 'react';
import type { DecisionEvent } from '../../../../shared/skillspec/decide';
import { eventDetail } from './decision-text';

/** The decision's trace events in order; rules that did not match are hidden unless asked for. */
export function Trace({ events }: { events: DecisionEvent[] }) {
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
            className={`play-ev ${e.event} ${e.event === 'rule_evaluated' && !e.matched ? 'dim' : ''}`}
            data-event={e.event}
          >
            <span className="play-ev-dot" aria-hidden="true" />
            <span className="play-ev-name mono">{e.event}</span>
            <span className="play-ev-detail">{eventDetail(e)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

import { memo } from 'react';
import { Word } from '../../glossary';
import type { Meter } from './analyze';
import { formatCount } from '../../../../shared/text/format';

function Bar({ label, used, limit, title }: { label: string; used: number; limit: number; title: string }) {
  const pct = limit > 0 ? used / limit : 1;
  const tone = pct > 1 ? 'fail' : pct > 0.85 ? 'warn' : 'pass';
  return (
    <div className={`ed-meter ${tone}`} title={title} data-meter={label}>
      <span className="ed-meter-label">{label}</span>
      <span className="ed-meter-track" aria-hidden="true">
        <span className="ed-meter-fill" style={{ width: `${Math.min(100, pct * 100)}%` }} />
      </span>
      <span className="ed-meter-value mono">
        {formatCount(used)} / {formatCount(limit)} tok
      </span>
    </div>
  );
}

/** The body against context.budget and the standing stub against context.standing, as the lint measures them. */
export const BudgetMeter = memo(function BudgetMeter({ meter }: { meter: Meter }) {
  return (
    <div className="ed-meters" aria-label="Token budget">
      <Bar
        label="Body"
        used={meter.bodyTokens}
        limit={meter.budget}
        title="Estimated tokens of the compiled body (prompts inlined) against context.budget"
      />
      <Bar
        label="Standing stub"
        used={meter.stubTokens}
        limit={meter.standing}
        title="What a lazy agent keeps in every session, against context.standing (highlighted in the text)"
      />
      <span className={`pill ${meter.disclosure}`}>
        <Word word={meter.disclosure} />
      </span>
    </div>
  );
}, sameMeter);

function sameMeter(a: { meter: Meter }, b: { meter: Meter }): boolean {
  const x = a.meter;
  const y = b.meter;
  return (
    x.bodyTokens === y.bodyTokens &&
    x.budget === y.budget &&
    x.stubTokens === y.stubTokens &&
    x.standing === y.standing &&
    x.disclosure === y.disclosure
  );
}

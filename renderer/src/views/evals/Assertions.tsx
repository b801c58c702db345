import type { EvalResultView } from '../../../../shared/ipc/channels/evals';

/** Each assertion of an eval (or one trial) with its verdict: pass, fail, or unknown when it could not be judged. */
export function Assertions({ items, label }: { items: EvalResultView['assertions']; label: string }) {
  return (
    <ul className="evals-assertions" aria-label={label}>
      {items.map((a, i) => (
        <li key={i} className={a.status}>
          <span className={`status-label ${a.status === 'pass' ? 'ok' : a.status === 'unknown' ? 'warn' : 'bad'}`}>
            {a.status}
          </span>{' '}
          <code>{a.kind}</code> {a.detail}
        </li>
      ))}
    </ul>
  );
}

import { UnifiedDiff } from '../../components/UnifiedDiff';
import type { ExitStatus } from './run-store';
import { outputText } from './run-text';

type Writes = NonNullable<ExitStatus['writes']>;

const CHANGE_BADGE = { added: 'pass', changed: 'warn', deleted: 'fail' } as const;

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What a write-granted run did to the project (D183): the run wrote a staged copy, and only
 * the changes listed as applied reached the project; each refused path is named with why.
 * Paths are the run's own choice, so they are shown with control characters escaped.
 */
export function WritesPanel({ writes }: { writes: Writes }) {
  const { applied, refused, notApplied } = writes;
  return (
    <section className="panel runs-writes" aria-label="Changes to the project" data-testid="writes">
      <div className="panel-head">
        <h2>Changes to the project</h2>
        <span className="muted small">
          {notApplied
            ? 'none applied'
            : `${count(applied.length, 'change', 'changes')} applied · ${count(refused.length, 'path', 'paths')} refused`}
        </span>
      </div>
      {notApplied && <p className="small">{notApplied}</p>}
      {!notApplied && applied.length === 0 && <p className="small muted">The run changed nothing that was applied.</p>}
      {applied.length > 0 && (
        <ul className="runs-writes-list" data-testid="writes-applied">
          {applied.map((w) => (
            <li key={w.path}>
              {w.diff ? (
                <details>
                  <summary>
                    <Change change={w.change} /> <span className="mono">{outputText(w.path)}</span>
                  </summary>
                  <UnifiedDiff diff={outputText(w.diff)} className="runs-diff mono" label={`Diff of ${w.path}`} />
                </details>
              ) : (
                <>
                  <Change change={w.change} />{' '}
                  <span className="mono">
                    {outputText(w.path)}
                    {w.kind === 'dir' ? '/' : ''}
                  </span>
                  {w.kind === 'symlink' && <span className="muted small"> (symlink)</span>}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {refused.length > 0 && (
        <>
          <h3 className="runs-writes-refused-head">Refused, not applied</h3>
          <ul className="runs-writes-list" data-testid="writes-refused">
            {refused.map((w) => (
              <li key={w.path}>
                <span className="badge fail">refused</span> <span className="mono">{outputText(w.path)}</span>{' '}
                <span className="muted small">
                  ({w.change}) {w.reason}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Change({ change }: { change: 'added' | 'changed' | 'deleted' }) {
  return <span className={`badge ${CHANGE_BADGE[change]}`}>{change}</span>;
}

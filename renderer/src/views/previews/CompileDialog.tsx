import type { ProjectRef } from '../../../../shared/ipc';
import type { DiskPlan, PlanFileRow } from '../../../../shared/ipc/channels/compile';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/States';
import { useApplyCompile, useDiskPlan } from './queries';
import './compile.css';
import { formatCount, plural } from '../../../../shared/text/format';

/**
 * Compile, in two steps: the plan main makes from the project as saved (files to write,
 * merge, prune), then — only when the author applies it — the write, through main.
 */
export function CompileDialog({
  project,
  dirty,
  onClose,
}: {
  project: ProjectRef;
  dirty: boolean;
  onClose: () => void;
}) {
  const plan = useDiskPlan(project.root, true);
  const apply = useApplyCompile(project.root);

  const result = apply.data;
  const shown: DiskPlan | undefined = result?.status === 'stale' ? result.plan : plan.data;
  const pending = shown ? [...shown.write, ...shown.merge].filter((f) => f.changed).length + shown.prune.length : 0;

  return (
    <Dialog onClose={onClose} className="pv-compile-dialog" labelledBy="compile-title">
      <div className="modal-head">
        <h2 id="compile-title">Compile {project.name}</h2>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {dirty && (
        <div className="banner warn" role="status" data-testid="unsaved-note">
          Compile writes the skills <b>as saved</b>. This skill has unsaved edits, which are not included — save first
          to compile them.
        </div>
      )}
      {plan.isPending ? (
        <p className="muted">
          <Spinner label="Planning" /> Planning…
        </p>
      ) : plan.isError ? (
        <p className="inline-error" role="alert">
          {plan.error instanceof Error ? plan.error.message : String(plan.error)}
        </p>
      ) : result?.status === 'applied' ? (
        <div className="pv-compile-done" data-testid="compile-result">
          <p className="ok-line">✓ {result.summary}</p>
          <WithheldList withheld={result.withheld} />
          <PathList title="Written" paths={result.written} />
          <PathList title="Sections pruned" paths={result.rewritten} />
          <PathList title="Removed" paths={result.removed} />
          {result.skipped.length > 0 && (
            <PathList title="Kept" paths={result.skipped.map((s) => `${s.path} — ${s.why}`)} />
          )}
          {result.written.length + result.rewritten.length + result.removed.length === 0 && (
            <p className="muted">Nothing changed: the output was already up to date.</p>
          )}
        </div>
      ) : shown ? (
        <PlanView plan={shown} />
      ) : null}
      {result?.status === 'stale' && (
        <div className="banner warn" role="status">
          The project changed since the plan was shown — nothing was written. This is the new plan.
        </div>
      )}
      {result?.status === 'refused' && (
        <div className="banner error" role="alert">
          Compile refused: {result.errors.join('; ')}
        </div>
      )}
      {apply.isError && (
        <p className="inline-error" role="alert">
          {apply.error instanceof Error ? apply.error.message : String(apply.error)}
        </p>
      )}
      <div className="modal-actions">
        <button type="button" className="btn ghost" onClick={onClose}>
          {result?.status === 'applied' ? 'Close' : 'Cancel'}
        </button>
        {result?.status !== 'applied' && (
          <button
            type="button"
            className="btn primary"
            disabled={!shown || shown.errors.length > 0 || apply.isPending}
            onClick={() => shown && apply.mutate(shown.digest)}
            data-testid="apply-compile"
          >
            {apply.isPending
              ? 'Writing…'
              : pending === 0
                ? 'Compile (nothing to change)'
                : `Write ${pending} change${pending === 1 ? '' : 's'}`}
          </button>
        )}
      </div>
    </Dialog>
  );
}

function PathList({ title, paths }: { title: string; paths: readonly string[] }) {
  if (!paths.length) return null;
  return (
    <div className="pv-plan-group">
      <h3>
        {title} <span className="pv-plan-count">{paths.length}</span>
      </h3>
      <ul className="pv-plan-list mono">
        {paths.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}

function Row({ f, verb }: { f: PlanFileRow; verb: string }) {
  return (
    <li className={`pv-plan-row ${f.created ? 'new' : 'changed'}`} data-path={f.path}>
      <span className="pv-plan-verb">{f.created ? 'create' : verb}</span>
      <span className="pv-plan-path mono">{f.path}</span>
      {f.skill && <span className="muted small">{f.skill}</span>}
      <span className="muted small pv-plan-bytes">{formatCount(f.bytes)} B</span>
    </li>
  );
}

/** The skills compile does not deliver, each with why and the way forward. */
export function WithheldList({ withheld }: { withheld: DiskPlan['withheld'] }) {
  if (!withheld.length) return null;
  return (
    <div className="banner error" role="alert" data-testid="compile-withheld">
      <strong>
        Not delivered — compile hands an agent only the bytes that were reviewed, free of blocking findings; what
        Skillsmith delivered of {withheld.length === 1 ? 'this skill' : 'these skills'} earlier is pruned:
      </strong>
      <ul>
        {withheld.map((w) => (
          <li key={w.name} data-skill={w.name} data-reason={w.reason}>
            <b>{w.name}</b>: {w.message}. <span className="muted">To deliver it: {w.forward}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PlanView({ plan }: { plan: DiskPlan }) {
  const write = plan.write.filter((f) => f.changed);
  const merge = plan.merge.filter((f) => f.changed);
  const same = plan.write.length + plan.merge.length - write.length - merge.length;
  return (
    <div className="pv-plan" data-testid="compile-plan">
      {plan.errors.length > 0 ? (
        <div className="banner error" role="alert">
          <strong>Compile refuses — nothing would be written:</strong>
          <ul>
            {plan.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted small">
          {plan.compiled} skill{plan.compiled === 1 ? '' : 's'} for {plan.targets.join(', ') || 'no target'} · {same}{' '}
          file{same === 1 ? '' : 's'} already up to date
        </p>
      )}
      {plan.failures.length > 0 && (
        <div className="banner warn">
          {plan.failures.map((f) => (
            <div key={f.name}>
              <b>{f.name}</b> does not load (its output is kept): {f.message}
            </div>
          ))}
        </div>
      )}
      <WithheldList withheld={plan.withheld} />
      <div className="pv-plan-group" data-group="write">
        <h3>
          Write <span className="pv-plan-count">{write.length}</span>
        </h3>
        {write.length ? (
          <ul className="pv-plan-rows">
            {write.map((f) => (
              <Row key={f.path} f={f} verb="update" />
            ))}
          </ul>
        ) : (
          <p className="muted small">Nothing to write.</p>
        )}
      </div>
      <div className="pv-plan-group" data-group="merge">
        <h3>
          Merge <span className="pv-plan-count">{merge.length}</span>
        </h3>
        {merge.length ? (
          <ul className="pv-plan-rows">
            {merge.map((f) => (
              <Row key={f.path} f={f} verb={f.merge === 'settings' ? 'merge keys' : 'merge sections'} />
            ))}
          </ul>
        ) : (
          <p className="muted small">No shared file changes.</p>
        )}
      </div>
      <div className="pv-plan-group" data-group="prune">
        <h3>
          Prune <span className="pv-plan-count">{plan.prune.length}</span>
        </h3>
        {plan.prune.length ? (
          <ul className="pv-plan-rows">
            {plan.prune.map((p) => (
              <li key={p.path} className="pv-plan-row prune" data-path={p.path}>
                <span className="pv-plan-verb">{p.action === 'delete' ? 'delete' : 'prune sections'}</span>
                <span className="pv-plan-path mono">{p.path}</span>
                <span className="muted small">{p.reason}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted small">Nothing stale.</p>
        )}
      </div>
      {plan.warnings.length > 0 && (
        <details className="pv-plan-notes">
          <summary>{plural(plan.warnings.length, 'warning')}</summary>
          <ul>
            {plan.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      {plan.notes.length > 0 && (
        <details className="pv-plan-notes">
          <summary>{plural(plan.notes.length, 'note')}</summary>
          <ul>
            {plan.notes.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

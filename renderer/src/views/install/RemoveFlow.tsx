import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { useApi } from '../../api/context';
import { navigate } from '../../route';
import { Outcome } from './Outcome';
import { ErrorLine } from './ErrorLine';
import { ProgressLine } from './ProgressLine';
import { useProgress } from './use-progress';
import { queryKeys } from '../../query-keys';

/** `#/install/remove:<dir>`: what goes (and which orphaned dependencies may go with it), then compile's follow-up. */
export function RemoveFlow({ project, dir }: { project: ProjectRef; dir: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const plan = useQuery({
    queryKey: queryKeys.install.planRemove(project.root, dir),
    queryFn: () => api.install.planRemove({ name: dir }),
    retry: false,
    staleTime: 0,
  });
  const [withOrphans, setWithOrphans] = useState(true);
  const remove = useMutation({
    mutationFn: () =>
      api.install.remove({
        name: dir,
        orphans: withOrphans ? (plan.data?.orphans ?? []) : [],
      }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(project.root) });
    },
  });
  const progress = useProgress(null, plan.isPending || remove.isPending);
  const p = plan.data;
  return (
    <div className="inst-dialog" role="dialog" aria-label={`Remove ${dir}`}>
      <div className="panel-head">
        <span className="muted small">Nothing is removed until you approve.</span>
        <button type="button" className="btn ghost" onClick={() => navigate({ view: 'install' })}>
          Back
        </button>
      </div>
      <ProgressLine
        progress={progress}
        fallback={remove.isPending ? `removing ${dir} and compiling…` : 'planning the remove…'}
      />
      {plan.isError && <ErrorLine error={plan.error} origin="install.planRemove" />}
      {remove.isSuccess && (
        <Outcome kind="done" verdict="removed" role="status">
          <h2>Removed {remove.data.removed.join(', ')}</h2>
          <p className="inst-explain">{remove.data.notes.join(' ')}</p>
        </Outcome>
      )}
      {p && !remove.isSuccess && (
        <>
          {p.dependents.length > 0 ? (
            <Outcome kind="blocked" verdict="blocked" role="alert">
              <h2>{dir} cannot be removed yet</h2>
              <p className="inst-explain">
                <strong>{p.dependents.join(', ')}</strong> depend
                {p.dependents.length === 1 ? 's' : ''} on it. Remove{' '}
                {p.dependents.length === 1 ? 'that skill' : 'those skills'} first.
              </p>
            </Outcome>
          ) : (
            <Outcome kind="ready" verdict="ready">
              <h2>
                Remove {p.name}
                {p.version ? `@${p.version}` : ''}?
              </h2>
              <p className="inst-explain">
                Its folder is deleted and its pin dropped from kitbash.lock; compile then removes what it generated for
                it.
              </p>
              {p.orphans.length > 0 && (
                <label className="inst-check">
                  <input type="checkbox" checked={withOrphans} onChange={(e) => setWithOrphans(e.target.checked)} />{' '}
                  also remove {p.orphans.join(', ')} — installed only for {p.name}, nothing else needs{' '}
                  {p.orphans.length === 1 ? 'it' : 'them'}
                </label>
              )}
              <div className="inst-actions">
                <button type="button" className="btn" onClick={() => navigate({ view: 'install' })}>
                  Keep it
                </button>
                <button
                  type="button"
                  className="btn danger inst-remove"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate()}
                >
                  {remove.isPending ? 'Removing…' : `Remove ${p.name}`}
                </button>
              </div>
            </Outcome>
          )}
          {remove.isError && <ErrorLine error={remove.error} origin="install.remove" />}
          <div className="inst-cols">
            <section className="panel" aria-label="Deleted">
              <h2>Deleted</h2>
              <ul className="inst-plain mono small">
                {[p.deletes[0]!, ...(withOrphans ? p.deletes.slice(1) : [])].map((d) => (
                  <li key={d}>− {d}</li>
                ))}
                <li>~ kitbash.lock</li>
              </ul>
            </section>
            <section className="panel" aria-label="Compile afterwards">
              <h2>Compile afterwards</h2>
              {p.compile.errors.length ? (
                <p className="inst-warn-text small">would refuse: {p.compile.errors[0]}</p>
              ) : p.compile.prunes.length + p.compile.writes.length === 0 ? (
                <p className="muted small">changes no generated file</p>
              ) : (
                <ul className="inst-plain mono small inst-compile">
                  {p.compile.prunes.map((w) => (
                    <li key={w} className="inst-prune">
                      prune {w}
                    </li>
                  ))}
                  {p.compile.writes.map((w) => (
                    <li key={w}>rewrite {w}</li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        </>
      )}
    </div>
  );
}

import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdoptItemView, AdoptPlanView } from '../../../shared/ipc/channels/adopt';
import { useApi } from '../api/context';
import './dash-adopt.css';
import { queryKeys } from '../query-keys';

const STATUS_LABEL: Record<AdoptItemView['status'], string> = {
  adoptable: 'will be adopted',
  blocked: 'blocked',
  conflict: 'copies differ',
  managed: 'already installed',
  invalid: 'not a loadable skill',
};

/**
 * The dashboard's offer for a project with skills written by hand in the agents' folders:
 * a notice, then the review (each skill's findings, what is replaced, how it is pinned),
 * and one approval that names the review's hash. `scannedAt` rescans with the dashboard.
 */
export function AdoptNotice({ root, scannedAt }: { root: string; scannedAt: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const scan = useQuery({
    queryKey: queryKeys.adopt.scan(root, scannedAt),
    queryFn: () => api.adopt.scan({}),
    retry: false,
  });
  const apply = useMutation({
    mutationFn: (plan: AdoptPlanView) => api.adopt.apply({ integrity: plan.integrity }),
    onSuccess: () => {
      setOpen(false);
      void qc.invalidateQueries({ queryKey: queryKeys.project.dashboard(root) });
    },
  });
  const plan = scan.data;
  const done = apply.data;
  if (done) {
    return (
      <div className="banner dash-adopt-notice" role="status" data-testid="adopt-done">
        <strong>Adopted {done.adopted.join(', ')}.</strong> Their folders are in <code>.kitbash/skills/</code>, pinned
        in kitbash.lock
        {done.retired.length > 0 && <> — compile now writes {done.retired.join(', ')}</>}.
        <button type="button" className="btn ghost" onClick={() => apply.reset()}>
          Dismiss
        </button>
      </div>
    );
  }
  if (!plan || plan.items.length === 0) return null;
  const adoptable = plan.items.filter((i) => i.status === 'adoptable');
  return (
    <section className="banner dash-adopt-notice" aria-label="Hand-written skills" data-testid="adopt-notice">
      <div className="dash-adopt-head">
        <span>
          <strong>
            {plan.items.length} skill{plan.items.length === 1 ? '' : 's'} written by hand
          </strong>{' '}
          in the agents' folders {plan.items.length === 1 ? 'is' : 'are'} not managed by Skillsmith
          {adoptable.length < plan.items.length && <> ({adoptable.length} can be adopted)</>}.
        </span>
        {!open && (
          <button type="button" className="btn" onClick={() => setOpen(true)}>
            Review adoption…
          </button>
        )}
      </div>
      {open && (
        <div role="dialog" aria-label="Adoption review" className="dash-adopt-review" data-integrity={plan.integrity}>
          <p className="muted small">
            Adopting copies each skill folder, byte for byte, into <code>.kitbash/skills/</code> after the install
            checks, then lets compile write the agents' copies. Nothing that is not adopted is touched.
          </p>
          <ul className="dash-adopt-items">
            {plan.items.map((i) => (
              <AdoptRow key={i.name} item={i} />
            ))}
          </ul>
          {plan.skillsLock && plan.skillsLock.entries.some((e) => !e.present && e.source) && (
            <p className="muted small">
              skills-lock.json also names{' '}
              {plan.skillsLock.entries
                .filter((e) => !e.present && e.source)
                .map((e) => e.name)
                .join(', ')}
              , not in this project — install them from the Install tab to pin them.
            </p>
          )}
          <div className="dash-adopt-actions">
            <button type="button" className="btn" onClick={() => setOpen(false)} disabled={apply.isPending}>
              Cancel
            </button>
            <button
              type="button"
              className="btn primary"
              disabled={adoptable.length === 0 || apply.isPending}
              onClick={() => apply.mutate(plan)}
              title={`approves exactly ${plan.integrity}`}
            >
              {apply.isPending ? 'Adopting…' : `Adopt ${adoptable.length} skill${adoptable.length === 1 ? '' : 's'}`}
            </button>
          </div>
          {apply.isError && (
            <p className="dash-adopt-error" role="alert">
              {apply.error.message}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function AdoptRow({ item }: { item: AdoptItemView }) {
  const r = item.review;
  return (
    <li className="dash-adopt-item" data-skill={item.name}>
      <div>
        <span className="mono">{item.name}</span>{' '}
        <span className={`dash-adopt-status ${item.status}`}>{STATUS_LABEL[item.status]}</span>
        <span className="muted small mono"> {item.copies.join(', ')}</span>
      </div>
      {r && (
        <div className="small">
          {r.description} · {r.files.length} file{r.files.length === 1 ? '' : 's'} · pinned as{' '}
          <span className="mono">{r.pinAs}</span>
          {!r.manifested && <span className="muted"> · no skill.toml (defaults apply)</span>}
        </div>
      )}
      {r?.safety.map((f) => (
        <div key={`s-${f.id}`} className="dash-adopt-finding bad small">
          ✗ safety: {f.id} — {f.detail}
        </div>
      ))}
      {r?.policy.map((p) => (
        <div key={`p-${p}`} className="dash-adopt-finding bad small">
          ✗ policy: {p}
        </div>
      ))}
      {r?.lint
        .filter((f) => !r.safety.some((s) => s.id === f.id))
        .map((f) => (
          <div key={`l-${f.id}`} className="dash-adopt-finding small muted">
            {f.status === 'fail' ? '✗' : '⚠'} {f.id} — {f.detail}
          </div>
        ))}
      {item.status !== 'adoptable' && item.status !== 'blocked' && item.reason && (
        <div className="small muted">{item.reason}</div>
      )}
      {item.status === 'adoptable' &&
        r?.notices.map((n) => (
          <div key={n} className="small muted">
            {n}
          </div>
        ))}
    </li>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import type {
  ApplyUpdateResult,
  ApproveResult,
  ReviewView,
  UpdateCheck,
} from '../../../../shared/ipc/channels/install';
import { useApi } from '../../api/context';
import { keys, useAppInfo, useDashboard } from '../../queries';
import { navigate } from '../../route';
import { ErrorLine, newProgressId, ProgressLine, useProgress } from './progress';
import { ReviewPanel, Verdict } from './ReviewPanel';
import { SkillChecklist, useSourcePicks } from './SkillChecklist';
import { useDraft } from './draft';
import { sourceOf, type Draft, type SourceKind } from './source';
import './install.css';

function SourceForm({
  draft,
  set,
  busy,
  onReview,
}: {
  draft: Draft;
  set: (d: Partial<Draft>) => void;
  busy: boolean;
  onReview: (source: string) => void;
}) {
  const api = useApi();
  const info = useAppInfo();
  const canPick = info.data?.capabilities.pickFolder === true;
  const [pickError, setPickError] = useState<unknown>(null);
  const source = sourceOf(draft);
  const tabs: { id: SourceKind; label: string }[] = [
    { id: 'folder', label: 'Folder' },
    { id: 'git', label: 'Git URL' },
    { id: 'github', label: 'GitHub' },
  ];
  return (
    <form
      className="panel inst-source"
      aria-label="Install source"
      onSubmit={(e) => {
        e.preventDefault();
        if (source && !busy) onReview(source);
      }}
    >
      <div className="panel-head">
        <h2>Install a skill</h2>
        <span className="muted small">Nothing is written until you approve the review.</span>
      </div>
      <div className="segmented inst-kinds" role="tablist" aria-label="Kind of source">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={draft.kind === t.id}
            className={draft.kind === t.id ? 'active' : ''}
            onClick={() => set({ kind: t.id })}
          >
            {t.label}
          </button>
        ))}
      </div>
      {draft.kind === 'folder' && (
        <div className="inst-fields">
          <SourceField
            label="Folder with SKILL.md"
            aria="Folder path"
            value={draft.folder}
            placeholder="/path/to/skill or ./relative/to/project"
            onChange={(v) => set({ folder: v })}
            grow
          />
          {canPick && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setPickError(null);
                api.app
                  .pickFolder({})
                  .then((r) => r.path && set({ folder: r.path }))
                  .catch(setPickError);
              }}
            >
              Choose folder…
            </button>
          )}
        </div>
      )}
      {draft.kind === 'git' && (
        <div className="inst-fields">
          <SourceField
            label="Repository URL"
            aria="Git URL"
            value={draft.gitUrl}
            placeholder="https://…/repo.git, git@host:org/repo.git, file:///…/repo.git"
            onChange={(v) => set({ gitUrl: v })}
            grow
          />
          <SourceField
            label="Ref"
            aria="Git ref"
            value={draft.gitRef}
            placeholder="tag, branch or commit"
            onChange={(v) => set({ gitRef: v })}
            short
          />
          <SourceField
            label="Path in repository"
            aria="Path in repository"
            value={draft.gitPath}
            placeholder="skills/name"
            onChange={(v) => set({ gitPath: v })}
            short
          />
        </div>
      )}
      {draft.kind === 'github' && (
        <div className="inst-fields">
          <SourceField
            label="GitHub source"
            aria="GitHub source"
            value={draft.github}
            placeholder="gh:owner/repo/path/to/skill@ref"
            onChange={(v) => set({ github: v })}
            grow
          />
        </div>
      )}
      {pickError !== null && (
        <ErrorLine error={pickError} origin="app.pickFolder" onDismiss={() => setPickError(null)} />
      )}
      <div className="inst-source-foot">
        <span className="muted small">
          source: <code data-field="composed-source">{source || '—'}</code>
        </span>
        <button type="submit" className="btn primary" disabled={!source || busy}>
          {busy ? 'Reviewing…' : 'Review'}
        </button>
      </div>
    </form>
  );
}

function InstalledList({ project }: { project: ProjectRef }) {
  const dash = useDashboard(project.root);
  const skills = dash.data?.skills ?? [];
  return (
    <section className="panel inst-installed" aria-label="Installed skills">
      <div className="panel-head">
        <h2>Installed</h2>
        <span className="muted small">{skills.length} skill(s)</span>
      </div>
      {dash.isError && <ErrorLine error={dash.error} origin="project.dashboard" />}
      <ul className="inst-plain">
        {skills.map((s) => (
          <li key={s.dir} className="inst-installed-row" data-skill={s.dir}>
            <span className="inst-installed-name">
              {s.name}
              <span className="mono muted small"> {s.version ?? ''}</span>
            </span>
            <span className="inst-installed-actions">
              <button
                type="button"
                className="btn"
                disabled={s.lock === 'unlocked' || s.source === null}
                title={s.source === null ? 'not pinned in kitbash.lock: nothing to refetch' : `refetch ${s.source}`}
                onClick={() => navigate({ view: 'install', arg: `update:${s.dir}` })}
              >
                Update…
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => navigate({ view: 'install', arg: `remove:${s.dir}` })}
              >
                Remove…
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Enter a source → review → approve (bound to the reviewed hash) or discard. */
function InstallFlow({ project }: { project: ProjectRef }) {
  const api = useApi();
  const qc = useQueryClient();
  const [draft, setDraft] = useDraft();
  const [review, setReview] = useState<ReviewView | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [done, setDone] = useState<Extract<ApproveResult, { outcome: 'installed' }> | null>(null);
  const [pid, setPid] = useState<string | null>(null);
  const live = useRef<string | null>(null);
  live.current = review?.id ?? null;
  // A review still open when the view goes away is discarded in main.
  useEffect(() => () => void (live.current && api.install.cancel({ id: live.current }).catch(() => undefined)), [api]);

  const begin = useMutation({
    mutationFn: (source: string) => {
      const id = newProgressId('review');
      setPid(id);
      return api.install.begin({ source, progressId: id });
    },
    onSuccess: (r) => {
      setChanged(null);
      setReview(r);
    },
  });
  const { listing, setListing, queue, setQueue, list, reviewNext } = useSourcePicks((source) => begin.mutate(source));
  const approve = useMutation({
    mutationFn: (r: ReviewView) => {
      const id = newProgressId('approve');
      setPid(id);
      return api.install.approve({
        id: r.id,
        integrity: r.integrity,
        progressId: id,
      });
    },
    onSuccess: (res) => {
      if (res.outcome === 'changed') {
        setChanged(res.message);
        setReview(res.review);
        return;
      }
      setReview(null);
      setDone(res);
      reviewNext();
      void qc.invalidateQueries({ queryKey: keys.dashboard(project.root) });
      void qc.invalidateQueries({ queryKey: ['skills', 'get', project.root] });
    },
  });
  const busy = begin.isPending || approve.isPending || list.isPending;
  const progress = useProgress(pid, busy);

  const progressLine = (
    <ProgressLine
      progress={progress}
      fallback={approve.isPending ? 'checking the source and installing…' : 'fetching the source…'}
    />
  );
  const installedAlready = begin.isError
    ? /^install: ([a-z0-9][a-z0-9-]*) is already installed/.exec(begin.error.message)?.[1]
    : undefined;
  const beginError = begin.isError ? (
    <>
      <ErrorLine error={begin.error} origin="install.begin" onDismiss={() => begin.reset()} />
      {installedAlready && (
        <div className="inst-actions">
          <button
            type="button"
            className="btn"
            onClick={() => navigate({ view: 'install', arg: `update:${installedAlready}` })}
          >
            Check {installedAlready} for an update…
          </button>
          <button
            type="button"
            className="btn ghost"
            onClick={() => navigate({ view: 'install', arg: `remove:${installedAlready}` })}
          >
            Remove {installedAlready}…
          </button>
        </div>
      )}
    </>
  ) : null;

  const discard = () => {
    if (review) void api.install.cancel({ id: review.id }).catch(() => undefined);
    setReview(null);
    setChanged(null);
    approve.reset();
    reviewNext();
  };

  return (
    <>
      {!review && (
        <div className="inst-layout">
          <div className="inst-main">
            {listing ? (
              <SkillChecklist
                source={listing.source}
                skills={listing.skills}
                onCancel={() => setListing(null)}
                onReview={(sources) => {
                  setListing(null);
                  setDone(null);
                  setQueue(sources.slice(1));
                  begin.mutate(sources[0]!);
                }}
              />
            ) : (
              <SourceForm
                draft={draft}
                set={setDraft}
                busy={busy}
                onReview={(s) => {
                  setDone(null);
                  setQueue([]);
                  list.mutate(s);
                }}
              />
            )}
            {progressLine}
            {beginError}
          </div>
          <InstalledList project={project} />
        </div>
      )}
      {review && progressLine}
      {review && beginError}
      {done && (
        <div className="inst-verdict done" role="status" data-verdict="installed">
          <div className="inst-verdict-icon" aria-hidden="true">
            ✓
          </div>
          <div>
            <h2>Installed {done.installed.join(', ')}</h2>
            <p className="inst-explain">Pinned in kitbash.lock.</p>
            {done.notes.length > 0 && (
              <ul className="inst-plain small muted">
                {done.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            )}
            <div className="inst-actions">
              <button type="button" className="btn" onClick={() => navigate({ view: 'dashboard' })}>
                Open the dashboard
              </button>
              <button type="button" className="btn ghost" onClick={() => setDone(null)}>
                Install another
              </button>
            </div>
          </div>
        </div>
      )}
      {review && (
        <div
          className="inst-dialog"
          role="dialog"
          aria-label={`Install review of ${review.root}`}
          data-review-id={review.id}
          data-integrity={review.integrity}
        >
          {changed && (
            <div className="inst-changed" role="alert">
              <strong>Re-reviewed.</strong> {changed.charAt(0).toUpperCase() + changed.slice(1)}
            </div>
          )}
          <Verdict review={review} verb="install" />
          <div className="inst-actions inst-sticky">
            <span className="muted small mono inst-source-echo" title="the source as reviewed">
              {review.source.raw}
              {queue.length > 0 && ` · ${queue.length} more picked after this one`}
            </span>
            <button type="button" className="btn" onClick={discard} disabled={approve.isPending}>
              {review.blockers.length ? 'Close' : 'Cancel'}
            </button>
            {review.blockers.length > 0 && (
              <span className="inst-no-approve">
                Cannot be approved — blocked by {review.blockers.length} finding(s)
              </span>
            )}
            {review.blockers.length === 0 && (
              <button
                type="button"
                className="btn primary inst-approve"
                disabled={approve.isPending}
                onClick={() => approve.mutate(review)}
                title={`approves exactly ${review.integrity}`}
              >
                {approve.isPending
                  ? 'Installing…'
                  : `Approve and install ${review.root}@${review.nodes[0]?.version ?? ''}`}
              </button>
            )}
          </div>
          {approve.isError && (
            <ErrorLine error={approve.error} origin="install.approve" onDismiss={() => approve.reset()} />
          )}
          <ReviewPanel
            review={review}
            onReReview={() => {
              // The exception changed kitbash.toml: review the same source again (the old session is dropped).
              void api.install.cancel({ id: review.id }).catch(() => undefined);
              if (begin.variables !== undefined) begin.mutate(begin.variables);
            }}
          />
        </div>
      )}
    </>
  );
}

function UpdateFlow({ project, dir }: { project: ProjectRef; dir: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const [pid] = useState(() => newProgressId('update'));
  const [result, setResult] = useState<UpdateCheck | null>(null);
  const check = useMutation({
    mutationFn: () => api.install.checkUpdate({ name: dir, progressId: pid }),
    onSuccess: setResult,
  });
  const [updated, setUpdated] = useState<Extract<ApplyUpdateResult, { outcome: 'updated' }> | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const [applyPid, setApplyPid] = useState<string | null>(null);
  const apply = useMutation({
    mutationFn: (r: ReviewView) => {
      const id = newProgressId('apply');
      setApplyPid(id);
      return api.install.applyUpdate({ id: r.id, integrity: r.integrity });
    },
    onSuccess: (res) => {
      if (res.outcome === 'changed') {
        setChanged(res.message);
        setResult(res.check);
        return;
      }
      setUpdated(res);
      void qc.invalidateQueries({ queryKey: keys.dashboard(project.root) });
      void qc.invalidateQueries({ queryKey: ['skills', 'get', project.root] });
    },
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    check.mutate();
  }, [check]);
  const progress = useProgress(pid, check.isPending);
  const applying = useProgress(applyPid, apply.isPending);
  const review = result?.status === 'changed' ? result.review : null;
  useEffect(
    () => () => void (review && !updated && api.install.cancel({ id: review.id }).catch(() => undefined)),
    [api, review, updated],
  );
  return (
    <div className="inst-dialog" role="dialog" aria-label={`Update ${dir}`}>
      <div className="panel-head">
        <h2>Update {dir}</h2>
        <button type="button" className="btn ghost" onClick={() => navigate({ view: 'install' })}>
          Back
        </button>
      </div>
      <ProgressLine progress={progress} fallback="refetching the pinned source…" />
      <ProgressLine progress={applying} fallback="refetching to check nothing moved, then updating and compiling…" />
      {changed && (
        <div className="inst-changed" role="alert">
          <strong>Re-reviewed.</strong> {changed.charAt(0).toUpperCase() + changed.slice(1)}
        </div>
      )}
      {check.isError && <ErrorLine error={check.error} origin="install.checkUpdate" />}
      {result?.status === 'up-to-date' && (
        <div className="inst-verdict done" data-verdict="up-to-date">
          <div className="inst-verdict-icon" aria-hidden="true">
            ✓
          </div>
          <div>
            <h2>
              {result.name}@{result.version} is up to date
            </h2>
            {result.note && <p className="inst-explain">{result.note}</p>}
          </div>
        </div>
      )}
      {updated && (
        <div className="inst-verdict done" role="status" data-verdict="updated">
          <div className="inst-verdict-icon" aria-hidden="true">
            ✓
          </div>
          <div>
            <h2>
              Updated {updated.updated} to {updated.version}
            </h2>
            <p className="inst-explain">Re-pinned in kitbash.lock. {updated.notes.join(' ')}</p>
          </div>
        </div>
      )}
      {review && !updated && result?.status === 'changed' && (
        <>
          <p className="muted">
            {result.name}: {result.from} → {review.nodes[0]?.version}
            {result.localEdits && <strong className="inst-warn-text"> · local edits will be overwritten</strong>}
          </p>
          <Verdict review={review} verb="update" />
          <div className="inst-actions inst-sticky">
            <button type="button" className="btn" onClick={() => navigate({ view: 'install' })}>
              {review.blockers.length ? 'Close' : 'Cancel'}
            </button>
            {review.blockers.length === 0 && (
              <button
                type="button"
                className="btn primary inst-approve"
                disabled={apply.isPending}
                onClick={() => apply.mutate(review)}
                title={`approves exactly ${review.integrity}`}
              >
                {apply.isPending ? 'Updating…' : `Approve update to ${review.nodes[0]?.version ?? ''}`}
              </button>
            )}
          </div>
          {apply.isError && <ErrorLine error={apply.error} origin="install.applyUpdate" />}
          <ReviewPanel review={review} />
        </>
      )}
    </div>
  );
}

function RemoveFlow({ project, dir }: { project: ProjectRef; dir: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const plan = useQuery({
    queryKey: ['install', 'planRemove', project.root, dir],
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
      void qc.invalidateQueries({ queryKey: keys.dashboard(project.root) });
    },
  });
  const progress = useProgress(null, plan.isPending || remove.isPending);
  const p = plan.data;
  return (
    <div className="inst-dialog" role="dialog" aria-label={`Remove ${dir}`}>
      <div className="panel-head">
        <h2>Remove {dir}</h2>
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
        <div className="inst-verdict done" role="status" data-verdict="removed">
          <div className="inst-verdict-icon" aria-hidden="true">
            ✓
          </div>
          <div>
            <h2>Removed {remove.data.removed.join(', ')}</h2>
            <p className="inst-explain">{remove.data.notes.join(' ')}</p>
          </div>
        </div>
      )}
      {p && !remove.isSuccess && (
        <>
          {p.dependents.length > 0 ? (
            <div className="inst-verdict blocked" role="alert" data-verdict="blocked">
              <div className="inst-verdict-icon" aria-hidden="true">
                ✕
              </div>
              <div>
                <h2>{dir} cannot be removed yet</h2>
                <p className="inst-explain">
                  <strong>{p.dependents.join(', ')}</strong> depend
                  {p.dependents.length === 1 ? 's' : ''} on it. Remove{' '}
                  {p.dependents.length === 1 ? 'that skill' : 'those skills'} first.
                </p>
              </div>
            </div>
          ) : (
            <div className="inst-verdict ready" data-verdict="ready">
              <div className="inst-verdict-icon" aria-hidden="true">
                ?
              </div>
              <div>
                <h2>
                  Remove {p.name}
                  {p.version ? `@${p.version}` : ''}?
                </h2>
                <p className="inst-explain">
                  Its folder is deleted and its pin dropped from kitbash.lock; compile then removes what it generated
                  for it.
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
              </div>
            </div>
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

/** The Install tab: `#/install`, `#/install/update:<dir>`, `#/install/remove:<dir>`. */
export function InstallView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const m = /^(update|remove):([a-z0-9][a-z0-9-]*)$/.exec(arg ?? '');
  return (
    <main className="dashboard inst-view">
      {m?.[1] === 'update' ? (
        <UpdateFlow key={m[2]} project={project} dir={m[2]!} />
      ) : m?.[1] === 'remove' ? (
        <RemoveFlow key={m[2]} project={project} dir={m[2]!} />
      ) : (
        <InstallFlow project={project} />
      )}
    </main>
  );
}

/** One labelled text input of the source form. */
function SourceField(props: {
  label: string;
  aria: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  grow?: boolean;
  short?: boolean;
}) {
  return (
    <label className={`inst-field${props.grow ? ' grow' : ''}`}>
      <span>{props.label}</span>
      <input
        className={`filter inst-input${props.short ? ' short' : ''}`}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        aria-label={props.aria}
        spellCheck={false}
      />
    </label>
  );
}

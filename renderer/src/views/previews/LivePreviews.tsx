import { useState } from 'react';
import { plural } from '../../../../shared/text/format';
import type { LivePreview } from '../../../../shared/ipc/channels/compile';
import { formatTokens } from '../../format';
import { TargetDetail } from './TargetDetail';
import { TargetTabs } from './TargetTabs';
import { useLivePreview } from './useLivePreview';

export function LivePreviews({ root, dir, files }: { root: string; dir: string; files: ReadonlyMap<string, string> }) {
  const [inactive, setInactive] = useState(false);
  const { live, error, stale } = useLivePreview(root, dir, files, inactive);
  const [selected, setSelected] = useState<string | null>(null);
  if (!live)
    return (
      <div className="pv-body" aria-busy={!error}>
        {error ? (
          <p className="inline-error" role="alert">
            Could not plan the previews: {error.message}
          </p>
        ) : (
          <p className="muted">Planning the previews…</p>
        )}
      </div>
    );
  const current = live.targets.find((t) => t.target === selected) ?? live.targets[0];

  return (
    <div className={`pv-body ${stale ? 'stale' : ''}`} data-planned-ms={live.ms.toFixed(1)} aria-busy={stale}>
      <SkillFacts live={live} />
      {error && (
        <p className="inline-error" role="alert">
          Could not plan the previews for the latest edit: {error.message}
        </p>
      )}
      <SkillProblems live={live} />
      {live.projectRefusals.length > 0 && (
        <p className="pv-project-note small" role="status" data-testid="project-refusals">
          Compile is also refused for {live.projectRefusals.length} project-wide reason
          {live.projectRefusals.length === 1 ? '' : 's'} that this skill does not cause —{' '}
          <a href="#/dashboard">see the Dashboard</a>.
        </p>
      )}
      {live.targets.length === 0 && !live.loadError && !live.prepareError && live.plan.errors.length === 0 && (
        <p className="muted">
          No target is active in this project. Add an agent folder (<code>.claude/</code>, <code>.cursor/</code>, …) or
          set <code>[project].targets</code> in kitbash.toml.
        </p>
      )}
      {live.targets.length > 0 && current && (
        <>
          <div className="pv-tabs-bar">
            <span className="muted small">
              {inactive
                ? 'every target — dashed: not compiled in this project'
                : `the ${plural(live.plan.targets.length, 'target')} this project compiles for`}
            </span>
            <button
              type="button"
              className="btn ghost pv-small-toggle"
              aria-pressed={inactive}
              onClick={() => setInactive((v) => !v)}
              data-testid="toggle-inactive"
            >
              {inactive ? 'Only active targets' : 'Show other targets'}
            </button>
          </div>
          <TargetTabs targets={live.targets} current={current.target} onSelect={setSelected} />
          <TargetDetail key={current.target} preview={current} />
        </>
      )}
    </div>
  );
}

/** What stops this skill — and only this skill — from compiling; other skills' problems are the dashboard's. */
function SkillProblems({ live }: { live: LivePreview }) {
  const own = [
    ...(live.loadError ? [{ head: 'This skill does not load, so no target gets it.', text: live.loadError }] : []),
    ...(live.prepareError ? [{ head: 'This skill does not compile.', text: live.prepareError }] : []),
    ...(live.failure ? [{ head: 'Compile skips this skill.', text: live.failure }] : []),
  ];
  return (
    <>
      {own.map((p) => (
        <div key={p.head} className="banner error" role="alert" data-testid="preview-load-error">
          <strong>{p.head}</strong> {p.text}
        </div>
      ))}
      {live.refusals.length > 0 && (
        <div className="banner error" role="alert" data-testid="plan-errors">
          <strong>Compile would refuse and write nothing:</strong>
          <ul>
            {live.refusals.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
          {live.targets.length > 0 && (
            <span className="small">The previews below show what each target would get once this is fixed.</span>
          )}
        </div>
      )}
    </>
  );
}

function SkillFacts({ live }: { live: LivePreview }) {
  if (live.name === null) return null;
  const bodyOver = live.bodyTokens !== null && live.budget !== null && live.bodyTokens > live.budget;
  const stubOver = live.stubTokens !== null && live.standingLimit !== null && live.stubTokens > live.standingLimit;
  return (
    <div className="pv-facts" data-testid="skill-facts">
      <span className="pv-facts-name">{live.name}</span>
      <span className={`pv-fact ${bodyOver ? 'over' : ''}`} data-fact="body">
        body <b>{formatTokens(live.bodyTokens)}</b> / {formatTokens(live.budget)} tok
      </span>
      {live.stubTokens !== null && (
        <span className={`pv-fact ${stubOver ? 'over' : ''}`} data-fact="stub">
          stub <b>{formatTokens(live.stubTokens)}</b> / {formatTokens(live.standingLimit)} standing
        </span>
      )}
      <span className={`pill ${live.disclosure ?? 'unknown'}`}>authored {live.disclosure}</span>
      <span className="muted small pv-planned">planned in {live.ms < 1 ? '<1' : Math.round(live.ms)} ms</span>
    </div>
  );
}

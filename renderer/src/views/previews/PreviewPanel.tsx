import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import type { CompileSnapshot } from '../../../../shared/ipc/channels/compile';
import { sectionMarkers } from '../../../../shared/targets/common';
import { formatTokens } from '../../format';
import { Spinner } from '../../components/States';
import { CompileDialog } from './CompileDialog';
import { diffLines, diffStats, type DiffLine } from './diff';
import { livePreview, type PreviewFile, type TargetPreview } from './live';
import { useCompileSnapshot } from './queries';
import './previews.css';

export interface PreviewPanelProps {
  readonly project: ProjectRef;
  /** The skill's folder name under `.kitbash/skills/`. */
  readonly dir: string;
  /**
   * The skill's current (unsaved) buffers, keyed by skill-relative path: 'skill.toml', 'SKILL.md', 'prompts/x.md', …
   */
  readonly files: ReadonlyMap<string, string>;
}

/**
 * What every target receives for the edited skill, planned live in the renderer with the
 * same pure planner `skillsmith compile` uses, against what is on disk now.
 */
export function PreviewPanel({ project, dir, files }: PreviewPanelProps) {
  const snapshot = useCompileSnapshot(project.root);
  const [compileOpen, setCompileOpen] = useState(false);
  return (
    <section className="previews panel" aria-label="Compiled previews" data-skill={dir}>
      <div className="panel-head previews-head">
        <h2>Compiled previews</h2>
        <div className="previews-actions">
          {snapshot.isFetching && <Spinner label="Reading the project" />}
          <button type="button" className="btn primary" onClick={() => setCompileOpen(true)}>
            Compile…
          </button>
        </div>
      </div>
      {snapshot.isPending ? (
        <p className="muted">Reading the project…</p>
      ) : snapshot.isError ? (
        <p className="inline-error" role="alert">
          Could not read the project for previews:{' '}
          {snapshot.error instanceof Error ? snapshot.error.message : String(snapshot.error)}
        </p>
      ) : (
        <LivePreviews snapshot={snapshot.data} dir={dir} files={files} />
      )}
      {compileOpen && (
        <CompileDialog
          project={project}
          dirty={snapshot.data ? isDirty(snapshot.data, dir, files) : false}
          onClose={() => setCompileOpen(false)}
        />
      )}
    </section>
  );
}

/** True when the buffers differ from the skill's files as saved. */
export function isDirty(snap: CompileSnapshot, dir: string, files: ReadonlyMap<string, string>): boolean {
  const s = snap.skills.find((x) => x.dir === dir);
  if (!s) return files.size > 0;
  for (const [path, text] of files) {
    const e = s.entries.find((x) => x.path === path);
    if (!e || e.kind !== 'file' || e.text !== text) return true;
  }
  return false;
}

function LivePreviews({
  snapshot,
  dir,
  files,
}: {
  snapshot: CompileSnapshot;
  dir: string;
  files: ReadonlyMap<string, string>;
}) {
  // Typing stays responsive: the plan follows the latest buffers as soon as React is idle.
  const deferred = useDeferredValue(files);
  const [inactive, setInactive] = useState(false);
  const live = useMemo(() => livePreview(snapshot, dir, deferred, { inactive }), [snapshot, dir, deferred, inactive]);
  const [selected, setSelected] = useState<string | null>(null);
  const current = live.targets.find((t) => t.target === selected) ?? live.targets[0];
  const stale = deferred !== files;

  return (
    <div className={`previews-body ${stale ? 'stale' : ''}`} data-planned-ms={live.ms.toFixed(1)} aria-busy={stale}>
      <SkillFacts live={live} />
      {snapshot.omitted.length > 0 && (
        <div className="banner warn" role="status">
          {snapshot.omitted.length} large file(s) were left out of the preview snapshot (e.g. {snapshot.omitted[0]});
          their previews may be incomplete.
        </div>
      )}
      {live.loadError ? (
        <div className="banner error" role="alert" data-testid="preview-load-error">
          <strong>This skill does not load, so no target gets it.</strong> {live.loadError}
        </div>
      ) : live.prepareError ? (
        <div className="banner error" role="alert" data-testid="preview-load-error">
          <strong>This skill does not compile.</strong> {live.prepareError}
        </div>
      ) : null}
      {live.plan.errors.length > 0 && (
        <div className="banner error" role="alert" data-testid="plan-errors">
          <strong>Compile would refuse and write nothing:</strong>
          <ul>
            {live.plan.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
          {live.targets.length > 0 && (
            <span className="small">The previews below show what each target would get once this is fixed.</span>
          )}
        </div>
      )}
      {live.targets.length === 0 && !live.loadError && !live.prepareError && live.plan.errors.length === 0 && (
        <p className="muted">
          No target is active in this project. Add an agent folder (<code>.claude/</code>, <code>.cursor/</code>, …) or
          set <code>[project].targets</code> in kitbash.toml.
        </p>
      )}
      {live.targets.length > 0 && current && (
        <>
          <div className="tabs-bar">
            <span className="muted small">
              {inactive
                ? 'every target — dashed: not compiled in this project'
                : `the ${live.plan.targets.length} target(s) this project compiles for`}
            </span>
            <button
              type="button"
              className="btn ghost small-toggle"
              aria-pressed={inactive}
              onClick={() => setInactive((v) => !v)}
              data-testid="toggle-inactive"
            >
              {inactive ? 'Only active targets' : 'Show other targets'}
            </button>
          </div>
          <TargetTabs targets={live.targets} current={current.target} onSelect={setSelected} />
          <TargetDetail key={current.target} preview={current} skill={live.name ?? dir} />
        </>
      )}
    </div>
  );
}

function SkillFacts({ live }: { live: ReturnType<typeof livePreview> }) {
  if (live.name === undefined) return null;
  const bodyOver = live.bodyTokens !== undefined && live.budget !== undefined && live.bodyTokens > live.budget;
  const stubOver =
    live.stubTokens !== undefined && live.standingLimit !== undefined && live.stubTokens > live.standingLimit;
  return (
    <div className="skill-facts" data-testid="skill-facts">
      <span className="skill-facts-name">{live.name}</span>
      <span className={`fact ${bodyOver ? 'over' : ''}`} data-fact="body">
        body <b>{formatTokens(live.bodyTokens)}</b> / {formatTokens(live.budget)} tok
      </span>
      {live.stubTokens !== undefined && (
        <span className={`fact ${stubOver ? 'over' : ''}`} data-fact="stub">
          stub <b>{formatTokens(live.stubTokens)}</b> / {formatTokens(live.standingLimit)} standing
        </span>
      )}
      <span className={`pill ${live.disclosure ?? 'unknown'}`}>authored {live.disclosure}</span>
      <span className="muted small planned">planned in {live.ms < 1 ? '<1' : Math.round(live.ms)} ms</span>
    </div>
  );
}

const STATUS_MARK = { full: '●', degraded: '◐', unsupported: '○' } as const;

function TargetTabs({
  targets,
  current,
  onSelect,
}: {
  targets: readonly TargetPreview[];
  current: string;
  onSelect: (id: string) => void;
}) {
  const move = (i: number): void => {
    const next = targets[(i + targets.length) % targets.length]!;
    onSelect(next.target);
    document.getElementById(`ptab-${next.target}`)?.focus();
  };
  return (
    <div className="target-tabs" role="tablist" aria-label="Targets">
      {targets.map((t, i) => (
        <button
          key={t.target}
          id={`ptab-${t.target}`}
          type="button"
          role="tab"
          aria-selected={t.target === current}
          aria-controls={`ppanel-${t.target}`}
          tabIndex={t.target === current ? 0 : -1}
          className={`target-tab ${t.status} ${t.target === current ? 'on' : ''} ${t.inactive ? 'inactive' : ''}`}
          data-target={t.target}
          data-status={t.status}
          onClick={() => onSelect(t.target)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') move(i + 1);
            else if (e.key === 'ArrowLeft') move(i - 1);
            else if (e.key === 'Home') move(0);
            else if (e.key === 'End') move(targets.length - 1);
            else return;
            e.preventDefault();
          }}
          title={`${t.agent} — ${t.status}${t.reasons.length ? `: ${t.reasons.map((r) => r.message).join('; ')}` : ''}`}
        >
          <span className="tt-top">
            <span className={`status-mark ${t.status}`} aria-hidden="true">
              {STATUS_MARK[t.status]}
            </span>
            <span className="tt-id">{t.target}</span>
            {t.files.some((f) => f.changed) && (
              <span className="tt-dot" title="differs from disk" aria-label="differs from disk" />
            )}
          </span>
          <span className="tt-cost" data-standing={t.standingTokens}>
            {formatTokens(t.standingTokens)} tok/session
          </span>
        </button>
      ))}
    </div>
  );
}

function TargetDetail({ preview: t, skill }: { preview: TargetPreview; skill: string }) {
  return (
    <div
      className="target-detail"
      role="tabpanel"
      id={`ppanel-${t.target}`}
      aria-labelledby={`ptab-${t.target}`}
      data-target={t.target}
    >
      <div className="td-head">
        <div>
          <span className="td-agent">{t.agent}</span>
          <span className={`pill ${t.loading}`}>{t.loading}</span>
          <span className={`status-chip ${t.status}`} data-testid="target-status">
            {t.status}
          </span>
        </div>
        <div className="td-costs">
          <span title="resident in every session, before the skill is used">
            <b data-testid="standing-tokens">{formatTokens(t.standingTokens)}</b> tok standing
          </span>
          <span title="in context once the skill is used">
            <b data-testid="loaded-tokens">{formatTokens(t.loadedTokens)}</b> tok loaded
          </span>
        </div>
      </div>
      {t.inactive && (
        <div className="banner warn" role="status" data-testid="inactive-note">
          {t.target} is not a target of this project. This is what compile would write for it if you added{' '}
          <code>&quot;{t.target}&quot;</code> to <code>[project].targets</code> in kitbash.toml.
        </div>
      )}
      {t.loading === 'lazy' ? (
        <p className="muted small td-explain">
          Lazy: only the description stays in context; the agent loads the body when the skill is used.
        </p>
      ) : (
        <p className="muted small td-explain">
          Eager: the whole text is in context in every session, whether the skill is used or not.
        </p>
      )}
      {(t.reasons.length > 0 || t.warnings.length > 0 || t.notes.length > 0) && (
        <ul className="td-notes">
          {t.reasons.map((r) => (
            <li key={`r-${r.code}-${r.message}`} className={`note ${t.status}`} data-reason={r.code}>
              <span className="note-k">{r.code}</span> {r.message}
            </li>
          ))}
          {t.warnings.map((w) => (
            <li key={`w-${w}`} className="note warn">
              <span className="note-k">warning</span> {w}
            </li>
          ))}
          {t.notes.map((n) => (
            <li key={`n-${n}`} className="note info">
              <span className="note-k">note</span> {n}
            </li>
          ))}
        </ul>
      )}
      <div className="preview-files">
        {t.files.map((f) => (
          <FileCard key={f.path} file={f} skill={skill} />
        ))}
      </div>
    </div>
  );
}

function fileState(f: PreviewFile): { word: string; cls: string } {
  if (f.disk === undefined) return { word: 'new', cls: 'new' };
  if (f.changed) return { word: 'differs from disk', cls: 'changed' };
  return { word: 'up to date', cls: 'same' };
}

/** This skill's marked section of a merged file (AGENTS.md, CONVENTIONS.md), markers included. */
export function ownSection(text: string, skill: string): string | undefined {
  const { begin, end } = sectionMarkers(skill);
  const a = text.indexOf(begin);
  const b = a === -1 ? -1 : text.indexOf(end, a);
  return b === -1 ? undefined : text.slice(a, b + end.length);
}

/** A file's content as text: copied scripts are bytes, shown as text when they are valid UTF-8. */
function asText(content: string | Uint8Array): string | undefined {
  if (typeof content === 'string') return content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}

function FileCard({ file, skill }: { file: PreviewFile; skill: string }) {
  const section =
    file.merge === 'section' && typeof file.content === 'string' ? ownSection(file.content, skill) : undefined;
  const [mode, setMode] = useState<'section' | 'output' | 'diff'>(section !== undefined ? 'section' : 'output');
  const text = useMemo(() => asText(file.content), [file.content]);
  const binary = text === undefined;
  const state = fileState(file);
  return (
    <article className="preview-file" data-path={file.path} data-state={state.cls}>
      <header className="pf-head">
        <span className="pf-path">{file.path}</span>
        {file.merge && (
          <span className="tag subtle">{file.merge === 'section' ? 'merged section' : 'settings, merged by key'}</span>
        )}
        {file.servedBy && <span className="tag subtle">shared .agents/skills copy</span>}
        <span className={`pf-state ${state.cls}`}>{state.word}</span>
        <span className="pf-spacer" />
        {!binary && (
          <div className="segmented" role="group" aria-label={`View of ${file.path}`}>
            {section !== undefined && (
              <button
                type="button"
                className={mode === 'section' ? 'on' : ''}
                aria-pressed={mode === 'section'}
                onClick={() => setMode('section')}
              >
                This skill
              </button>
            )}
            <button
              type="button"
              className={mode === 'output' ? 'on' : ''}
              aria-pressed={mode === 'output'}
              onClick={() => setMode('output')}
            >
              {section !== undefined ? 'Whole file' : 'Output'}
            </button>
            <button
              type="button"
              className={mode === 'diff' ? 'on' : ''}
              aria-pressed={mode === 'diff'}
              onClick={() => setMode('diff')}
            >
              Diff vs disk
            </button>
          </div>
        )}
      </header>
      {binary ? (
        <p className="muted small pf-binary">
          {(file.content as Uint8Array).length.toLocaleString('en-US')} bytes, copied as is
        </p>
      ) : mode === 'section' && section !== undefined ? (
        <OutputText text={section} />
      ) : mode !== 'diff' ? (
        <OutputText text={text} />
      ) : (
        <DiffView before={file.disk ?? ''} after={text} absent={file.disk === undefined} />
      )}
    </article>
  );
}

/**
 * A file's text, one block per line: a keystroke re-lays out only the line it changed, and
 * lines scrolled out of view are not rendered at all (content-visibility), so a 20,000-token
 * output stays cheap to update. Copying it gives the text back line for line.
 */
function OutputText({ text }: { text: string }) {
  const lines = useMemo(() => {
    const ls = text.split('\n');
    if (ls.length > 1 && ls[ls.length - 1] === '') ls.pop();
    return ls;
  }, [text]);
  return (
    <div className="pf-content" data-testid="preview-output" tabIndex={0} aria-label="Compiled output">
      {lines.map((l, i) => (
        <div key={i} className="pl">
          {l === '' ? '\n' : l}
        </div>
      ))}
    </div>
  );
}

const CONTEXT = 3;

/** Hunks: changed lines with a few lines of context, long unchanged runs folded. */
export function hunks(lines: readonly DiffLine[]): (DiffLine | { kind: 'fold'; count: number })[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.kind !== 'same')
      for (let j = Math.max(0, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) keep[j] = 1;
  });
  const out: (DiffLine | { kind: 'fold'; count: number })[] = [];
  let folded = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (folded) out.push({ kind: 'fold', count: folded });
      folded = 0;
      out.push(l);
    } else folded++;
  });
  if (folded) out.push({ kind: 'fold', count: folded });
  return out;
}

function DiffView({ before, after, absent }: { before: string; after: string; absent: boolean }) {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const stats = diffStats(lines);
  const [shown, setShown] = useState(400);
  useEffect(() => setShown(400), [before, after]);
  if (stats.added === 0 && stats.removed === 0)
    return (
      <p className="muted small pf-same" data-testid="diff-none">
        Identical to the file on disk — compile leaves it alone.
      </p>
    );
  const parts = hunks(lines);
  return (
    <div className="pf-diff" data-testid="preview-diff" data-added={stats.added} data-removed={stats.removed}>
      <div className="diff-stats small">
        {absent ? 'not on disk yet — compile creates it' : 'on disk → compile'}:{' '}
        <span className="add">+{stats.added}</span> <span className="del">−{stats.removed}</span>
      </div>
      <div className="diff-lines mono">
        {parts.slice(0, shown).map((l, i) =>
          l.kind === 'fold' ? (
            <div key={i} className="dl fold">
              ⋯ {l.count} unchanged line{l.count === 1 ? '' : 's'}
            </div>
          ) : (
            <div key={i} className={`dl ${l.kind}`}>
              <span className="ln">{l.oldNo ?? ''}</span>
              <span className="ln">{l.newNo ?? ''}</span>
              <span className="sign">{l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '}</span>
              <span className="tx">{l.text}</span>
            </div>
          ),
        )}
      </div>
      {parts.length > shown && (
        <button type="button" className="btn ghost small-btn" onClick={() => setShown((n) => n + 2000)}>
          Show {Math.min(2000, parts.length - shown)} more lines
        </button>
      )}
    </div>
  );
}

import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProjectRef } from '../../../../shared/ipc';
import { useApi } from '../../api/context';
import { useDashboard } from '../../queries';
import { navigate } from '../../route';
import { monaco, themeName, type editor } from '../../monaco/setup';
import type { Diagnostic, Meter } from './analyze';
import { DiffDialog } from './DiffDialog';
import { PreviewSlot } from './PreviewSlot';
import { RunEvalsButton } from '../evals/RunEvalsButton';
import { evalTemplate } from '../../../../shared/evals/template';
import { isKsfName } from '../../../../shared/names';
import { FLUSH_DRAFTS_EVENT, newestDraft } from './drafts';
import { EditorSession, type FileState } from './session';
import './editor.css';
import { Word } from '../../glossary';

/** `#/editor/<dir>` or `#/editor/<dir>/<file>` (the file's tab is opened). */
export function parseEditorArg(arg: string | undefined): { dir: string; file?: string } | null {
  if (!arg) return null;
  const i = arg.indexOf('/');
  return i < 0 ? { dir: arg } : { dir: arg.slice(0, i), file: arg.slice(i + 1) };
}

export function EditorView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const target = parseEditorArg(arg);
  if (!target) return <SkillIndex project={project} />;
  return (
    <SkillEditor
      key={`${project.root}\u0000${target.dir}`}
      project={project}
      dir={target.dir}
      {...(target.file ? { file: target.file } : {})}
    />
  );
}

// ---------------------------------------------------------------------------------------
// No skill chosen: the list of skills and the "new skill" form.

function SkillIndex({ project }: { project: ProjectRef }) {
  const dash = useDashboard(project.root);
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = (dash.data?.skills ?? []).filter(
    (s) => !q || s.name.toLowerCase().includes(q) || s.description.toLowerCase().includes(q),
  );
  return (
    <main className="editor-index">
      <section className="panel editor-index-list">
        <h2>Edit a skill</h2>
        <p className="muted small">
          Pick a skill of {project.name} to edit, with lint, safety and budget checks as you type.
        </p>
        {dash.isPending ? <p className="muted">Loading skills…</p> : null}
        {dash.data && dash.data.skills.length > 8 ? (
          <input
            className="filter editor-skill-search"
            type="search"
            placeholder="Search skills"
            aria-label="Search skills"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            spellCheck={false}
          />
        ) : null}
        {dash.data ? (
          <ul className="editor-skill-list">
            {shown.map((s) => (
              <li key={s.dir}>
                <a href={`#/editor/${encodeURIComponent(s.dir)}`} className="editor-skill-link" data-skill={s.dir}>
                  <span className="name">{s.name}</span>
                  <span className="muted small">{s.description}</span>
                </a>
              </li>
            ))}
            {dash.data.skills.length === 0 ? <li className="muted">No skills yet — create the first one.</li> : null}
            {dash.data.skills.length > 0 && shown.length === 0 ? (
              <li className="muted">No skill matches “{query}”.</li>
            ) : null}
          </ul>
        ) : null}
      </section>
      <NewSkillForm project={project} />
    </main>
  );
}

export function NewSkillForm({ project }: { project: ProjectRef }) {
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameProblem =
    name && !isKsfName(name) ? 'lower-case letters, digits and hyphens; starts with a letter; 2–41 characters' : null;
  const descProblem =
    description && (description.trim().length < 10 || description.trim().length > 200)
      ? `10–200 characters (now ${description.trim().length})`
      : null;
  const ready = isKsfName(name) && !descProblem && description.trim().length >= 10;
  return (
    <form
      className="panel new-skill"
      aria-label="New skill"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready || busy) return;
        setBusy(true);
        setError(null);
        api.editor
          .create({ name, description: description.trim() })
          .then((r) => {
            void qc.invalidateQueries({ queryKey: ['project', 'dashboard', project.root] });
            navigate({ view: 'editor', arg: r.dir });
          })
          .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)))
          .finally(() => setBusy(false));
      }}
    >
      <h2>New skill</h2>
      <p className="muted small">
        Creates <code>.kitbash/skills/&lt;name&gt;/</code> with a valid <code>skill.toml</code> and a{' '}
        <code>SKILL.md</code> to start from.
      </p>
      <label className="field">
        <span>Name</span>
        <input
          name="name"
          value={name}
          placeholder="changelog-writer"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameProblem ? true : undefined}
        />
        {nameProblem ? <span className="field-error">{nameProblem}</span> : null}
      </label>
      <label className="field">
        <span>Description</span>
        <textarea
          name="description"
          rows={3}
          value={description}
          placeholder="What the skill does and when an agent should use it."
          onChange={(e) => setDescription(e.target.value)}
          aria-invalid={descProblem ? true : undefined}
        />
        {descProblem ? <span className="field-error">{descProblem}</span> : null}
      </label>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn primary" disabled={!ready || busy}>
        {busy ? 'Creating…' : 'Create skill'}
      </button>
    </form>
  );
}

// ---------------------------------------------------------------------------------------
// One skill open.

declare global {
  interface Window {
    /** Test and bench hook: the open editor session (latencies, markers). */
    __skillsmithEditor?: {
      stats: EditorSession['stats'];
      analysis: () => EditorSession['analysis'];
      markers: (file: string) => editor.IMarker[];
      /** Markers of every owner (skillsmith and monaco-yaml's schema validation). */
      allMarkers: (file: string) => editor.IMarker[];
      value: (file: string) => string | undefined;
      dirty: () => string[];
      /** Put the cursor at line/column of the active file and focus the editor. */
      goto: (line: number, column?: number) => void;
    };
  }
}

function SkillEditor({ project, dir, file }: { project: ProjectRef; dir: string; file?: string }) {
  const api = useApi();
  const session = useMemo(() => new EditorSession(api, project.root, dir), [api, project.root, dir]);
  useSyncExternalStore(session.subscribe, session.version);
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<editor.IStandaloneCodeEditor | null>(null);
  const stubDecorations = useRef<editor.IEditorDecorationsCollection | null>(null);
  // The tab named in the route, else the file whose draft was handed in last (the playground's new test), else
  // SKILL.md.
  const [active, setActive] = useState<string>(() => file ?? newestDraft(project.root, dir) ?? 'SKILL.md');
  const [diffFor, setDiffFor] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    void session.load();
    window.__skillsmithEditor = {
      stats: session.stats,
      analysis: () => session.analysis,
      markers: (f) => {
        const m = session.files.get(f)?.model;
        return m ? monaco.editor.getModelMarkers({ resource: m.uri, owner: 'skillsmith' }) : [];
      },
      allMarkers: (f) => {
        const m = session.files.get(f)?.model;
        return m ? monaco.editor.getModelMarkers({ resource: m.uri }) : [];
      },
      value: (f) => session.files.get(f)?.model.getValue(),
      dirty: () =>
        session
          .tabs()
          .filter((t) => t.dirty)
          .map((t) => t.path),
      goto: (line, column = 1) => {
        ed.current?.setPosition({ lineNumber: line, column });
        ed.current?.revealLineInCenter(line);
        ed.current?.focus();
      },
    };
    const unload = () => session.flushDrafts();
    window.addEventListener('beforeunload', unload);
    window.addEventListener(FLUSH_DRAFTS_EVENT, unload);
    return () => {
      window.removeEventListener('beforeunload', unload);
      window.removeEventListener(FLUSH_DRAFTS_EVENT, unload);
      delete window.__skillsmithEditor;
      session.dispose();
    };
  }, [session]);

  // Files changed on disk (another editor, git, the CLI): reconcile.
  useEffect(() => {
    const prefix = `${session.path || `.kitbash/skills/${dir}`}/`;
    return api.on('project.changed', (e) => {
      if (e.root !== project.root) return;
      if (e.paths.length === 0 || e.paths.some((p) => p.startsWith(prefix) || p === prefix.slice(0, -1)))
        void session.refreshFromDisk();
    });
  }, [api, session, project.root, dir]);

  // The Monaco editor itself, created once the host div exists.
  useEffect(() => {
    if (!host.current) return;
    const instance = monaco.editor.create(host.current, {
      model: null,
      theme: themeName(),
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineHeight: 20,
      fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Code', 'JetBrains Mono', Menlo, Consolas, monospace",
      wordWrap: 'on',
      renderWhitespace: 'selection',
      unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: false },
      scrollBeyondLastLine: false,
      // Monaco's dimmed final line number fails contrast (axe); a plain one does not.
      renderFinalNewline: 'on',
      padding: { top: 10, bottom: 10 },
      fixedOverflowWidgets: true,
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      'semanticHighlighting.enabled': false,
    });
    ed.current = instance;
    stubDecorations.current = instance.createDecorationsCollection([]);
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => {
      const path = instance.getModel()
        ? [...session.files.values()].find((f) => f.model === instance.getModel())?.path
        : undefined;
      if (path) void saveFile(path);
    });
    // Escape leaves the editor (Tab is taken for indenting): focus goes to the active file
    // tab. Only when no Monaco widget (suggestions, find, rename, hints) wants Escape itself.
    instance.addCommand(
      monaco.KeyCode.Escape,
      () => document.querySelector<HTMLElement>('.editor-tablist [role="tab"][aria-selected="true"]')?.focus(),
      '!suggestWidgetVisible && !findWidgetVisible && !renameInputVisible && !parameterHintsVisible && !inSnippetMode && !markersNavigationVisible && !accessibilityHelpWidgetVisible',
    );
    const keydown = instance.onKeyDown((e) => session.markKeystroke(e.browserEvent.timeStamp));
    return () => {
      keydown.dispose();
      instance.dispose();
      ed.current = null;
    };
  }, [session]);

  const tabs = session.tabs();
  const current = session.files.get(active) ?? (session.loaded ? tabs[0] : undefined);

  // Show the active file's model, keeping each tab's scroll and cursor.
  useEffect(() => {
    const instance = ed.current;
    if (!instance || !current) return;
    if (instance.getModel() !== current.model) {
      const prev = [...session.files.values()].find((f) => f.model === instance.getModel());
      if (prev) prev.viewState = instance.saveViewState();
      instance.setModel(current.model);
      if (current.viewState) instance.restoreViewState(current.viewState);
      instance.focus();
    }
  });

  // The standing stub, highlighted in SKILL.md.
  const stub = session.analysis?.stub ?? null;
  const meter = session.analysis?.meter ?? null;
  useEffect(() => {
    const deco = stubDecorations.current;
    if (!deco) return;
    if (!current || current.path !== 'SKILL.md' || !stub) {
      deco.clear();
      return;
    }
    deco.set([
      {
        range: new monaco.Range(stub.startLine, 1, stub.endLine, 1),
        options: {
          isWholeLine: true,
          className: 'ss-stub-line',
          linesDecorationsClassName: 'ss-stub-gutter',
          hoverMessage: {
            value: `**Standing stub** — what a lazy agent keeps in every session${meter ? ` (~${meter.stubTokens} of ${meter.standing} tokens)` : ''}. The rest of the body loads only when the skill is used.`,
          },
        },
      },
    ]);
  }, [current, stub, meter]);

  async function saveFile(path: string): Promise<void> {
    const r = await session.save(path);
    if (r === 'conflict') setDiffFor(path);
  }
  async function saveAll(): Promise<void> {
    for (const t of session.tabs()) {
      if (!t.dirty) continue;
      const r = await session.save(t.path);
      if (r === 'conflict') {
        setActive(t.path);
        setDiffFor(t.path);
        return;
      }
    }
  }

  function reveal(d: Diagnostic): void {
    if (!session.files.has(d.file)) return;
    setActive(d.file);
    requestAnimationFrame(() => {
      const instance = ed.current;
      if (!instance) return;
      const r = new monaco.Range(d.range.startLine, d.range.startColumn, d.range.endLine, d.range.endColumn);
      instance.setSelection(r);
      instance.revealRangeInCenterIfOutsideViewport(r);
      instance.focus();
    });
  }

  if (session.loadError) {
    return (
      <main className="editor-page">
        <div className="panel editor-error" role="alert">
          <h2>Cannot open {dir}</h2>
          <p>{session.loadError}</p>
          <a className="btn" href="#/editor">
            Back to the skill list
          </a>
        </div>
      </main>
    );
  }

  const dirtyCount = tabs.filter((t) => t.dirty).length;
  const conflicts = tabs.filter((t) => t.conflict);
  const diags = session.analysis?.diagnostics ?? [];
  const summary = session.analysis?.summary;

  return (
    <main className="editor-page">
      <div className="editor-head">
        <div className="editor-title">
          <a href="#/editor" className="muted small">
            Skills
          </a>
          <span className="muted small">/</span>
          <h2>{dir}</h2>
          <span className="muted small mono">{session.path}</span>
        </div>
        <div className="editor-actions">
          <StatusBadge summary={summary} loaded={session.analysis !== null} />
          <RunEvalsButton project={project} skill={dir} />
          <button
            type="button"
            className="btn"
            disabled={!current?.dirty}
            onClick={() => current && void saveFile(current.path)}
            title="Save this file (Ctrl/⌘+S)"
          >
            Save
          </button>
          <button type="button" className="btn primary" disabled={dirtyCount === 0} onClick={() => void saveAll()}>
            Save all{dirtyCount ? ` (${dirtyCount})` : ''}
          </button>
        </div>
      </div>

      {conflicts.map((c) => (
        <div key={c.path} className="editor-banner conflict" role="alert" data-conflict={c.path}>
          <strong>{c.path}</strong>
          {c.conflict?.text === null ? ' was deleted on disk' : ' changed on disk'} while you had unsaved edits. Nothing
          is overwritten until you choose.
          <button type="button" className="btn" onClick={() => (setActive(c.path), setDiffFor(c.path))}>
            Compare and resolve…
          </button>
        </div>
      ))}
      {session.notice ? (
        <div
          className={`editor-banner ${session.notice.kind}`}
          role={session.notice.kind === 'error' ? 'alert' : 'status'}
        >
          {session.notice.text}
          <button
            type="button"
            className="btn ghost small"
            aria-label="Dismiss"
            onClick={() => session.setNotice(null)}
          >
            ×
          </button>
        </div>
      ) : null}

      <div className="editor-grid">
        <section className="editor-main panel">
          <div className="editor-tabs">
            <div className="editor-tablist" role="tablist" aria-label="Files">
              {tabs.map((t) => (
                <FileTab
                  key={t.path}
                  file={t}
                  active={current?.path === t.path}
                  problems={diags.filter((d) => d.file === t.path)}
                  onClick={() => setActive(t.path)}
                />
              ))}
            </div>
            {!session.files.has('skill.spec.yml') && session.loaded ? (
              <button
                type="button"
                className="editor-tab add"
                onClick={() => (session.createFile('skill.spec.yml', specTemplate(dir)), setActive('skill.spec.yml'))}
              >
                + skill.spec.yml
              </button>
            ) : null}
            {session.loaded ? (
              <button
                type="button"
                className="editor-tab add"
                data-testid="new-eval"
                onClick={() => setActive(session.createFile(newEvalPath(session.files), evalTemplate(dir)).path)}
              >
                + eval
              </button>
            ) : null}
            {session.loaded ? (
              adding ? (
                <NewPromptInput
                  onDone={(name) => {
                    setAdding(false);
                    if (name) {
                      const path = `prompts/${name}.md`;
                      session.createFile(path, `Instructions the body pulls in with {{prompt.${name}}}.\n`);
                      setActive(path);
                    }
                  }}
                />
              ) : (
                <button type="button" className="editor-tab add" onClick={() => setAdding(true)}>
                  + prompt
                </button>
              )
            ) : null}
          </div>
          {current?.path === 'SKILL.md' && meter ? <BudgetMeter meter={meter} /> : null}
          {current?.path.startsWith('evals/') ? (
            <div className="editor-hint small muted">
              An eval (spec/SPEC.md "Evals") — completion and hover from the eval schema; Ctrl+Space for fields. Run it
              from the Evals view.
            </div>
          ) : null}
          {current?.path === 'skill.spec.yml' ? (
            <div className="editor-hint small muted">
              SkillSpec v0 — completion and hover from the SkillSpec schema; Ctrl+Space for fields.
            </div>
          ) : null}
          <div className="editor-host" ref={host} data-file={current?.path ?? ''} />
          <p className="editor-keys small muted" data-testid="editor-keys">
            Tab indents inside the editor — <kbd>Esc</kbd> leaves it (or <kbd>Ctrl</kbd>+<kbd>M</kbd>, then Tab moves
            focus) · <kbd>Ctrl</kbd>+<kbd>S</kbd> saves
          </p>
          <Problems
            diagnostics={diags}
            files={session.files}
            onReveal={reveal}
            onFix={(d, fix) => session.applyFix(d.file, fix.edits)}
          />
        </section>
        <aside className="editor-side" aria-label="Previews">
          <PreviewSlot project={project} dir={dir} files={session.snapshot} />
        </aside>
      </div>

      {diffFor && session.files.get(diffFor)?.conflict ? (
        <DiffDialog
          file={session.files.get(diffFor)!}
          onKeepMine={async () => {
            const r = await session.save(diffFor, true);
            if (r === 'saved') setDiffFor(null);
          }}
          onTakeDisk={() => {
            session.takeDisk(diffFor);
            setDiffFor(null);
          }}
          onClose={() => setDiffFor(null)}
        />
      ) : null}
    </main>
  );
}

/** The first free `evals/new[-n].eval.yaml`. */
function newEvalPath(files: ReadonlyMap<string, unknown>): string {
  for (let n = 1; ; n++) {
    const p = `evals/new${n === 1 ? '' : `-${n}`}.eval.yaml`;
    if (!files.has(p)) return p;
  }
}

function specTemplate(dir: string): string {
  return [
    'schema: skillspec/v0',
    `id: ${dir.replace(/[^a-z0-9_.-]/g, '-')}`,
    `title: ${dir}`,
    'description: When this skill applies and what it decides.',
    'routes: []',
    '',
  ].join('\n');
}

function NewPromptInput({ onDone }: { onDone: (name: string | null) => void }) {
  const [v, setV] = useState('');
  const ok = /^[a-z0-9][a-z0-9-]*$/.test(v);
  return (
    <form
      className="editor-tab add-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (ok) onDone(v);
      }}
    >
      <span className="mono small">prompts/</span>
      <input
        autoFocus
        value={v}
        aria-label="Prompt name"
        placeholder="name"
        onChange={(e) => setV(e.target.value)}
        onBlur={() => !v && onDone(null)}
        onKeyDown={(e) => e.key === 'Escape' && onDone(null)}
      />
      <span className="mono small">.md</span>
    </form>
  );
}

function FileTab({
  file,
  active,
  problems,
  onClick,
}: {
  file: FileState;
  active: boolean;
  problems: Diagnostic[];
  onClick: () => void;
}) {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  return (
    <button
      type="button"
      role="tab"
      aria-selected={active}
      className={`editor-tab ${active ? 'active' : ''} ${file.dirty ? 'dirty' : ''}`}
      data-tab={file.path}
      title={file.dirty ? `${file.path} — unsaved changes${file.restored ? ' (restored draft)' : ''}` : file.path}
      onClick={onClick}
    >
      <span className="mono">{file.path}</span>
      {errors ? (
        <span className="tab-count fail">{errors}</span>
      ) : warnings ? (
        <span className="tab-count warn">{warnings}</span>
      ) : null}
      {file.conflict ? (
        <span className="tab-flag" title="changed on disk">
          !
        </span>
      ) : null}
      {file.dirty ? <span className="tab-dirty" aria-label="unsaved" /> : null}
    </button>
  );
}

function StatusBadge({
  summary,
  loaded,
}: {
  summary: { errors: number; warnings: number; blocking: number } | undefined;
  loaded: boolean;
}) {
  if (!loaded || !summary) return <span className="badge">checking…</span>;
  if (summary.blocking)
    return (
      <span className="badge fail" data-status="blocking">
        {summary.blocking} blocking
      </span>
    );
  if (summary.errors)
    return (
      <span className="badge fail" data-status="fail">
        {summary.errors} error{summary.errors === 1 ? '' : 's'}
      </span>
    );
  if (summary.warnings)
    return (
      <span className="badge warn" data-status="warn">
        {summary.warnings} warning{summary.warnings === 1 ? '' : 's'}
      </span>
    );
  return (
    <span className="badge pass" data-status="pass">
      lint passes
    </span>
  );
}

function BudgetMeter({ meter }: { meter: Meter }) {
  const bar = (label: string, used: number, limit: number, title: string) => {
    const pct = limit > 0 ? used / limit : 1;
    const tone = pct > 1 ? 'fail' : pct > 0.85 ? 'warn' : 'pass';
    return (
      <div className={`ed-meter ${tone}`} title={title} data-meter={label}>
        <span className="ed-meter-label">{label}</span>
        <span className="ed-meter-track" aria-hidden="true">
          <span className="ed-meter-fill" style={{ width: `${Math.min(100, pct * 100)}%` }} />
        </span>
        <span className="ed-meter-value mono">
          {used.toLocaleString()} / {limit.toLocaleString()} tok
        </span>
      </div>
    );
  };
  return (
    <div className="editor-meters" aria-label="Token budget">
      {bar(
        'Body',
        meter.bodyTokens,
        meter.budget,
        'Estimated tokens of the compiled body (prompts inlined) against context.budget',
      )}
      {bar(
        'Standing stub',
        meter.stubTokens,
        meter.standing,
        'What a lazy agent keeps in every session, against context.standing (highlighted in the text)',
      )}
      <span className={`pill ${meter.disclosure}`}>
        <Word word={meter.disclosure} />
      </span>
    </div>
  );
}

function Problems({
  diagnostics,
  files,
  onReveal,
  onFix,
}: {
  diagnostics: readonly Diagnostic[];
  files: ReadonlyMap<string, FileState>;
  onReveal: (d: Diagnostic) => void;
  onFix: (d: Diagnostic, fix: Diagnostic['fixes'][number]) => void;
}) {
  return (
    <div className="editor-problems" aria-label="Problems">
      <div className="editor-problems-head">
        <h3>Problems</h3>
        <span className="muted small">
          {diagnostics.length ? `${diagnostics.length}` : 'none — same checks as skillsmith lint'}
        </span>
      </div>
      <ul>
        {diagnostics.map((d, i) => (
          <li key={i} className={`ed-problem ${d.severity} ${d.blocking ? 'blocking' : ''}`} data-code={d.code}>
            <button type="button" onClick={() => onReveal(d)} disabled={!files.has(d.file)} title={d.message}>
              <span className={`sev ${d.severity}`} aria-label={d.severity}>
                {d.severity === 'error' ? '●' : '▲'}
              </span>
              <span className="mono small loc">
                {d.file}:{d.range.startLine}:{d.range.startColumn}
              </span>
              {d.blocking ? <span className="pill block">blocks install</span> : null}
              <span className="msg">{d.message.split('\n')[0]}</span>
            </button>
            {d.fixes.length && files.has(d.file) ? (
              <button
                type="button"
                className="btn small fix-btn"
                title={d.fixes[0]!.title}
                onClick={() => onFix(d, d.fixes[0]!)}
              >
                {d.fixes[0]!.title}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

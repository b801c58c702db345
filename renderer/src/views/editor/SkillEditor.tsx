import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { evalTemplate } from '../../../../shared/evals/template';
import { monaco, type editor } from '../../monaco/setup';
import { useDashboard } from '../../queries';
import type { Diagnostic, QuickFix } from './analyze';
import { BudgetMeter } from './BudgetMeter';
import { REPIN_EVENT, runEditorCommand } from './codeActions';
import { ConflictBanners } from './ConflictBanners';
import { DiffDialog } from './DiffDialog';
import { EditorHead } from './EditorHead';
import { FileTabs } from './FileTabs';
import { firstTab, forgetOpen, rememberOpen } from './lastOpen';
import { NoticeStack } from './NoticeStack';
import { PreviewSlot } from './PreviewSlot';
import { Problems } from './Problems';
import { newEvalPath, promptTemplate, specTemplate } from './templates';
import { skillFolder, useEditorSession } from './useEditorSession';
import { useMonacoEditor } from './useMonacoEditor';
import { useStubDecoration } from './useStubDecoration';
import { WatchGapBanner } from './WatchGapBanner';

const RepinDialog = lazy(() => import('../install/RepinDialog').then((m) => ({ default: m.RepinDialog })));

/** One skill open: its files in Monaco with live diagnostics, quick fixes and the previews beside. */
export function SkillEditor({ project, dir, file }: { project: ProjectRef; dir: string; file?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const ed = useRef<editor.IStandaloneCodeEditor | null>(null);
  const session = useEditorSession(project, dir, ed);
  const [active, setActive] = useState(() => firstTab(project.root, dir, file));
  const [diffFor, setDiffFor] = useState<string | null>(null);
  const [repinning, setRepinning] = useState(false);
  const row = useDashboard(project.root).data?.skills.find((s) => s.dir === dir);
  // The drift fix (Monaco's menu or the Problems list): review this skill's saved files here, edits kept.
  useEffect(() => {
    const open = (e: Event) => (e as CustomEvent<{ dir: string }>).detail.dir === dir && setRepinning(true);
    window.addEventListener(REPIN_EVENT, open);
    return () => window.removeEventListener(REPIN_EVENT, open);
  }, [dir]);

  const tabs = session.tabs();
  const current = session.files.get(active) ?? (session.loaded ? tabs[0] : undefined);
  const shownPath = current?.path;
  useEffect(() => {
    if (shownPath) rememberOpen(project.root, dir, shownPath);
  }, [project.root, dir, shownPath]);

  const saveFile = useCallback(
    async (path: string): Promise<void> => {
      if ((await session.save(path)) === 'conflict') setDiffFor(path);
    },
    [session],
  );
  useMonacoEditor(host, ed, session, current, (path) => void saveFile(path));
  useStubDecoration(ed, shownPath === 'SKILL.md', session.analysis?.stub ?? null, session.analysis?.meter ?? null);

  async function saveAll(): Promise<void> {
    for (const t of session.tabs()) {
      if (!t.dirty) continue;
      if ((await session.save(t.path)) === 'conflict') {
        setActive(t.path);
        setDiffFor(t.path);
        return;
      }
    }
  }

  const reveal = useCallback(
    (d: Diagnostic): void => {
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
    },
    [session],
  );
  const fix = useCallback(
    (d: Diagnostic, f: QuickFix): void => {
      if (f.command) runEditorCommand(f.command);
      else session.applyFix(d.file, f.edits);
    },
    [session],
  );
  const tabKey = tabs.map((t) => t.path).join('\n');
  const editable = useMemo(() => new Set(tabKey.split('\n')), [tabKey]);

  if (session.loadError) {
    return (
      <main className="ed-page">
        <div className="panel ed-error" role="alert">
          <h1>Cannot open {dir}</h1>
          <p>{session.loadError}</p>
          <a className="btn" href="#/editor" onClick={() => forgetOpen(project.root)}>
            Back to the skill list
          </a>
        </div>
      </main>
    );
  }

  const diags = session.analysis?.diagnostics ?? [];
  const meter = session.analysis?.meter ?? null;
  const conflicted = diffFor ? session.files.get(diffFor) : undefined;

  return (
    <main className="ed-page">
      <EditorHead
        project={project}
        dir={dir}
        path={session.path}
        analysis={session.analysis}
        canSave={!!current?.dirty}
        dirtyCount={tabs.filter((t) => t.dirty).length}
        onBack={() => forgetOpen(project.root)}
        onSave={() => current && void saveFile(current.path)}
        onSaveAll={() => void saveAll()}
      />
      <WatchGapBanner root={project.root} path={skillFolder(session)} />
      <ConflictBanners files={tabs} onResolve={(path) => (setActive(path), setDiffFor(path))} />
      <div className="ed-grid">
        <section className="ed-main panel">
          <FileTabs
            tabs={tabs}
            current={shownPath}
            diagnostics={diags}
            loaded={session.loaded}
            onSelect={setActive}
            {...(session.files.has('skill.spec.yml')
              ? {}
              : { onAddSpec: () => setActive(session.createFile('skill.spec.yml', specTemplate(dir)).path) })}
            onAddEval={() => setActive(session.createFile(newEvalPath(session.files), evalTemplate(dir)).path)}
            onAddPrompt={(name) => setActive(session.createFile(`prompts/${name}.md`, promptTemplate(name)).path)}
          />
          {shownPath === 'SKILL.md' && meter ? <BudgetMeter meter={meter} /> : null}
          {shownPath?.startsWith('evals/') ? (
            <div className="ed-hint small muted">
              An eval (spec/SPEC.md "Evals") — completion and hover from the eval schema; Ctrl+Space for fields. Run it
              from the Evals view.
            </div>
          ) : null}
          {shownPath === 'skill.spec.yml' ? (
            <div className="ed-hint small muted">
              SkillSpec v0 — completion and hover from the SkillSpec schema; Ctrl+Space for fields.
            </div>
          ) : null}
          <div className="ed-host" ref={host} data-file={shownPath ?? ''} />
          <p className="ed-keys small muted" data-testid="editor-keys">
            Tab indents inside the editor — <kbd>Esc</kbd> leaves it (or <kbd>Ctrl</kbd>+<kbd>M</kbd>, then Tab moves
            focus) · <kbd>Ctrl</kbd>+<kbd>S</kbd> saves · <kbd>Ctrl</kbd>+<kbd>.</kbd> quick fixes
          </p>
          <Problems diagnostics={diags} editable={editable} onReveal={reveal} onFix={fix} />
        </section>
        <aside className="ed-side" aria-label="Previews">
          <PreviewSlot project={project} dir={dir} files={session.snapshot} dirty={tabs.some((t) => t.dirty)} />
        </aside>
      </div>
      <NoticeStack notices={session.notices} />

      {repinning && row ? (
        <Suspense fallback={null}>
          <RepinDialog
            root={project.root}
            skills={[row]}
            unsaved={tabs.some((t) => t.dirty)}
            onClose={() => {
              setRepinning(false);
              ed.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
      {diffFor && conflicted?.conflict ? (
        <DiffDialog
          file={conflicted}
          onKeepMine={async () => {
            if ((await session.save(diffFor, true)) === 'saved') setDiffFor(null);
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

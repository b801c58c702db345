import { lazy, Suspense, useEffect } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { useDashboard } from '../../queries';
import { loadMonacoInStages } from '../../monaco/load';
import { routeHash } from '../../route';
import { EditorLoading } from './EditorLoading';
import { lastOpen } from './lastOpen';
import { SkillIndex } from './SkillIndex';
import './editor-page.css';
import './editor-tabs.css';
import './editor-problems.css';
import './editor-index.css';
import './editor-diff.css';

// Monaco comes with the skill editor: the skill list opens without parsing it. Its core is
// evaluated in stages first, so the page keeps painting while it loads.
const SkillEditor = lazy(() =>
  loadMonacoInStages()
    .then(() => import('./SkillEditor'))
    .then((m) => ({ default: m.SkillEditor })),
);

/** `#/editor/<dir>` or `#/editor/<dir>/<file>` (the file's tab is opened). */
export function parseEditorArg(arg: string | undefined): { dir: string; file?: string } | null {
  if (!arg) return null;
  const i = arg.indexOf('/');
  return i < 0 ? { dir: arg } : { dir: arg.slice(0, i), file: arg.slice(i + 1) };
}

export function EditorView({ project, arg }: { project: ProjectRef; arg?: string }) {
  const target = parseEditorArg(arg);
  if (!target) return <Reopen project={project} />;
  return (
    <Suspense fallback={<EditorLoading />}>
      <SkillEditor
        key={`${project.root}\u0000${target.dir}`}
        project={project}
        dir={target.dir}
        {...(target.file ? { file: target.file } : {})}
      />
    </Suspense>
  );
}

/**
 * The Editor tab with no skill named: the skill that was open last in this project comes
 * back (after a reload or a switch to another project and back), else the skill list.
 */
function Reopen({ project }: { project: ProjectRef }) {
  const skills = useDashboard(project.root).data?.skills;
  const last = lastOpen(project.root);
  const back = last && skills?.some((s) => s.dir === last.dir) ? last.dir : null;
  useEffect(() => {
    // In place of `#/editor`, so Back leaves the editor instead of bouncing into it again.
    if (back) window.location.replace(routeHash({ view: 'editor', arg: back }));
  }, [back]);
  return back ? <main className="ed-page muted">Opening {back}…</main> : <SkillIndex project={project} />;
}

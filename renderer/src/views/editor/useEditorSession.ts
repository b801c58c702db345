import { useEffect, useMemo, useSyncExternalStore, type RefObject } from 'react';
import type { ProjectRef } from '../../../../shared/ipc';
import { useApi } from '../../api/context';
import type { editor } from '../../monaco/setup';
import { useDashboard } from '../../queries';
import { FLUSH_DRAFTS_EVENT } from './drafts';
import { EditorSession } from './session';

/**
 * The session of skill `dir`, loaded once and disposed with the view; it re-renders the
 * caller when it changes. It keeps its drafts when the page goes away, follows changes
 * on disk and the lock's verdict on the skill from the dashboard, and — in the test build
 * only — is reachable from the e2e suites through `window.__skillsmithEditor`.
 */
export function useEditorSession(
  project: ProjectRef,
  dir: string,
  ed: RefObject<editor.IStandaloneCodeEditor | null>,
): EditorSession {
  const api = useApi();
  const session = useMemo(() => new EditorSession(api, project.root, dir), [api, project.root, dir]);
  useSyncExternalStore(session.subscribe, session.version);

  useEffect(() => {
    void session.load();
    let removeHook: (() => void) | undefined;
    let gone = false;
    if (__SKILLSMITH_TEST_HOOKS__)
      void import('./testHook').then((m) => {
        if (!gone) removeHook = m.installTestHook(session, () => ed.current);
      });
    const unload = () => session.flushDrafts();
    window.addEventListener('beforeunload', unload);
    window.addEventListener(FLUSH_DRAFTS_EVENT, unload);
    return () => {
      gone = true;
      window.removeEventListener('beforeunload', unload);
      window.removeEventListener(FLUSH_DRAFTS_EVENT, unload);
      removeHook?.();
      session.dispose();
    };
  }, [session, ed]);

  // Files changed on disk (another editor, git, the CLI): reconcile. The watch reports them;
  // coming back to the window reads them again too, since the watch can miss a folder (over
  // the system's watch limit) and an edit made elsewhere is what a person comes back from.
  useEffect(() => {
    const off = api.on('project.changed', (e) => {
      if (e.root !== project.root) return;
      // Read at each change: where the folder is, is known only once the load is in.
      const folder = skillFolder(session);
      if (e.paths.length === 0 || e.paths.some((p) => p === folder || p.startsWith(`${folder}/`)))
        void session.refreshFromDisk();
    });
    const back = () => void session.refreshFromDisk();
    window.addEventListener('focus', back);
    return () => {
      off();
      window.removeEventListener('focus', back);
    };
  }, [api, session, project.root]);

  const drift = useDashboard(project.root).data?.skills.find((s) => s.dir === dir)?.lock === 'drift';
  useEffect(() => session.setDrift(drift), [session, drift]);

  return session;
}

/** The skill's folder in the project: where the load found it, or where KSF puts it until then. */
export function skillFolder(session: EditorSession): string {
  return session.path || `.kitbash/skills/${session.dir}`;
}

/**
 * The e2e suites' and the editor bench's window onto the open editor session. Compiled
 * only into the test build (out/renderer-test, `__SKILLSMITH_TEST_HOOKS__`); the shipped
 * renderer has neither this module nor the global (tests/views/bundle.test.ts checks).
 */
import { monaco, type editor } from '../../monaco/setup';
import type { EditorSession } from './session';

export interface EditorTestHook {
  stats: EditorSession['live']['stats'];
  analysis: () => EditorSession['analysis'];
  markers: (file: string) => editor.IMarker[];
  /** Markers of every owner (skillsmith and monaco-yaml's schema validation). */
  allMarkers: (file: string) => editor.IMarker[];
  value: (file: string) => string | undefined;
  dirty: () => string[];
  /** Put the cursor at line/column of the active file and focus the editor. */
  goto: (line: number, column?: number) => void;
}

declare global {
  interface Window {
    __skillsmithEditor?: EditorTestHook;
  }
}

/** Install the hook for `session`; the returned function removes it. */
export function installTestHook(session: EditorSession, ed: () => editor.IStandaloneCodeEditor | null): () => void {
  const hook: EditorTestHook = {
    stats: session.live.stats,
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
      const instance = ed();
      instance?.setPosition({ lineNumber: line, column });
      instance?.revealLineInCenter(line);
      instance?.focus();
    },
  };
  window.__skillsmithEditor = hook;
  return () => {
    if (window.__skillsmithEditor === hook) delete window.__skillsmithEditor;
  };
}

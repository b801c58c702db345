import { useEffect, useRef, type RefObject } from 'react';
import { monaco, themeName, type editor } from '../../monaco/setup';
import type { EditorSession, FileState } from './session';

/** Monaco's own Escape users: while one of them is open, Escape is theirs. */
const MONACO_ESCAPE =
  '!suggestWidgetVisible && !codeActionMenuVisible && !findWidgetVisible && !renameInputVisible && !parameterHintsVisible && !inSnippetMode && !markersNavigationVisible && !accessibilityHelpWidgetVisible';

/**
 * The Monaco editor in `host` (held in `ed`), once per session: Ctrl/⌘+S saves the shown file, Escape
 * leaves the editor for the active file tab (Tab is taken for indenting), and each key
 * down is noted for the keystroke → markers timing. `current` is shown, each file keeping
 * its scroll and cursor.
 */
export function useMonacoEditor(
  host: RefObject<HTMLDivElement | null>,
  ed: RefObject<editor.IStandaloneCodeEditor | null>,
  session: EditorSession,
  current: FileState | undefined,
  onSave: (path: string) => void,
): void {
  const save = useRef(onSave);
  save.current = onSave;

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
      // allowedLocales only tunes the ambiguous-character check, which is off. Its default
      // ("_os") makes the first model shown start Intl (ICU) on the main thread: with the
      // editor's first render, a 200–350 ms task (bench/desktop.mjs long tasks).
      unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: false, allowedLocales: {} },
      scrollBeyondLastLine: false,
      // Monaco's dimmed final line number fails contrast (axe); a plain one does not.
      renderFinalNewline: 'on',
      padding: { top: 10, bottom: 10 },
      fixedOverflowWidgets: true,
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      'semanticHighlighting.enabled': false,
      // What Monaco would recompute over the whole file after each key, and no one here
      // uses: on a 20,000-token SKILL.md with a few thousand URLs, the link detector and
      // the word highlighter were the longest tasks on the main thread while typing.
      // Completion comes from our providers (skill.toml) and the schemas (YAML), not
      // from the words of the document.
      links: false,
      occurrencesHighlight: 'off',
      selectionHighlight: false,
      wordBasedSuggestions: 'off',
      colorDecorators: false,
      codeLens: false,
    });
    instance.getContainerDomNode().style.visibility = 'hidden';
    ed.current = instance;
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => {
      const shown = session.fileOf(instance.getModel());
      if (shown) save.current(shown.path);
    });
    instance.addCommand(
      monaco.KeyCode.Escape,
      () => document.querySelector<HTMLElement>('.ed-tablist [role="tab"][aria-selected="true"]')?.focus(),
      MONACO_ESCAPE,
    );
    const keydown = instance.onKeyDown((e) => session.live.markKeystroke(e.browserEvent.timeStamp));
    return () => {
      keydown.dispose();
      instance.dispose();
      ed.current = null;
    };
  }, [host, ed, session]);

  useEffect(() => {
    const instance = ed.current;
    if (!instance || !current || instance.getModel() === current.model) return;
    if (instance.getModel() !== null) return show(session, instance, current);
    // The first file shown attaches in a task of its own: together with the task that read
    // the files and rendered the page it was one main-thread task of 200–400 ms
    // (bench/desktop.mjs, long tasks). Until then the editor is hidden, so nothing can be
    // typed into an editor with no file.
    const later = setTimeout(() => show(session, instance, current), 0);
    return () => clearTimeout(later);
  });
}

/** Show `file` in `instance`, the file shown before keeping its scroll and cursor. */
function show(session: EditorSession, instance: editor.IStandaloneCodeEditor, file: FileState): void {
  const prev = session.fileOf(instance.getModel());
  if (prev) prev.viewState = instance.saveViewState();
  instance.getContainerDomNode().style.visibility = '';
  instance.setModel(file.model);
  // Suggestions while typing where there is something to suggest (keys, schema fields), not in prose.
  instance.updateOptions({ quickSuggestions: file.model.getLanguageId() !== 'markdown' });
  if (file.viewState) instance.restoreViewState(file.viewState);
  instance.focus();
}

/**
 * The editor's side of Monaco's language features, registered once per page: completion
 * for skill.toml, and the quick fixes of each model's diagnostics as code actions
 * (Ctrl+. / the light bulb). A fix that opens another screen runs through one command.
 */
import type { languages } from 'monaco-editor';
import { navigate } from '../../route';
import { monaco, type editor } from '../../monaco/setup';
import type { Diagnostic, EditorCommand, Range } from './analyze';
import { tomlCompletions } from './tomlComplete';

/** Diagnostics by model URI, for the one code-action provider. */
const byModel = new Map<string, readonly Diagnostic[]>();
let registered = false;
const RUN_COMMAND = 'skillsmith.editor.command';

export function setModelDiagnostics(model: editor.ITextModel, diagnostics: readonly Diagnostic[] | null): void {
  if (diagnostics) byModel.set(model.uri.toString(), diagnostics);
  else byModel.delete(model.uri.toString());
}

/** Asks the open editor of skill `detail.dir` to show its re-pin review. */
export const REPIN_EVENT = 'skillsmith:editor-repin';

/** What a fix's command does: it only opens another screen or a dialog, which asks before it writes. */
export function runEditorCommand(c: EditorCommand): void {
  if (c.kind === 'repin') window.dispatchEvent(new CustomEvent(REPIN_EVENT, { detail: { dir: c.dir } }));
  else navigate({ view: c.view, ...(c.arg !== undefined ? { arg: c.arg } : {}) });
}

const toMonaco = (r: Range) => new monaco.Range(r.startLine, r.startColumn, r.endLine, r.endColumn);

export function markerOf(d: Diagnostic): editor.IMarkerData {
  return {
    severity:
      d.severity === 'error'
        ? monaco.MarkerSeverity.Error
        : d.severity === 'warning'
          ? monaco.MarkerSeverity.Warning
          : monaco.MarkerSeverity.Info,
    message: d.message,
    code: d.code,
    source: d.blocking ? 'skillsmith · safety' : 'skillsmith',
    startLineNumber: d.range.startLine,
    startColumn: d.range.startColumn,
    endLineNumber: d.range.endLine,
    endColumn: d.range.endColumn,
  };
}

export function registerLanguageFeatures(): void {
  if (registered) return;
  registered = true;
  monaco.editor.registerCommand(RUN_COMMAND, (_accessor, c: EditorCommand) => runEditorCommand(c));
  monaco.languages.registerCompletionItemProvider('toml', {
    triggerCharacters: ['['],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const suggestions = tomlCompletions(model.getValue(), position.lineNumber, position.column).map((s) => ({
        label: s.label,
        kind:
          s.kind === 'table'
            ? monaco.languages.CompletionItemKind.Module
            : monaco.languages.CompletionItemKind.Property,
        insertText: s.insert,
        detail: s.kind === 'table' ? 'KSF manifest table' : 'KSF manifest key',
        range,
      }));
      return { suggestions };
    },
  });
  for (const lang of ['toml', 'yaml', 'markdown']) {
    monaco.languages.registerCodeActionProvider(lang, {
      provideCodeActions(model, range) {
        const actions: languages.CodeAction[] = [];
        for (const d of byModel.get(model.uri.toString()) ?? []) {
          if (!monaco.Range.areIntersectingOrTouching(toMonaco(d.range), range)) continue;
          d.fixes.forEach((fix, i) => {
            actions.push({
              title: fix.title,
              kind: 'quickfix',
              isPreferred: i === 0,
              diagnostics: [{ ...markerOf(d), resource: model.uri } as never],
              ...(fix.edits.length
                ? {
                    edit: {
                      edits: fix.edits.map((e) => ({
                        resource: model.uri,
                        versionId: model.getVersionId(),
                        textEdit: { range: toMonaco(e.range), text: e.text },
                      })),
                    },
                  }
                : {}),
              ...(fix.command ? { command: { id: RUN_COMMAND, title: fix.title, arguments: [fix.command] } } : {}),
            });
          });
        }
        return { actions, dispose: () => undefined };
      },
    });
  }
}

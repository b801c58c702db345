/**
 * Monaco, bundled locally: the editor core (no CDN, no language packs we do not use),
 * Markdown and YAML highlighting, TOML from our own Monarch grammar, and monaco-yaml's
 * language service for skill.spec.yml with the SkillSpec JSON Schema inlined — schema
 * requests over the network are off. Workers are Vite-built chunks served from 'self'.
 */
import * as monaco from 'monaco-editor/esm/vs/editor/edcore.main.js';
import 'monaco-editor/esm/vs/basic-languages/markdown/markdown.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import { createWebWorker } from 'monaco-editor/esm/vs/common/workers.js';
import { configureMonacoYaml } from 'monaco-yaml';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import YamlWorker from 'monaco-yaml/yaml.worker.js?worker';
import specSchema from '../../../spec/schema/skill.spec.schema.json';
import evalSchema from '../../../spec/schema/eval.schema.json';
import { tomlConfiguration, tomlLanguage } from './toml';

export type { editor, languages, IDisposable, IRange, Uri as MonacoUri } from 'monaco-editor';
export { monaco };

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

window.MonacoEnvironment = {
  getWorker(_id: string, label: string): Worker {
    return label === 'yaml' ? new YamlWorker({ name: 'yaml' }) : new EditorWorker({ name: 'editor' });
  },
};

// Monaco rejects pending worker requests with its CancellationError ("Canceled") when a
// model or editor is disposed mid-request (switching files, closing the diff); Monaco
// itself treats that as expected, so an unawaited one must not surface as a page error.
window.addEventListener('unhandledrejection', (event) => {
  const reason: unknown = event.reason;
  if (reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled') event.preventDefault();
});

monaco.languages.register({ id: 'toml', extensions: ['.toml'], aliases: ['TOML'] });
monaco.languages.setMonarchTokensProvider('toml', tomlLanguage);
monaco.languages.setLanguageConfiguration('toml', tomlConfiguration);

/** The schema's own $id: monaco-yaml matches it by URI and never fetches it. */
export const SPEC_SCHEMA_URI = (specSchema as { $id?: string }).$id ?? 'skillsmith:skill.spec.schema.json';

// monaco-yaml creates its worker with the pre-0.55 options (moduleId, label, createData);
// 0.55's `editor.createWebWorker` wants a Worker instead, and its package entry keeps the
// old signature as the separate `createWebWorker` export. Hand monaco-yaml that one.
const monacoForYaml = { ...monaco, editor: { ...monaco.editor, createWebWorker } } as unknown as typeof monaco;

export const monacoYaml = configureMonacoYaml(monacoForYaml, {
  enableSchemaRequest: false,
  completion: true,
  hover: true,
  validate: true,
  schemas: [
    { uri: SPEC_SCHEMA_URI, fileMatch: ['**/skill.spec.yml'], schema: specSchema as object },
    {
      uri: (evalSchema as { $id?: string }).$id ?? 'skillsmith:eval.schema.json',
      fileMatch: ['**/evals/*.eval.yaml'],
      schema: evalSchema as object,
    },
  ],
});

const dark = window.matchMedia?.('(prefers-color-scheme: dark)');
monaco.editor.defineTheme('skillsmith-light', {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'key', foreground: '5b5bd6' },
    { token: 'type.identifier', foreground: 'd6409f', fontStyle: 'bold' },
  ],
  colors: {
    'editor.background': '#ffffff',
    'editorGutter.background': '#f9fafb',
    'editorLineNumber.foreground': '#646d7a',
  },
});
monaco.editor.defineTheme('skillsmith-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [
    { token: 'key', foreground: '8b8bff' },
    { token: 'type.identifier', foreground: 'f06ab8', fontStyle: 'bold' },
  ],
  colors: {
    'editor.background': '#171b22',
    'editorGutter.background': '#1c212a',
    'editorLineNumber.foreground': '#8d97a5',
  },
});

export function themeName(): string {
  return dark?.matches ? 'skillsmith-dark' : 'skillsmith-light';
}
dark?.addEventListener?.('change', () => monaco.editor.setTheme(themeName()));

export function languageOf(path: string): string {
  if (path.endsWith('.toml')) return 'toml';
  if (path.endsWith('.yml') || path.endsWith('.yaml')) return 'yaml';
  if (path.endsWith('.md')) return 'markdown';
  return 'plaintext';
}

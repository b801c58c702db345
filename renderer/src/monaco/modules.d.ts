// Vite's `?worker` imports (a Worker constructor for a module built as its own chunk) and
// Monaco's editor-core entry, which has the API of the full package without its languages.
declare module '*?worker' {
  const WorkerFactory: { new (options?: { name?: string }): Worker };
  export default WorkerFactory;
}

declare module 'monaco-editor/esm/vs/editor/edcore.main.js' {
  export * from 'monaco-editor';
}
declare module 'monaco-editor/esm/vs/basic-languages/markdown/markdown.contribution.js';
declare module 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
declare module 'monaco-editor/esm/vs/common/workers.js' {
  export function createWebWorker<T extends object>(opts: {
    moduleId: string;
    label?: string;
    createData?: unknown;
    createWorker?: () => Worker;
    host?: unknown;
    keepIdleModels?: boolean;
  }): import('monaco-editor').editor.MonacoWebWorker<T>;
}

// tooling/monaco-stages.ts: one loader per stage of Monaco's editor core, in evaluation order.
declare module 'virtual:monaco-stages' {
  export const STAGES: readonly (() => Promise<unknown>)[];
}

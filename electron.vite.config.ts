import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { UserConfig } from 'vite';
import { monacoStages } from './tooling/monaco-stages';

// One build for every runtime piece: the Electron main process and the `skillsmith`
// CLI share the main bundle (and its chunks of shared/), the preload is CommonJS so it
// can run in a sandboxed renderer, and the renderer is a plain Vite React app.
export default defineConfig({
  main: {
    build: {
      target: 'node20',
      // Bundle the pure dependencies (smol-toml, yaml, zod, semver, @noble/hashes, diff,
      // picomatch, node-diff3, mdast-util-from-markdown) into the CLI: resolving their files
      // one by one costs more start-up than the code itself, and zod's package entry loads
      // every locale it has (bundled, only what the contract uses is kept: the app's first
      // IPC call loads the contract 50 ms sooner). ajv stays external and is loaded only by
      // `--schema`.
      externalizeDeps: {
        exclude: [
          'smol-toml',
          'yaml',
          'zod',
          'semver',
          '@noble/hashes',
          'diff',
          'picomatch',
          'node-diff3',
          'mdast-util-from-markdown',
        ],
      },
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          cli: resolve(__dirname, 'main/cli/index.ts'),
          'code-cache': resolve(__dirname, 'main/services/code-cache.ts'),
          'lint-worker': resolve(__dirname, 'main/services/skills/lint-worker.ts'),
          'scan-worker': resolve(__dirname, 'main/services/dashboard/scan-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require node_modules: the contract's zod is bundled in.
      externalizeDeps: { exclude: ['zod'] },
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: rendererConfig({ testHooks: false }),
});

/**
 * The renderer: a plain Vite React app. `testHooks` builds the variant the e2e suites and
 * the editor bench drive (`out/renderer-test`, see vite.test-renderer.config.ts): the same
 * code with the test hooks (`window.__skillsmithEditor`) compiled in. The shipped build has
 * the constant false, so the hooks and their chunk are dropped from it entirely.
 */
export function rendererConfig({ testHooks }: { testHooks: boolean }): UserConfig {
  // Monaco's core evaluated in stages of about this much source (before minification): on
  // the bench machine a stage is then 20–100 ms of main thread (700 kB stages still made
  // 200–450 ms tasks: some modules do far more at load than their size suggests).
  const stages = monacoStages({
    entry: resolve(__dirname, 'node_modules/monaco-editor/esm/vs/editor/edcore.main.js'),
    maxStageBytes: 350_000,
  });
  return {
    root: resolve(__dirname, 'renderer'),
    base: './',
    plugins: [react(), stages.plugin],
    define: { __SKILLSMITH_TEST_HOOKS__: JSON.stringify(testHooks) },
    resolve: {
      alias: {
        // The Markdown reader the lint checks use (micromark) decodes entities with this
        // package, whose "browser" build asks `document` — absent in the analysis worker,
        // where lint runs. Its plain build carries the entity table instead.
        'decode-named-character-reference': resolve(
          __dirname,
          'node_modules/decode-named-character-reference/index.js',
        ),
      },
    },
    // Monaco's editor and YAML workers, and the editor's diagnostics worker, are built here
    // as ES-module chunks (Vite's default iife worker format cannot code-split them);
    // they load from 'self' like the rest of the renderer.
    worker: { format: 'es' },
    build: {
      // The renderer ships to a browser page (and is timed by bench/desktop.mjs): minify it.
      minify: true,
      outDir: resolve(__dirname, testHooks ? 'out/renderer-test' : 'out/renderer'),
      emptyOutDir: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'renderer/index.html') },
        output: { codeSplitting: { groups: stages.chunkGroups } },
      },
      modulePreload: { resolveDependencies: stages.resolveDependencies },
    },
  };
}

import { defineConfig } from 'vite';
import { rendererConfig } from './electron.vite.config';

// `vite build --config vite.test-renderer.config.ts` (part of `npm run build`): the renderer
// with its test hooks, into out/renderer-test, for the e2e suites and bench/editor.mjs.
// Never packaged (electron-builder.yml leaves it out) and never served unless asked for.
export default defineConfig(rendererConfig({ testHooks: true }));

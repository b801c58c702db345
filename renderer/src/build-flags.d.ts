/** Build-time constants (electron.vite.config.ts `define`). */

/** True only in the test build (out/renderer-test): compiles in the hooks the e2e suites and benches drive. */
declare const __SKILLSMITH_TEST_HOOKS__: boolean;

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state (a live watch, a rescan), never times anything: on a loaded
    // machine one second is too short for the watcher to see a file change.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});

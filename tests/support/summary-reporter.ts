import type { Reporter, TestModule } from 'vitest/node';

/**
 * One plain closing line after vitest's own summary — `N passed, N failed, N skipped` —
 * so CI logs state the count in a form any reader can parse.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) counts.failed++;
    }
    process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}

/**
 * Differential conformance against the kitbash reference (0.24.1).
 *
 * For every KSF fixture, kitbash's lint verdicts must equal what Skillsmith is
 * expected to report (expected.json), check by check, except where the fixture
 * names the documented Skillsmith difference (SPEC.md "### D<n>") that explains it.
 * And every difference a fixture claims must really be one, so the list cannot go
 * stale when either side changes. Skillsmith's own CLI is not needed here — its
 * behaviour is checked against the same expected.json by ksf-fixtures.test.ts.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECK_IDS,
  loadKsfFixtures,
  parseKitbashLint,
  statusOf,
  type CheckId,
  type StatusMap,
} from '../support/ksf-fixtures';
import { kitbashEntry, requireOrSkip, runKitbash } from '../support/paths';

const fixtures = loadKsfFixtures();
const haveKitbash = requireOrSkip('the kitbash reference CLI (node_modules/kitbash)', existsSync(kitbashEntry));

describe.skipIf(!haveKitbash)('kitbash differential (spec/conformance/ksf)', () => {
  // kitbash reads kitbash.toml and .kitbash/ from its cwd: give it an empty one.
  let cwd = '';
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'skillsmith-kitbash-'));
  });
  afterAll(() => {
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('has fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  for (const f of fixtures) {
    it(`${f.name}: ${f.expected.title}`, () => {
      const result = runKitbash(['lint', f.skillPath], { cwd });
      const kitbash: StatusMap = parseKitbashLint(result);
      const ours = f.expected.skillsmith.checks;
      const differs = f.expected.kitbashDiffers;

      // kitbash's own exit code agrees with its verdicts (no --strict: warnings exit 0).
      expect(result.code, `kitbash exit code\n${result.stdout}${result.stderr}`).toBe(
        Object.values(kitbash).includes('fail') ? 1 : 0,
      );

      const ids = CHECK_IDS.filter((id: CheckId) => id in kitbash || id in ours);
      const unexplained = ids
        .filter((id) => statusOf(kitbash, id) !== statusOf(ours, id) && !(id in differs))
        .map((id) => `${id}: kitbash ${statusOf(kitbash, id)}, expected skillsmith ${statusOf(ours, id)}`);
      const stale = CHECK_IDS.filter((id) => id in differs && statusOf(kitbash, id) === statusOf(ours, id)).map(
        (id) => `${id} (${differs[id]}): both ${statusOf(ours, id)}`,
      );
      expect({ unexplained, stale }, `kitbash said:\n${result.stdout}${result.stderr}`).toEqual({
        unexplained: [],
        stale: [],
      });
    });
  }
});

/**
 * SkillSpec conformance over the reference corpus (../shared/corpus/skillspec): every
 * valid spec validates (filesystem checks included) and passes all of its scenario
 * tests; every invalid spec is rejected with exactly the expected message.
 * `npm run conformance` runs this file alone; `npm test` runs it with the rest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../main/services/skillspec/load';
import { SpecError } from '../../shared/skillspec/errors';
import { runScenarioTests } from '../../shared/skillspec/scenario';
import { corpusDir, requireOrSkip } from '../support/paths';

const root = join(corpusDir, 'skillspec');
const manifestPath = join(root, 'MANIFEST.json');
const present = requireOrSkip(`the SkillSpec corpus (${manifestPath})`, existsSync(manifestPath));

interface Entry {
  path: string;
  kind: 'valid' | 'invalid';
  tests: number;
}
const manifest: Entry[] = present ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Entry[]) : [];
const valid = manifest.filter((e) => e.kind === 'valid');
const invalid = manifest.filter((e) => e.kind === 'invalid');

describe.skipIf(!present)('SkillSpec corpus: valid specs', () => {
  it('lists the 21 valid specs and 220 scenario tests the README promises', () => {
    expect(valid).toHaveLength(21);
    expect(valid.reduce((n, e) => n + e.tests, 0)).toBe(220);
  });

  it.each(valid.map((e) => [e.path, e] as const))('%s validates and passes every scenario test', (_p, e) => {
    // Paths resolve against the spec's own folder, whatever the working directory is.
    const loaded = loadSpec(e.path, { cwd: root });
    const run = runScenarioTests(loaded.spec);
    expect(run.total).toBe(e.tests);
    expect(run.failed.map((r) => ({ name: r.name, failures: r.failures }))).toEqual([]);
  });
});

describe.skipIf(!present)('SkillSpec corpus: invalid specs', () => {
  it('has invalid fixtures', () => {
    expect(invalid.length).toBeGreaterThanOrEqual(3);
  });

  it.each(invalid.map((e) => [e.path, e] as const))('%s is rejected with the expected message', (_p, e) => {
    const expectedFile = join(root, e.path.replace(/\.yml$/, '.expected-error.txt'));
    const expected = readFileSync(expectedFile, 'utf8')
      .replace(/\r?\n$/, '')
      .replace('<path>', e.path);
    let message: string | undefined;
    try {
      loadSpec(e.path, { cwd: root });
    } catch (err) {
      expect(err).toBeInstanceOf(SpecError);
      message = (err as Error).message;
    }
    expect(message === undefined ? '(accepted)' : `error: ${message}`).toBe(expected);
  });
});

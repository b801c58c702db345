/**
 * spec/schema/skill.spec.schema.json is generated from the model descriptor; this suite
 * keeps the file equal to the generator (SKILLSMITH_UPDATE_SCHEMA=1 rewrites it) and
 * checks that it agrees with the reader on the corpus and on the known disagreements.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { skillSpecJsonSchema } from '../../shared/skillspec/json-schema';
import { corpusDir, repoRoot, requireOrSkip } from '../support/paths';
import { doc, errorOf, load } from './helpers';

const file = join(repoRoot, 'spec', 'schema', 'skill.spec.schema.json');
const generated = `${JSON.stringify(skillSpecJsonSchema(), null, 2)}\n`;
if (process.env.SKILLSMITH_UPDATE_SCHEMA === '1') writeFileSync(file, generated);

const validator = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }).compile(
  JSON.parse(generated) as object,
);
const conforms = (text: string): boolean => validator(parseYaml(text, { version: '1.2' }) as unknown) === true;

describe('the SkillSpec JSON Schema', () => {
  it('is the committed file', () => {
    expect(readFileSync(file, 'utf8')).toBe(generated);
  });

  it('follows the reader where the reference schema is stricter or looser', () => {
    // Accepted by the reader, so accepted by the schema.
    const ok = doc(`routes:
  - id: a
    label: 123
    checks: [Not An Id]
    execution_plan: {phases: []}
rules:
  - {id: r, forbid: [Free Text]}
elicitations:
  q: {question: Q, max_choices: 0, choices: [{id: a, label: A}]}
applies_when: [plain string]
tests:
  - {name: t, input: x, expect: {forbid_exact: []}}
`);
    expect(errorOf(() => load(ok))).toBe('(no error)');
    expect(conforms(ok)).toBe(true);
    // Rejected by the reader, so rejected by the schema.
    for (const bad of [
      doc('tests:\n  - {name: t, input: x, expect: {forbid: []}}\n'),
      doc('rules:\n  - {id: r, preferr: a}\n'),
      doc('routes:\n  - {id: a, label: A, rank: 1.5}\n'),
      doc('commands:\n  Bad: {template: x}\n'),
      doc('elicitations:\n  q: {question: Q, choices: []}\n'),
      doc('trace: {mode: event_log, record: [spec_loaded, spec_loaded]}\n'),
    ]) {
      expect(errorOf(() => load(bad))).not.toBe('(no error)');
      expect(conforms(bad), bad).toBe(false);
    }
  });
});

const manifestPath = join(corpusDir, 'skillspec', 'MANIFEST.json');
const present = requireOrSkip(`the SkillSpec corpus (${manifestPath})`, existsSync(manifestPath));
const entries = present
  ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Array<{ path: string; kind: string }>)
  : [];

describe.skipIf(!present)('the JSON Schema on the corpus', () => {
  it.each(entries.filter((e) => e.kind === 'valid').map((e) => [e.path]))('%s conforms', (p) => {
    const ok = conforms(readFileSync(join(corpusDir, 'skillspec', p), 'utf8'));
    expect(ok, JSON.stringify(validator.errors?.slice(0, 3))).toBe(true);
  });

  it('rejects the unknown-rule-field fixture', () => {
    expect(
      conforms(
        readFileSync(
          join(corpusDir, 'skillspec', 'invalid/conformance/invalid/unknown-rule-field.skill.spec.yml'),
          'utf8',
        ),
      ),
    ).toBe(false);
  });
});

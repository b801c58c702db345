/**
 * "Save as scenario test" text building: the new test lands under `tests:`, everything
 * else stays byte for byte (comments included), the result validates and the new test
 * passes — on the fixture, on empty/absent `tests`, and on corpus specs of both
 * sequence-indentation styles.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendScenario, expectationFrom, scenarioName } from '../../renderer/src/views/playground/scenario-text';
import { checkSpecText, decide, runScenarioTests } from '../../shared/skillspec/index';
import { corpusDir, requireOrSkip } from '../support/paths';
import { TRIAGE_SPEC } from './fixtures';

function spec(text: string) {
  const c = checkSpecText(text);
  if (!c.ok) throw new Error(c.error.message);
  return c.value;
}

function append(text: string, input: string) {
  const s = spec(text);
  const name = scenarioName(
    input,
    s.tests.map((t) => t.name),
  );
  const r = appendScenario(text, { name, input, expect: expectationFrom(decide(s, input)) });
  if (!r.ok) throw new Error(r.message);
  return { name, text: r.text };
}

describe('appendScenario', () => {
  it('appends one test after the last one, keeping every other byte and comment', () => {
    const { name, text } = append(TRIAGE_SPEC, 'we must ship the fix NOW');
    expect(name).toBe('playground: we must ship the fix NOW');
    expect(text.startsWith(TRIAGE_SPEC)).toBe(true);
    expect(text).toContain('# Keep these in file order: the suites count on it.');
    const added = text.slice(TRIAGE_SPEC.length);
    expect(added).toBe(
      [
        '  - name: "playground: we must ship the fix NOW"',
        '    input: we must ship the fix NOW',
        '    expect:',
        '      route: release',
        '      matched_rules_exact:',
        '        - shipping',
        '      elicit:',
        '        - release_channel',
        '      after_success:',
        '        - announce',
        '',
      ].join('\n'),
    );
    const s = spec(text);
    expect(s.tests.map((t) => t.name).slice(-1)).toEqual([name]);
    expect(runScenarioTests(s).results.at(-1)!.failures).toEqual([]);
  });

  it('inserts before what follows the tests list, and names a repeat uniquely', () => {
    const commands = 'commands:\n  announce:\n    template: echo shipped\n';
    const moved = TRIAGE_SPEC.replace(commands, '') + commands;
    const first = append(moved, 'a bug');
    const second = append(first.text, 'a bug');
    expect(second.name).toBe('playground: a bug (2)');
    expect(second.text.endsWith('commands:\n  announce:\n    template: echo shipped\n')).toBe(true);
    expect(
      spec(second.text)
        .tests.map((t) => t.name)
        .slice(-2),
    ).toEqual(['playground: a bug', 'playground: a bug (2)']);
  });

  it('creates the list when `tests` is absent, empty or `[]`', () => {
    const bare = TRIAGE_SPEC.slice(0, TRIAGE_SPEC.indexOf('tests:'));
    for (const variant of [bare, `${bare}tests: []\n`, `${bare}tests:\n`, bare.trimEnd()]) {
      const { text } = append(variant, 'it is broken');
      const s = spec(text);
      expect(s.tests).toHaveLength(1);
      expect(s.tests[0]!.expect.route).toBe('hotfix');
      expect(text.startsWith(bare.trimEnd())).toBe(true);
    }
  });

  it('refuses text that does not parse, with the reason', () => {
    expect(appendScenario('a: [', { name: 'x', input: 'y', expect: { route: 'a' } })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not parse/),
    });
    expect(appendScenario(TRIAGE_SPEC, { name: 'x', input: 'y', expect: { route: 'nowhere' } })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/would not validate: unknown reference "nowhere"/),
    });
  });
});

const valid = join(corpusDir, 'skillspec', 'valid');
describe.skipIf(!requireOrSkip('the SkillSpec corpus at ../shared/corpus/skillspec', existsSync(valid)))(
  'appendScenario on corpus specs',
  () => {
    it.each([
      '.claude/skills/rote-shell/skill.spec.yml',
      'examples/skill-router/skill.spec.yml',
      'examples/durable-executor/skill.spec.yml',
      'skills/skillspec/skill.spec.yml',
    ])('%s keeps the rest of the file and the new test passes', (rel) => {
      const original = readFileSync(join(valid, rel), 'utf8');
      const s = spec(original);
      const input = s.tests[0]!.input + ' and then some';
      const { name, text } = append(original, input);
      const after = spec(text);
      expect(after.tests.length).toBe(s.tests.length + 1);
      expect(after.tests.find((t) => t.name === name)!.input).toBe(input);
      // Only lines were added: removing the new item's lines gives the original back.
      const a = original.split('\n');
      const b = text.split('\n');
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      const addedCount = b.length - a.length;
      expect(b.slice(i + addedCount)).toEqual(a.slice(i));
      expect(b.slice(i, i + addedCount).join('\n')).toContain(JSON.stringify(name).slice(1, -1).slice(0, 20));
      expect(runScenarioTests(after).failed).toEqual([]);
    });
  },
);

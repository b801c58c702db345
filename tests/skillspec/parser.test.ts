/** The strict YAML reader: YAML 1.2 scalars, strictness with positions, hostile input. */
import { describe, expect, it } from 'vitest';
import { SpecError } from '../../shared/skillspec/errors';
import { sortedKeys } from '../../shared/skillspec/model';
import { MAX_ALIAS_NODES, MAX_SPEC_BYTES, oneOf } from '../../shared/skillspec/yaml';
import { doc, errorOf, parse } from './helpers';

const parseError = (text: string): string =>
  errorOf(() => parse(text)).replace(/^failed to parse YAML from spec\.yml: /, '');

describe('YAML 1.2 scalars', () => {
  it('keeps yes/no/on/off as strings (choice ids and a default)', () => {
    const spec = parse(
      doc(`elicitations:
  confirm:
    question: Proceed?
    default: no
    choices:
      - id: yes
        label: on
      - id: no
        label: off
`),
    );
    const e = spec.elicitations['confirm']!;
    expect(e.default).toBe('no');
    expect(e.choices.map((c) => [c.id, c.label])).toEqual([
      ['yes', 'on'],
      ['no', 'off'],
    ]);
  });

  it('gives string fields the scalar text as written', () => {
    const spec = parse(
      `schema: skillspec/v0\nid: t\ntitle: 1.0\ndescription: 0x1F\nroutes:\n  - id: r\n    label: 123\n    description: true\n`,
    );
    expect(spec.title).toBe('1.0');
    expect(spec.description).toBe('0x1F');
    expect(spec.routes[0]!.label).toBe('123');
    expect(spec.routes[0]!.description).toBe('true');
  });

  it('reads null-like values of optional fields as absent, and of string fields as their text', () => {
    const spec = parse(doc('routes:\n  - id: r\n    label: null\n    description: ~\n    rank:\n'));
    expect(spec.routes[0]!.label).toBe('null');
    expect(spec.routes[0]!.description).toBeNull();
    expect(spec.routes[0]!.rank).toBeNull();
  });

  it('accepts integers (decimal, hex, octal, negative) for rank', () => {
    const spec = parse(
      doc(
        'routes:\n  - {id: a, label: A, rank: -3}\n  - {id: b, label: B, rank: 0x10}\n  - {id: c, label: C, rank: 0o7}\n',
      ),
    );
    expect(spec.routes.map((r) => r.rank)).toEqual([-3, 16, 7]);
  });

  it('reads integers the way the reference does: signs, 0b, and leading zeros as text', () => {
    const spec = parse(
      doc(
        'routes:\n  - {id: a, label: A, rank: +0b101}\n  - {id: b, label: B, rank: -0x10}\nmetadata: {z: 007, o: 0b11, f: 1e3, s: +.inf}\n',
      ),
    );
    expect(spec.routes.map((r) => r.rank)).toEqual([5, -16]);
    expect(spec.metadata).toEqual({ z: '007', o: 3, f: 1000, s: Infinity });
    expect(parseError(doc('routes:\n  - {id: a, label: A, rank: 007}\n'))).toBe(
      'routes[0].rank: invalid type: string "007", expected i64 at line 6 column 29',
    );
    expect(parseError(doc('routes:\n  - {id: a, label: A, rank: 9223372036854775808}\n'))).toContain(
      'invalid value: integer `9223372036854775808`, expected i64',
    );
  });

  it('asks for a tag when an enum is written as a mapping', () => {
    expect(parseError(doc('trace:\n  mode: {event_log: 1}\n'))).toBe(
      "trace.mode: invalid type: map, expected a YAML tag starting with '!' at line 6 column 9",
    );
  });

  it('rejects floats and quoted numbers in integer fields', () => {
    expect(parseError(doc('routes:\n  - id: r\n    label: R\n    rank: 1.5\n'))).toBe(
      'routes[0].rank: invalid type: floating point `1.5`, expected i64 at line 8 column 11',
    );
    expect(parseError(doc('routes:\n  - id: r\n    label: R\n    rank: "5"\n'))).toBe(
      'routes[0].rank: invalid type: string "5", expected i64 at line 8 column 11',
    );
    expect(
      parseError(doc('elicitations:\n  q:\n    question: Q?\n    max_choices: -1\n    choices: [{id: a, label: A}]\n')),
    ).toBe('elicitations.q.max_choices: invalid value: integer `-1`, expected u32 at line 8 column 18');
  });

  it('rejects non-booleans in boolean fields (yes is a string)', () => {
    expect(parseError(doc('trace:\n  mode: event_log\n  required: yes\n'))).toBe(
      'trace.required: invalid type: string "yes", expected a boolean at line 7 column 13',
    );
  });

  it('names unknown enum values with the alternatives', () => {
    expect(parseError(doc('trace:\n  mode: log\n'))).toBe(
      'trace.mode: unknown variant `log`, expected `event_log` at line 6 column 9',
    );
    expect(oneOf(['a', 'b'], '')).toBe('expected `a` or `b`');
    expect(oneOf(['a', 'b', 'c'], '')).toBe('expected one of `a`, `b`, `c`');
  });
});

describe('strict typed objects', () => {
  it('rejects an unknown rule field with the path, the expected fields, line and column', () => {
    const text = doc(
      'routes:\n  - id: local\n    label: Local\nrules:\n  - id: r\n    when:\n      user_says_any: [local]\n    preferr: local\n',
    );
    expect(parseError(text)).toBe(
      'rules[0]: unknown field `preferr`, expected one of `id`, `when`, `prefer`, `route_order`, `forbid`, `allow`, `elicit`, `after_success`, `reason` at line 12 column 5',
    );
  });

  it.each([
    ['top level', 'extra: 1\n', 'unknown field `extra`'],
    ['predicate', 'rules:\n  - id: r\n    when: {user_says: [x]}\n', 'rules[0].when: unknown field `user_says`'],
    [
      'command requires',
      'commands:\n  c:\n    template: x\n    requires: {tools: [a]}\n',
      'commands.c.requires: unknown field `tools`',
    ],
    [
      'route handoff',
      'routes:\n  - id: r\n    label: R\n    handoff: {to_skill: s, boundary: stop_current_skill, when: x}\n',
      'routes[0].handoff: unknown field `when`',
    ],
    [
      'execution phase',
      'routes:\n  - id: r\n    label: R\n    execution_plan:\n      phases:\n        - {id: p, owner_skill: s, owner: x}\n',
      'routes[0].execution_plan.phases[0]: unknown field `owner`',
    ],
    [
      'elicitation choice',
      'elicitations:\n  q:\n    question: Q\n    choices: [{id: a, label: A, value: 1}]\n',
      'elicitations.q.choices[0]: unknown field `value`',
    ],
    [
      'expectation (no allow key)',
      'tests:\n  - name: t\n    input: x\n    expect: {allow: {a: 1}}\n',
      'tests[0].expect: unknown field `allow`',
    ],
    ['merge keys are not expanded', 'routes:\n  - <<: {id: r}\n    label: R\n', 'routes[0]: unknown field `<<`'],
  ])('rejects an unknown field in %s', (_what, body, message) => {
    expect(parseError(doc(body))).toContain(message);
  });

  it('reports a missing required field at the start of its mapping', () => {
    expect(parseError(doc('routes:\n  - id: r\n'))).toBe('routes[0]: missing field `label` at line 6 column 5');
    expect(parseError('id: x\ntitle: T\ndescription: D\n')).toBe('missing field `schema` at line 1 column 1');
  });

  it('accepts exactly one of the two code source shapes', () => {
    const ok = parse(
      doc(
        'code:\n  a: {language: sh, kind: probe, source: {inline: "echo"}}\n  b: {language: sh, kind: probe, source: {file: x.sh, fence_index: 2}}\n',
      ),
    );
    expect(ok.code['a']!.source).toEqual({ inline: 'echo' });
    expect(ok.code['b']!.source).toEqual({
      file: 'x.sh',
      from_resource: null,
      fence_index: 2,
      heading: null,
      sha256: null,
    });
    expect(parseError(doc('code:\n  a: {language: sh, kind: probe, source: {inline: x, file: y}}\n'))).toBe(
      'code.a.source: data did not match any variant of untagged enum CodeSource at line 6 column 42',
    );
  });

  it('reads every recipe step shape and rejects a step with two keys', () => {
    const spec = parse(
      doc('recipes:\n  r:\n    steps:\n      - note: hi\n      - branch: {if: ok, then: c}\n      - ask: q\n'),
    );
    expect(spec.recipes['r']!.steps).toEqual([
      { note: 'hi' },
      { branch: { if: 'ok', then: 'c', otherwise: null } },
      { ask: 'q' },
    ]);
    expect(parseError(doc('recipes:\n  r:\n    steps:\n      - {note: hi, ask: q}\n'))).toContain(
      'recipes.r.steps[0]: data did not match any variant of untagged enum RecipeStep',
    );
  });

  it('accepts anything on the open surfaces', () => {
    const spec = parse(
      doc(`applies_when: [1, "two", {user_intent: [x]}, [nested]]
rules:
  - id: r
    allow: {deep: {list: [1, {a: null}], flag: true}}
closures:
  empty: {}
  nothing:
metadata: {any: [1, 2.5, yes]}
`),
    );
    expect(spec.applies_when).toEqual([1, 'two', { user_intent: ['x'] }, ['nested']]);
    expect(spec.rules[0]!.allow).toEqual({ deep: { list: [1, { a: null }], flag: true } });
    expect(spec.closures).toEqual({ empty: {}, nothing: null });
    expect(spec.metadata).toEqual({ any: [1, 2.5, 'yes'] });
  });

  it('fills every default: empty lists and maps, null options, on_demand loads, ordered plans', () => {
    const spec = parse(
      doc(
        'imports:\n  i: {path: a.md, role: reference}\nroutes:\n  - id: r\n    label: R\n    execution_plan: {phases: []}\n',
      ),
    );
    expect(spec.imports['i']!.load).toBe('on_demand');
    expect(spec.imports['i']!.requires).toEqual({ imports: [] });
    expect(spec.routes[0]!.execution_plan).toEqual({ mode: 'ordered', phases: [], reason: null });
    expect(spec.rules).toEqual([]);
    expect(spec.trace).toBeNull();
  });

  it('reads an empty value of a list field as the empty list, and an explicit null *_exact as absent', () => {
    const spec = parse(
      doc(
        'tests:\n  - name: t\n    input: x\n    expect:\n      forbid:\n      forbid_exact: null\n      elicit_exact: []\n',
      ),
    );
    expect(spec.tests[0]!.expect.forbid).toEqual([]);
    expect(spec.tests[0]!.expect.forbid_exact).toBeNull();
    expect(spec.tests[0]!.expect.elicit_exact).toEqual([]);
    expect(parseError(doc('rules:\n  - id: r\n    forbid: null\n'))).toContain(
      'rules[0].forbid: invalid type: unit value, expected a sequence',
    );
  });

  it('iterates map sections in sorted key order, not file order', () => {
    const spec = parse(doc('commands:\n  zeta: {template: z}\n  alpha: {template: a}\n  Mid: {template: m}\n'));
    expect(sortedKeys(spec.commands)).toEqual(['Mid', 'alpha', 'zeta']);
  });
});

describe('duplicate keys', () => {
  it('refuses a duplicate struct field', () => {
    expect(parseError(doc('routes:\n  - id: a\n    label: A\n    label: B\n'))).toBe(
      'routes[0]: duplicate field `label` at line 8 column 5',
    );
  });

  it('refuses a duplicate id in a map section (the reference keeps the last silently)', () => {
    expect(parseError(doc('commands:\n  c: {template: one}\n  c: {template: two}\n'))).toBe(
      'commands: duplicate entry with key "c" at line 7 column 3',
    );
  });

  it('refuses a duplicate key inside an open value', () => {
    expect(parseError(doc('metadata:\n  m: {a: 1, a: 2}\n'))).toContain('metadata.m: duplicate entry with key "a"');
  });
});

describe('hostile YAML fails fast with a clear error', () => {
  it('stops an alias bomb', () => {
    const lines = [
      'schema: skillspec/v0',
      'id: t',
      'title: T',
      'description: D',
      'metadata:',
      '  a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
    ];
    for (let i = 1; i <= 8; i++)
      lines.push(
        `  a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const t0 = performance.now();
    const msg = errorOf(() => parse(lines.join('\n')));
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(msg).toContain(`aliases expand to more than ${MAX_ALIAS_NODES} nodes`);
  });

  it('still follows a small alias', () => {
    const spec = parse(doc('metadata:\n  base: &b {k: v}\n  copy: *b\n'));
    expect(spec.metadata['copy']).toEqual({ k: 'v' });
  });

  it('stops deep nesting', () => {
    const deep = `${doc('metadata:\n  m: ')}${'['.repeat(500)}${']'.repeat(500)}\n`;
    expect(parseError(deep)).toMatch(/recursion limit exceeded|nesting is deeper than/);
  });

  it('refuses absurd nesting before the YAML library sees it', () => {
    for (const text of [
      `${doc('metadata:\n  m: ')}${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}\n`,
      `${doc('metadata:\n  m:\n')}${'    '.concat('- '.repeat(200_000))}x\n`,
      `${doc('metadata:\n  m: {')}${'a: {'.repeat(200_000)}${'}'.repeat(200_001)}\n`,
    ]) {
      const t0 = performance.now();
      expect(parseError(text)).toMatch(/^nesting is deeper than 128 levels at line \d+ column \d+$/);
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });

  it('does not count brackets inside quoted, plain and block scalars as nesting', () => {
    const brackets = '['.repeat(600);
    const spec = parse(
      doc(
        `metadata:\n  q: "${brackets}"\n  s: '${brackets}'\n  p: a${brackets}\n  b: |\n    ${brackets}\n    ${'{'.repeat(600)}\n  # ${brackets}\n`,
      ),
    );
    expect(spec.metadata['q']).toBe(brackets);
    expect(spec.metadata['p']).toBe(`a${brackets}`);
  });

  it('refuses a self-referencing alias', () => {
    expect(parseError(doc('metadata:\n  m: &x [*x]\n'))).toMatch(/recursion limit exceeded|unknown anchor/);
  });

  it('refuses text over the size limit without parsing it', () => {
    const big = doc(`metadata:\n  m: "${'x'.repeat(MAX_SPEC_BYTES)}"\n`);
    const t0 = performance.now();
    expect(parseError(big)).toContain('larger than 4 MiB');
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('refuses more than one document', () => {
    expect(parseError(`${doc()}---\n${doc()}`)).toBe(
      'deserializing from YAML containing more than one document is not supported',
    );
  });

  it('refuses a non-mapping document and an empty one', () => {
    expect(parseError('- a\n')).toMatch(/^invalid type: sequence, expected struct SkillSpec/);
    expect(parseError('')).toBe('EOF while parsing a value');
  });

  it('explains a colon inside an unquoted question', () => {
    const err = errorOf(() =>
      parse(doc('elicitations:\n  q:\n    question: What are we reviewing: a list?\n    choices: []\n')),
    );
    expect(err).toContain('mapping values are not allowed in this context at line 7');
    expect(err).toContain('\nhelp: line 7 reads as a plain string');
    expect(err).toContain('Suspect line: question: What are we reviewing: a list?');
  });

  it('explains an artifact consumer of kind route', () => {
    const err = errorOf(() =>
      parse(doc('artifacts:\n  a:\n    kind: file\n    consumed_by:\n      - {kind: route, id: r}\n')),
    );
    expect(err).toContain(
      'artifacts.a.consumed_by[0].kind: unknown variant `route`, expected one of `command`, `code`, `recipe`',
    );
    expect(err).toContain('\nhelp: artifact `produced_by` and `consumed_by` entries name executables only');
  });

  it('throws SpecError of kind parse_yaml with a position', () => {
    try {
      parse(doc('bogus: 1\n'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SpecError);
      expect((e as SpecError).kind).toBe('parse_yaml');
      expect((e as SpecError).position).toEqual({ line: 5, column: 1 });
    }
  });
});

describe('checkSpecText (the editor entry point)', () => {
  it('returns the spec, or the first error with its kind and position', async () => {
    const { checkSpecText } = await import('../../shared/skillspec/index');
    const ok = checkSpecText(doc('routes:\n  - {id: a, label: A}\n'));
    expect(ok.ok && ok.value.routes[0]!.id).toBe('a');
    expect(checkSpecText(doc('routes:\n  - {id: a, label: A, rnk: 1}\n'))).toEqual({
      ok: false,
      error: {
        code: 'invalid-input',
        kind: 'parse_yaml',
        message:
          'failed to parse YAML from skill.spec.yml: routes[0]: unknown field `rnk`, expected one of `id`, `label`, `rank`, `description`, `checks`, `handoff`, `execution_plan`, `tool_boundary` at line 6 column 23',
        position: { line: 6, column: 23 },
      },
    });
    expect(checkSpecText(doc('rules:\n  - {id: r, prefer: x}\n'))).toEqual({
      ok: false,
      error: { code: 'invalid-input', kind: 'unknown_reference', message: 'unknown reference "x" in rules.prefer' },
    });
  });
});

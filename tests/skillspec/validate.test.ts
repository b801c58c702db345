/** validateSpec: every structural and cross-reference rule, its message, and the order. */
import { describe, expect, it } from 'vitest';
import { checkImports, hasSection, validateImports, validateSidecars } from '../../shared/skillspec/files';
import { importLoadOrder } from '../../shared/skillspec/validate';
import { HEADER, doc, errorOf, load, memFiles, validationError } from './helpers';

const R = 'routes:\n  - {id: a, label: A}\n';

describe('header', () => {
  it.each([
    [
      'schema: skillspec/v1\nid: x\ntitle: T\ndescription: D\n',
      'unsupported schema "skillspec/v1"; expected skillspec/v0',
    ],
    [
      'schema: " skillspec/v0"\nid: x\ntitle: T\ndescription: D\n',
      'unsupported schema " skillspec/v0"; expected skillspec/v0',
    ],
    ['schema: skillspec/v0\nid: "  "\ntitle: T\ndescription: D\n', 'spec is missing required field id'],
    ['schema: skillspec/v0\nid: x\ntitle: " "\ndescription: D\n', 'spec is missing required field title'],
    ['schema: skillspec/v0\nid: x\ntitle: T\ndescription: ""\n', 'spec is missing required field description'],
    ['schema: skillspec/v0\nid: My.Skill\ntitle: T\ndescription: D\n', 'invalid identifier "My.Skill" in id'],
    ['schema: skillspec/v0\nid: 1skill\ntitle: T\ndescription: D\n', 'invalid identifier "1skill" in id'],
  ])('%j', (text, message) => {
    expect(validationError(text)).toBe(message);
  });

  it('accepts identifiers with digits, _, - and . after a lowercase letter', () => {
    expect(() => load('schema: skillspec/v0\nid: a1_b-c.d\ntitle: T\ndescription: D\n')).not.toThrow();
  });
});

describe('cross-references, one rule at a time', () => {
  it.each([
    ['route id', 'routes:\n  - {id: Bad, label: A}\n', 'invalid identifier "Bad" in routes.id'],
    [
      'duplicate route',
      'routes:\n  - {id: a, label: A}\n  - {id: a, label: B}\n',
      'duplicate identifier "a" in routes.id',
    ],
    [
      'elicitation key',
      'elicitations:\n  Q: {question: q, choices: [{id: a, label: A}]}\n',
      'invalid identifier "Q" in elicitations key',
    ],
    [
      'blank question',
      'elicitations:\n  q: {question: " ", choices: [{id: a, label: A}]}\n',
      'spec is missing required field elicitations.question',
    ],
    [
      'no choices',
      'elicitations:\n  q: {question: q, choices: []}\n',
      'spec is missing required field elicitations.choices',
    ],
    [
      'choice id',
      'elicitations:\n  q: {question: q, choices: [{id: A, label: A}]}\n',
      'invalid identifier "A" in elicitations.choices.id',
    ],
    [
      'duplicate choice',
      'elicitations:\n  q: {question: q, choices: [{id: a, label: A}, {id: a, label: B}]}\n',
      'duplicate identifier "a" in elicitations.choices.id',
    ],
    [
      'blank choice label',
      'elicitations:\n  q: {question: q, choices: [{id: a, label: ""}]}\n',
      'spec is missing required field elicitations.choices.label',
    ],
    [
      'choice route',
      'elicitations:\n  q: {question: q, choices: [{id: a, label: A, route: nope}]}\n',
      'unknown reference "nope" in elicitations.choices.route',
    ],
    [
      'choice next',
      'elicitations:\n  q: {question: q, choices: [{id: a, label: A, next: s}]}\n',
      'unknown reference "s" in elicitations.choices.next',
    ],
    [
      'default',
      'elicitations:\n  q: {question: q, default: b, choices: [{id: a, label: A}]}\n',
      'unknown reference "b" in elicitations.default',
    ],
    [
      'required_when route',
      'elicitations:\n  q: {question: q, required_when: [{route: x}], choices: [{id: a, label: A}]}\n',
      'unknown reference "x" in elicitations.required_when.route',
    ],
    [
      'required_when missing',
      'elicitations:\n  q: {question: q, required_when: [{missing: Fact}], choices: [{id: a, label: A}]}\n',
      'invalid identifier "Fact" in elicitations.required_when.missing',
    ],
    [
      'trace record duplicate (Rust variant name)',
      'trace: {mode: event_log, record: [input_received, rule_matched, input_received]}\n',
      'duplicate identifier "InputReceived" in trace.record',
    ],
    ['dependency key', 'dependencies:\n  Git: {kind: cli}\n', 'invalid identifier "Git" in dependencies key'],
    [
      'empty dependency command',
      'dependencies:\n  git: {kind: cli, command: ""}\n',
      'spec is missing required field dependencies.command',
    ],
    [
      'empty dependency path',
      'dependencies:\n  f: {kind: file, path: ""}\n',
      'spec is missing required field dependencies.path',
    ],
    [
      'empty dependency env',
      'dependencies:\n  e: {kind: env, env: ""}\n',
      'spec is missing required field dependencies.env',
    ],
    [
      'empty check command',
      'dependencies:\n  git: {kind: cli, check: {command: ""}}\n',
      'spec is missing required field dependencies.check.command',
    ],
    [
      'empty check path',
      'dependencies:\n  git: {kind: cli, check: {path: ""}}\n',
      'spec is missing required field dependencies.check.path',
    ],
    [
      'empty check env',
      'dependencies:\n  git: {kind: cli, check: {env: ""}}\n',
      'spec is missing required field dependencies.check.env',
    ],
    [
      'provision elicit',
      'dependencies:\n  git: {kind: cli, provision: {elicit: q}}\n',
      'unknown reference "q" in dependencies.provision.elicit',
    ],
    [
      'provision option id',
      'dependencies:\n  git: {kind: cli, provision: {options: [{id: X, label: L}]}}\n',
      'invalid identifier "X" in dependencies.provision.options.id',
    ],
    [
      'duplicate option',
      'dependencies:\n  git: {kind: cli, provision: {options: [{id: x, label: L}, {id: x, label: M}]}}\n',
      'duplicate identifier "x" in dependencies.provision.options.id',
    ],
    [
      'blank option label',
      'dependencies:\n  git: {kind: cli, provision: {options: [{id: x, label: " "}]}}\n',
      'spec is missing required field dependencies.provision.options.label',
    ],
    [
      'import key',
      'imports:\n  I: {path: a.md, role: reference, load: always}\n',
      'invalid identifier "I" in imports key',
    ],
    [
      'blank import path',
      'imports:\n  i: {path: " ", role: reference, load: always}\n',
      'spec is missing required field imports.path',
    ],
    [
      'empty import section',
      'imports:\n  i: {path: a.md, role: reference, load: always, section: ""}\n',
      'spec is missing required field imports.section',
    ],
    [
      'import requires',
      'imports:\n  i: {path: a.md, role: reference, load: always, requires: {imports: [j]}}\n',
      'unknown reference "j" in imports.requires.imports',
    ],
    [
      'import used_by',
      'imports:\n  i: {path: a.md, role: reference, used_by: [{kind: route, id: r}]}\n',
      'unknown reference "r" in imports.used_by',
    ],
    [
      'orphan on-demand import',
      'imports:\n  i: {path: a.md, role: reference}\n',
      'unknown reference "i" in imports.orphan',
    ],
    [
      'import cycle',
      'imports:\n  one: {path: 1.md, role: reference, requires: {imports: [two]}}\n  two: {path: 2.md, role: reference, requires: {imports: [one]}}\n',
      'unknown reference "one" in imports.requires.imports.cycle',
    ],
    [
      'self import cycle',
      'imports:\n  x: {path: 1.md, role: reference, requires: {imports: [x]}}\n',
      'unknown reference "x" in imports.requires.imports.cycle',
    ],
    [
      'resource key',
      'resources:\n  R: {path: a.md, role: reference, used_by: [{kind: route, id: a}]}\n' + R,
      'invalid identifier "R" in resources key',
    ],
    [
      'blank resource path',
      'resources:\n  r: {path: "", role: reference}\n',
      'spec is missing required field resources.path',
    ],
    [
      'resource used_by',
      'resources:\n  r: {path: a.md, role: reference, used_by: [{kind: snippet, id: s}]}\n',
      'unknown reference "s" in resources.used_by',
    ],
    [
      'orphan resource',
      'resources:\n  r: {path: a.md, role: reference}\n',
      'unknown reference "r" in resources.orphan',
    ],
    [
      'code key',
      'code:\n  C: {language: sh, kind: probe, source: {inline: x}}\n',
      'invalid identifier "C" in code key',
    ],
    [
      'blank language',
      'code:\n  c: {language: " ", kind: probe, source: {inline: x}}\n',
      'spec is missing required field code.language',
    ],
    [
      'blank inline',
      'code:\n  c: {language: sh, kind: probe, source: {inline: " "}}\n',
      'spec is missing required field code.source.inline',
    ],
    [
      'blank file',
      'code:\n  c: {language: sh, kind: probe, source: {file: " "}}\n',
      'spec is missing required field code.source.file',
    ],
    [
      'from_resource',
      'code:\n  c: {language: sh, kind: probe, source: {file: a.sh, from_resource: r}}\n',
      'unknown reference "r" in code.source.from_resource',
    ],
    [
      'provenance resource',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {resource: r}}\n',
      'unknown reference "r" in code.provenance.resource',
    ],
    [
      'provenance import',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {import: i}}\n',
      'unknown reference "i" in code.provenance.import',
    ],
    [
      'provenance neither',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {heading: h}}\n',
      'spec is missing required field code.provenance.resource_or_import',
    ],
    [
      'provenance both',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {resource: r, import: i}}\n',
      'unknown reference "resource and import both set" in code.provenance.resource_or_import',
    ],
    [
      'code requires dependency',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, requires: {dependencies: [d]}}\n',
      'unknown reference "d" in code.requires.dependencies',
    ],
    [
      'code requires artifact',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, requires: {artifacts: [a]}}\n',
      'unknown reference "a" in code.requires.artifacts',
    ],
    [
      'code outputs',
      'code:\n  c: {language: sh, kind: probe, source: {inline: x}, outputs: [o]}\n',
      'unknown reference "o" in code.inputs.outputs',
    ],
    ['artifact key', 'artifacts:\n  A: {kind: file}\n', 'invalid identifier "A" in artifacts key'],
    [
      'empty artifact path',
      'artifacts:\n  a: {kind: file, path: ""}\n',
      'spec is missing required field artifacts.path',
    ],
    [
      'artifact producer',
      'artifacts:\n  a: {kind: file, produced_by: [{kind: recipe, id: r}]}\n',
      'unknown reference "r" in artifacts.produced_by',
    ],
    [
      'artifact consumer',
      'artifacts:\n  a: {kind: file, consumed_by: [{kind: code, id: c}]}\n',
      'unknown reference "c" in artifacts.consumed_by',
    ],
    ['recipe key', 'recipes:\n  R: {}\n', 'invalid identifier "R" in recipes key'],
    [
      'recipe requires',
      'recipes:\n  r: {requires: {dependencies: [d]}}\n',
      'unknown reference "d" in recipes.requires.dependencies',
    ],
    [
      'load_import',
      'recipes:\n  r: {steps: [{load_import: i}]}\n',
      'unknown reference "i" in recipes.steps.load_import',
    ],
    [
      'load_resource',
      'recipes:\n  r: {steps: [{load_resource: x}]}\n',
      'unknown reference "x" in recipes.steps.load_resource',
    ],
    [
      'run_command takes only commands',
      'recipes:\n  r: {steps: [{run_command: r}]}\n',
      'unknown reference "r" in recipes.steps.run_command',
    ],
    ['run_code', 'recipes:\n  r: {steps: [{run_code: c}]}\n', 'unknown reference "c" in recipes.steps.run_code'],
    [
      'produce_artifact',
      'recipes:\n  r: {steps: [{produce_artifact: a}]}\n',
      'unknown reference "a" in recipes.steps.produce_artifact',
    ],
    [
      'consume_artifact',
      'recipes:\n  r: {steps: [{consume_artifact: a}]}\n',
      'unknown reference "a" in recipes.steps.consume_artifact',
    ],
    ['ask', 'recipes:\n  r: {steps: [{ask: q}]}\n', 'unknown reference "q" in recipes.steps.ask'],
    [
      'branch if',
      'recipes:\n  r: {steps: [{branch: {if: " ", then: r}}]}\n',
      'spec is missing required field recipes.steps.branch.if',
    ],
    [
      'branch then',
      'recipes:\n  r: {steps: [{branch: {if: x, then: nope}}]}\n',
      'unknown reference "nope" in recipes.steps.branch.then',
    ],
    [
      'branch otherwise',
      'recipes:\n  r: {steps: [{branch: {if: x, then: r, otherwise: nope}}]}\n',
      'unknown reference "nope" in recipes.steps.branch.otherwise',
    ],
    ['blank note', 'recipes:\n  r: {steps: [{note: " "}]}\n', 'spec is missing required field recipes.steps.note'],
    ['rule id', 'rules:\n  - {id: R}\n', 'invalid identifier "R" in rules.id'],
    ['duplicate rule', 'rules:\n  - {id: r}\n  - {id: r}\n', 'duplicate identifier "r" in rules.id'],
    ['prefer', 'rules:\n  - {id: r, prefer: b}\n' + R, 'unknown reference "b" in rules.prefer'],
    ['route_order', 'rules:\n  - {id: r, route_order: [a, b]}\n' + R, 'unknown reference "b" in rules.route_order'],
    ['elicit', 'rules:\n  - {id: r, elicit: [q]}\n', 'unknown reference "q" in rules.elicit'],
    ['after_success', 'rules:\n  - {id: r, after_success: [x]}\n', 'unknown reference "x" in rules.after_success'],
    ['state key', 'states:\n  S: {}\n', 'invalid identifier "S" in states key'],
    ['state do', 'states:\n  s: {do: [x]}\n', 'unknown reference "x" in states.do'],
    ['state next', 'states:\n  s: {next: t}\n', 'unknown reference "t" in states.next'],
    ['state yes', 'states:\n  s: {yes: t}\n', 'unknown reference "t" in states.yes'],
    ['state no', 'states:\n  s: {no: t}\n', 'unknown reference "t" in states.no'],
    ['state say', 'states:\n  s: {say: hi}\n', 'unknown reference "hi" in states.say'],
    ['state ask', 'states:\n  s: {ask: q}\n', 'unknown reference "q" in states.ask'],
    ['command key', 'commands:\n  C: {template: x}\n', 'invalid identifier "C" in commands key'],
    [
      'command dependency',
      'commands:\n  c: {template: x, requires: {dependencies: [d]}}\n',
      'unknown reference "d" in commands.requires.dependencies',
    ],
    [
      'command resource',
      'commands:\n  c: {template: x, requires: {resources: [r]}}\n',
      'unknown reference "r" in commands.requires.resources',
    ],
    [
      'no assertion',
      'tests:\n  - {name: t, input: x, expect: {}}\n',
      'spec is missing required field tests.expect assertion',
    ],
    [
      'empty plain list is no assertion',
      'tests:\n  - {name: t, input: x, expect: {forbid: []}}\n',
      'spec is missing required field tests.expect assertion',
    ],
    [
      'expect route',
      'tests:\n  - {name: t, input: x, expect: {route: z}}\n',
      'unknown reference "z" in tests.expect.route',
    ],
    [
      'expect route_order',
      'tests:\n  - {name: t, input: x, expect: {route_order: [z]}}\n',
      'unknown reference "z" in tests.expect.route_order',
    ],
    [
      'expect after_success_exact',
      'tests:\n  - {name: t, input: x, expect: {after_success_exact: [z]}}\n',
      'unknown reference "z" in tests.expect.after_success_exact',
    ],
    [
      'expect not_elicit',
      'tests:\n  - {name: t, input: x, expect: {not_elicit: [z]}}\n',
      'unknown reference "z" in tests.expect.not_elicit',
    ],
    [
      'expect matched_rules',
      'tests:\n  - {name: t, input: x, expect: {matched_rules: [z]}}\n',
      'unknown reference "z" in tests.expect.matched_rules',
    ],
    [
      'expect not_matched_rules',
      'tests:\n  - {name: t, input: x, expect: {not_matched_rules: [z]}}\n',
      'unknown reference "z" in tests.expect.not_matched_rules',
    ],
  ])('%s', (_what, body, message) => {
    expect(validationError(doc(body))).toBe(message);
  });
});

describe('what is deliberately not checked', () => {
  it('accepts unvalidated references and values the reference leaves alone', () => {
    const text = doc(`entry: {prompt: p, forbid_before_decision: [Anything Goes], supersedes_skills: [X]}
routes:
  - id: a
    label: ""
    checks: [not_a_command]
    handoff: {to_skill: Whatever, boundary: stop_current_skill}
    execution_plan:
      phases:
        - {id: P1, owner_skill: s, route: nowhere, jumps: [{when: x, to_phase: missing}]}
        - {id: P1, owner_skill: s}
rules:
  - {id: r, forbid: [Not An Id], route_order: [a, a]}
elicitations:
  q: {question: q, max_choices: 0, choices: [{id: a, label: A}]}
snippets:
  Not-An-Id: {text: hi}
closures:
  Also Not: {}
tests:
  - {name: same, input: x, expect: {forbid: [Free Text], plan_phases: [p], plan_jumps: [j]}}
  - {name: same, input: y, expect: {forbid_exact: []}}
`);
    expect(() => load(text)).not.toThrow();
  });

  it('accepts after_success and states.do naming commands, recipes, code or closures', () => {
    const text = doc(`commands: {cmd: {template: x}}
recipes: {rec: {}}
code: {blk: {language: sh, kind: probe, source: {inline: x}}}
closures: {clo: null}
rules:
  - {id: r, after_success: [cmd, rec, blk, clo]}
states:
  s: {do: [cmd, rec, blk, clo]}
`);
    expect(() => load(text)).not.toThrow();
  });

  it('counts a reference from an orphan import, a recipe step or a code block as connecting an import', () => {
    const text = doc(`imports:
  a: {path: a.md, role: reference, requires: {imports: [b]}}
  b: {path: b.md, role: reference, requires: {imports: [c]}}
  c: {path: c.md, role: reference}
`);
    // c is referenced by b and b by a; a itself is the orphan.
    expect(validationError(text)).toBe('unknown reference "a" in imports.orphan');
    expect(() =>
      load(doc('imports:\n  i: {path: a.md, role: reference}\nrecipes:\n  r: {steps: [{load_import: i}]}\n')),
    ).not.toThrow();
    expect(() =>
      load(
        doc(
          'imports:\n  i: {path: a.md, role: reference}\ncode:\n  c: {language: sh, kind: probe, source: {inline: x}, requires: {imports: [i]}}\n',
        ),
      ),
    ).not.toThrow();
  });

  it('does not count code provenance as a resource reference', () => {
    expect(
      validationError(
        doc(
          'resources:\n  r: {path: a.md, role: reference}\ncode:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {resource: r}}\n',
        ),
      ),
    ).toBe('unknown reference "r" in resources.orphan');
  });
});

describe('order: the first failing check wins', () => {
  it('checks elicitations before rules, and routes before elicitations', () => {
    const both = doc(
      'rules:\n  - {id: r, prefer: nope}\nelicitations:\n  q: {question: " ", choices: [{id: a, label: A}]}\n',
    );
    expect(validationError(both)).toBe('spec is missing required field elicitations.question');
    const routeFirst = doc('routes:\n  - {id: A, label: A}\nelicitations:\n  q: {question: " ", choices: []}\n');
    expect(validationError(routeFirst)).toBe('invalid identifier "A" in routes.id');
  });

  it('visits map sections in sorted key order', () => {
    const text = doc(
      'commands:\n  zz: {template: x, requires: {dependencies: [z_missing]}}\n  aa: {template: x, requires: {dependencies: [a_missing]}}\n',
    );
    expect(validationError(text)).toBe('unknown reference "a_missing" in commands.requires.dependencies');
  });

  it('checks every import before the cycle walk', () => {
    const text = doc(
      'imports:\n  a: {path: a.md, role: reference, requires: {imports: [a]}}\n  b: {path: b.md, role: reference}\n',
    );
    expect(validationError(text)).toBe('unknown reference "b" in imports.orphan');
  });

  it('gives the import load order as a depth-first post-order', () => {
    const spec = load(
      doc(
        'imports:\n  a: {path: a.md, role: reference, load: always, requires: {imports: [b]}}\n  b: {path: b.md, role: reference, requires: {imports: [c]}}\n  c: {path: c.md, role: reference}\n',
      ),
    );
    expect(importLoadOrder(spec)).toEqual(['c', 'b', 'a']);
  });
});

describe('import files and sections', () => {
  const spec = load(
    `${HEADER}imports:
  abs: {path: /etc/x.md, role: reference, load: always}
  gone: {path: missing.md, role: reference, load: always}
  here: {path: ../shared/guide.md, role: reference, load: always, section: "## Set-Up ##"}
  nosec: {path: ../shared/guide.md, role: reference, load: always, section: Nope}
  url: {path: "https://x/y.md", role: reference, load: always}
`,
  );
  const files = memFiles({ '../shared/guide.md': '# Title\n\n  ## set-up\ntext\n```\n#Nope\n```\n' });

  it('reports each import with its status, in id order', () => {
    const report = checkImports(spec, 'spec.yml', files);
    expect(report.ok).toBe(false);
    expect(report.imports.map((i) => [i.id, i.status, i.error])).toEqual([
      ['abs', 'invalid_path', 'import path must be local and relative'],
      ['gone', 'missing_file', 'No such file or directory (os error 2)'],
      ['here', 'ok', null],
      ['nosec', 'ok', null],
      ['url', 'invalid_path', 'import path must be local and relative'],
    ]);
    expect(report.imports[2]!.section_found).toBe(true);
  });

  it('joins the failures into one message', () => {
    expect(errorOf(() => validateImports(spec, 'spec.yml', files))).toBe(
      'import validation failed: abs: invalid_path (import path must be local and relative); gone: missing_file (No such file or directory (os error 2)); url: invalid_path (import path must be local and relative)',
    );
  });

  it('matches headings loosely (any # line, case and #s ignored)', () => {
    expect(hasSection('#Imports\n', 'imports')).toBe(true);
    expect(hasSection('   ### Imports ###\n', '# IMPORTS')).toBe(true);
    expect(hasSection('Imports\n', 'Imports')).toBe(false);
    expect(
      errorOf(() =>
        validateImports(
          load(doc('imports:\n  i: {path: g.md, role: reference, load: always, section: Missing}\n')),
          's',
          memFiles({ 'g.md': '# Other\n' }),
        ),
      ),
    ).toBe('import validation failed: i: missing_section (section "Missing" not found)');
  });
});

describe('sidecar files', () => {
  const spec = load(`${HEADER}dependencies:
  dependency_ledger: {kind: file, path: ledger.txt}
  ledger: {kind: file, check: {path: sub/deps.toml}}
  other_file: {kind: file, path: not-checked.bin}
resources:
  esc: {path: ../outside.md, role: reference, used_by: [{kind: command, id: c}]}
  home: {path: ~/.cache/x, role: reference, used_by: [{kind: command, id: c}]}
  url: {path: "https://e.com/x", role: reference, used_by: [{kind: command, id: c}]}
  dir: {path: folder, role: reference, used_by: [{kind: command, id: c}]}
  ok: {path: ./there.md, role: script}
code:
  c1: {language: sh, kind: probe, source: {file: run.sh, from_resource: ok}}
commands:
  c: {template: x}
`);

  it('collects every failure, in section and key order', () => {
    const files = memFiles({ 'sub/deps.toml': '', folder: null, './there.md': 'x', 'there.md': 'x' });
    expect(errorOf(() => validateSidecars(spec, files))).toBe(
      'package sidecar validation failed: dependencies.dependency_ledger: ledger.txt missing (No such file or directory (os error 2)); ' +
        'dependencies.ledger: sub/deps.toml exists but is empty; resources.dir: folder is not a file; ' +
        'resources.esc: ../outside.md must stay within the skill folder; code.c1.source.file: run.sh missing (No such file or directory (os error 2)); ' +
        'code.c1.source.from_resource: resource "ok" path ./there.md does not match code file run.sh',
    );
  });

  it('passes when the files are there', () => {
    const good = load(
      doc(
        'resources:\n  r: {path: a/b.md, role: reference}\ncommands:\n  c: {template: x, requires: {resources: [r]}}\n',
      ),
    );
    expect(() => validateSidecars(good, memFiles({ 'a/b.md': '# b' }))).not.toThrow();
  });
});

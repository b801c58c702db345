/** Evals, the pure half (SPEC.md "Evals"): file format, scoring, reports (transcripts: transcripts.test.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { EvalResult, TrialResult } from '../../shared/evals/model';
import { parseEvalFile } from '../../shared/evals/parse';
import { evalJson, evalJunit, formatDelta } from '../../shared/evals/report';
import {
  deltaInterval,
  judgeTrial,
  scoreTrigger,
  summariseAssertions,
  triggerRate,
  wilson,
  type TrialObservation,
} from '../../shared/evals/score';
import { globMatch } from '../../shared/text/glob';
import { evalFromTrial, evalTemplate } from '../../shared/evals/template';

const F = '.kitbash/skills/x/evals/e.eval.yaml';
const parse = (text: string): ReturnType<typeof parseEvalFile> => parseEvalFile(text, F);
const err = (text: string): string => {
  const r = parse(text);
  if (r.ok) throw new Error('expected a parse error');
  return r.error.message;
};

describe('the eval file', () => {
  it('reads every field and assertion kind', () => {
    const r = parse(
      [
        'tier: behavioral',
        'description: d',
        'fixture: fixtures/repo',
        'task: do it',
        'runner: claude-code',
        'repeat: 3',
        'threshold: 0.5',
        'assert:',
        '  - artifact: findings@1',
        '    where: findings.length',
        '    expect: 0',
        '  - files_changed: [REVIEW.md]',
        '  - output_contains: done',
        '  - output_matches: "^ok \\\\d+"',
        '  - exit_code: 0',
        '  - skill_triggered: true',
        'files_unchanged: ["src/**"]',
      ].join('\n'),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      name: 'e',
      tier: 'behavioral',
      fixture: 'fixtures/repo',
      task: 'do it',
      runner: 'claude-code',
      repeat: 3,
      threshold: 0.5,
    });
    expect(r.value.assert.map((a) => a.kind)).toEqual([
      'artifact',
      'files_changed',
      'output_contains',
      'output_matches',
      'exit_code',
      'skill_triggered',
      'files_unchanged',
    ]);
    expect(r.value.assert[0]).toEqual({
      kind: 'artifact',
      ref: 'findings@1',
      where: 'findings.length',
      expect: 0,
      hasExpect: true,
    });
  });

  it('defaults repeat to 1 and threshold to 1.0', () => {
    const r = parse('tier: audit\ntask: t\n');
    expect(r.ok && [r.value.repeat, r.value.threshold]).toEqual([1, 1]);
  });

  it('reads a trigger tier with its prompt lists', () => {
    const r = parse('tier: trigger\nshould_trigger: [a, b]\nshould_not_trigger: [c]\n');
    expect(r.ok && [r.value.shouldTrigger, r.value.shouldNotTrigger]).toEqual([['a', 'b'], ['c']]);
  });

  it('keeps the static shape the example workspace uses', () => {
    expect(parse('tier: static\nexpect:\n  compiles: true\n').ok).toBe(true);
  });

  it.each([
    ['tier: magic\n', `${F}: tier: must be one of static, audit, behavioral, trigger (got "magic")`],
    ['task: t\n', `${F}: tier: must be one of static, audit, behavioral, trigger (missing)`],
    ['tier: behavioral\n', `${F}: task: required for a behavioral eval (the prompt given to the agent)`],
    ['tier: behavioral\ntask: t\nrepeat: 0\n', `${F}: repeat: must be a whole number from 1 to 100 (got 0)`],
    [
      'tier: behavioral\ntask: t\nthreshold: 2\n',
      `${F}: threshold: must be a number from 0 to 1, the pass rate needed (got 2)`,
    ],
    [
      'tier: behavioral\ntask: t\nasert: []\n',
      `${F}: asert: unknown field (known: tier, description, fixture, task, runner, repeat, threshold, assert, files_unchanged, expect, should_trigger, should_not_trigger)`,
    ],
    [
      'tier: behavioral\ntask: t\nassert:\n  - output_matches: "("\n',
      `${F}: assert[0].output_matches: not a valid regular expression`,
    ],
    [
      'tier: behavioral\ntask: t\nassert:\n  - artifact: findings\n',
      `${F}: assert[0].artifact: must be an artifact ref like findings@1`,
    ],
    [
      'tier: behavioral\ntask: t\nassert:\n  - exit_code: -1\n',
      `${F}: assert[0].exit_code: must be a whole number from 0 to 255`,
    ],
    [
      'tier: behavioral\ntask: t\nassert:\n  - skill_triggered: yes please\n',
      `${F}: assert[0].skill_triggered: must be true or false`,
    ],
    [
      'tier: behavioral\ntask: t\nassert:\n  - output_contains: a\n    exit_code: 0\n',
      `${F}: assert[0]: must hold exactly one assertion (got output_contains, exit_code)`,
    ],
    ['tier: behavioral\ntask: t\nassert:\n  - smells_good: true\n', `${F}: assert[0].smells_good: unknown assertion`],
    [
      'tier: behavioral\ntask: t\nfixture: ../../etc\n',
      `${F}: fixture: must be a folder inside the skill (relative, no "..")`,
    ],
    ['tier: trigger\n', `${F}: should_trigger: a trigger eval needs should_trigger and/or should_not_trigger prompts`],
    [
      'tier: trigger\nshould_trigger: [a]\ntask: t\n',
      `${F}: task: a trigger eval takes its tasks from should_trigger / should_not_trigger`,
    ],
    ['tier: behavioral\ntask: t\nexpect: {compiles: true}\n', `${F}: expect: only the static tier takes expect`],
    ['tier: [\n', `${F}: (file): invalid YAML`],
    ['- a\n- b\n', `${F}: (file): must be a mapping of fields`],
  ])('names the file, the field and the problem in one line: %j', (text, message) => {
    const e = err(text);
    expect(e.startsWith(message)).toBe(true);
    expect(e).not.toContain('\n');
  });

  it('matches globs the way git does', () => {
    expect(globMatch('*.js', 'src/a.js')).toBe(true);
    expect(globMatch('src/**', 'src/a/b.ts')).toBe(true);
    expect(globMatch('src/**/*.ts', 'src/b.ts')).toBe(true);
    expect(globMatch('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(globMatch('src', 'src/a.ts')).toBe(true);
    expect(globMatch('README.md', 'docs/README.md')).toBe(true);
    expect(globMatch('/README.md', 'docs/README.md')).toBe(false);
    expect(globMatch('a?.md', 'ab.md')).toBe(true);
  });
});

const transcript = {
  skillLoaded: 'yes' as const,
  tools: [],
  entries: [],
  output: 'Review complete: 3 findings',
  finished: 'yes' as const,
};
const obs = (over: Partial<TrialObservation> = {}): TrialObservation => ({
  outcome: 'completed',
  exitCode: 0,
  transcript,
  changed: ['REVIEW.md', 'src/a.js'],
  artifacts: () => [],
  ...over,
});

describe('judging a trial', () => {
  const assertOf = (yaml: string): ReturnType<typeof judgeTrial> => {
    const r = parse(`tier: behavioral\ntask: t\nassert:\n${yaml}`);
    if (!r.ok) throw new Error(r.error.message);
    return judgeTrial(r.value.assert, obs());
  };
  it.each([
    ['  - output_contains: "3 findings"', 'pass'],
    ['  - output_contains: "no findings"', 'fail'],
    ['  - output_matches: "complete: \\\\d+"', 'pass'],
    ['  - output_matches: "^nope"', 'fail'],
    ['  - exit_code: 0', 'pass'],
    ['  - exit_code: 3', 'fail'],
    ['  - files_changed: [REVIEW.md]', 'pass'],
    ['  - files_changed: [CHANGELOG.md]', 'fail'],
    ['  - files_unchanged: ["docs/**"]', 'pass'],
    ['  - files_unchanged: ["*.js"]', 'fail'],
    ['  - files_changed: ["src/*.{js,ts}"]', 'pass'],
    ['  - files_changed: ["{CHANGELOG,NEWS}.md"]', 'fail'],
    ['  - files_unchanged: ["src/"]', 'fail'],
    ['  - skill_triggered: true', 'pass'],
    ['  - skill_triggered: false', 'fail'],
    ['  - artifact: findings@1', 'fail'],
  ])('%s → %s', (yaml, status) => {
    expect(assertOf(yaml)[0]!.status).toBe(status);
  });

  it('says "unknown", never pass, when the transcript cannot tell whether the skill loaded', () => {
    const r = judgeTrial(
      [{ kind: 'skill_triggered', expected: true }],
      obs({ transcript: { ...transcript, skillLoaded: 'unknown' } }),
    );
    expect(r[0]!.status).toBe('unknown');
    const f = judgeTrial(
      [{ kind: 'skill_triggered', expected: false }],
      obs({ transcript: { ...transcript, skillLoaded: 'unknown' } }),
    );
    expect(f[0]!.status).toBe('unknown');
  });

  it('fails every assertion of a trial that did not complete as unknown', () => {
    const r = judgeTrial(
      [
        { kind: 'exit_code', code: 0 },
        { kind: 'files_unchanged', globs: ['*'] },
      ],
      obs({ outcome: 'timeout', message: 'ran past 2 s' }),
    );
    expect(r.map((a) => a.status)).toEqual(['unknown', 'unknown']);
    expect(r[0]!.detail).toBe('the trial did not complete (timeout: ran past 2 s)');
  });

  it('reads an artifact by path and expected value, and refuses an invalid document', () => {
    const seen = [
      {
        rel: '.kitbash/artifacts/findings.json',
        status: 'pass' as const,
        detail: '0 error(s)',
        doc: { findings: [{ severity: 'note' }] },
      },
    ];
    const a = (where: string | undefined, expectV: unknown, hasExpect = true): string =>
      judgeTrial(
        [{ kind: 'artifact', ref: 'findings@1', ...(where ? { where } : {}), expect: expectV, hasExpect }],
        obs({ artifacts: () => seen }),
      )[0]!.status;
    expect(a('findings.length', 1)).toBe('pass');
    expect(a('findings.0.severity', 'note')).toBe('pass');
    expect(a('findings.length', 2)).toBe('fail');
    expect(a('nothing.here', 1)).toBe('fail');
    expect(a(undefined, undefined, false)).toBe('pass');
    expect(a(undefined, 'fail')).toBe('fail');
    const invalid = judgeTrial(
      [{ kind: 'artifact', ref: 'findings@1', hasExpect: false }],
      obs({ artifacts: () => [{ rel: 'x', status: 'invalid', detail: 'is not valid JSON' }] }),
    );
    expect(invalid[0]).toMatchObject({ status: 'fail', detail: 'x is not valid JSON' });
  });
});

describe('rates and intervals', () => {
  it('computes the Wilson score interval', () => {
    const w = wilson(5, 10);
    expect(w.low).toBeCloseTo(0.2366, 3);
    expect(w.high).toBeCloseTo(0.7634, 3);
    expect(wilson(0, 4).low).toBe(0);
    expect(wilson(4, 4).high).toBeCloseTo(1, 9);
  });

  it('gives the skill effect with a Newcombe interval that excludes 0 only for a clear difference', () => {
    const clear = deltaInterval(10, 10, 0, 10);
    expect(clear.value).toBe(1);
    expect(clear.interval.low).toBeGreaterThan(0);
    const noise = deltaInterval(3, 5, 2, 5);
    expect(noise.value).toBeCloseTo(0.2);
    expect(noise.interval.low).toBeLessThan(0);
    expect(noise.interval.high).toBeGreaterThan(0);
    expect(formatDelta({ delta: { value: 0.2, interval: noise.interval } })).toMatch(/^\+20% \[−\d+%, \+\d+%\]$/);
  });

  it('scores triggers as precision and recall, counting unknown against the skill', () => {
    const t = (
      shouldTrigger: boolean,
      skillLoaded: 'yes' | 'no' | 'unknown',
      outcome: TrialResult['outcome'] = 'completed',
    ) => ({ shouldTrigger, skillLoaded, outcome });
    const s = scoreTrigger([
      t(true, 'yes'),
      t(true, 'no'),
      t(true, 'unknown'),
      t(false, 'no'),
      t(false, 'yes'),
      t(false, 'unknown'),
      t(true, 'yes', 'timeout'),
    ]);
    expect(s).toMatchObject({ truePositives: 1, falseNegatives: 3, trueNegatives: 1, falsePositives: 2, unknown: 3 });
    expect(s.precision).toBeCloseTo(1 / 3);
    expect(s.recall).toBeCloseTo(1 / 4);
    expect(triggerRate(s)).toBeCloseTo(1 / 4);
    expect(triggerRate(scoreTrigger([t(false, 'no')]))).toBe(1);
  });

  it('summarises an assertion over trials: pass only when every trial passed it', () => {
    const trial = (status: 'pass' | 'fail' | 'unknown') => ({
      assertions: [{ kind: 'exit_code' as const, status, detail: status }],
    });
    expect(summariseAssertions([trial('pass'), trial('fail')])[0]).toEqual({
      kind: 'exit_code',
      status: 'fail',
      detail: '1/2 trials — fail',
    });
    expect(summariseAssertions([trial('unknown'), trial('unknown')])[0]!.status).toBe('unknown');
    expect(summariseAssertions([trial('pass'), trial('pass')])[0]!.status).toBe('pass');
  });
});

// The example workspace's stand-in agent: the one `skillsmith eval` runs there in CI.
function result(over: Partial<EvalResult> = {}): EvalResult {
  return {
    skill: 'prereview',
    version: '0.1.0',
    eval: 'review',
    tier: 'behavioral',
    runner: 'stand-in',
    trials: 3,
    threshold: 1,
    passed: false,
    passRate: 2 / 3,
    baselinePassRate: 0,
    delta: { value: 2 / 3, interval: { low: 0.1, high: 0.9 } },
    triggeredRate: 1,
    assertions: [{ kind: 'output_contains', status: 'fail', detail: '2/3 trials — output does not contain "x" & <y>' }],
    trialResults: [],
    ...over,
  };
}

describe('reports', () => {
  it('--json has exactly the documented keys', () => {
    const j = JSON.parse(evalJson([result()])) as { results: Record<string, unknown>[] };
    expect(Object.keys(j.results[0]!)).toEqual([
      'skill',
      'eval',
      'runner',
      'trials',
      'passed',
      'pass_rate',
      'baseline_pass_rate',
      'triggered_rate',
      'assertions',
      'delta',
      'version',
      'tier',
      'threshold',
      'usage',
      'trial_results',
    ]);
    expect(j.results[0]).toMatchObject({
      pass_rate: 0.6667,
      baseline_pass_rate: 0,
      passed: false,
      assertions: [{ kind: 'output_contains', passed: false }],
    });
    const noBaseline = JSON.parse(evalJson([result({ baselinePassRate: null, delta: null })])) as {
      results: Record<string, unknown>[];
    };
    expect(noBaseline.results[0]!.baseline_pass_rate).toBeNull();
    expect('delta' in noBaseline.results[0]!).toBe(false);
  });

  it('--junit is JUnit XML with one testcase per eval and runner, failures escaped', () => {
    const x = evalJunit([result(), result({ eval: 'trigger', passed: true, passRate: 1 })]);
    expect(x).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="skillsmith eval" tests="2" failures="1">/,
    );
    expect(x).toContain('<testsuite name="prereview" tests="2" failures="1">');
    expect(x).toContain('<testcase classname="prereview.stand-in" name="review" time="0.000">');
    expect(x).toContain(
      '<failure message="pass rate 67% below threshold 100%">output_contains: 2/3 trials — output does not contain &quot;x&quot; &amp; &lt;y&gt;</failure>',
    );
    expect(x.match(/<failure /g)).toHaveLength(1);
  });
});

describe('spec/schema/eval.schema.json agrees with the parser', () => {
  const schema = JSON.parse(readFileSync(join(__dirname, '../../spec/schema/eval.schema.json'), 'utf8')) as object;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const examples = join(__dirname, '../../examples/workspace/.kitbash/skills/prereview/evals');

  it.each(readdirSync(examples))('the example %s is valid for both', (f) => {
    const text = readFileSync(join(examples, f), 'utf8');
    expect(parseEvalFile(text, f).ok).toBe(true);
    expect(validate(parseYaml(text))).toBe(true);
  });

  it.each([
    'tier: magic\n',
    'tier: behavioral\n',
    'tier: behavioral\ntask: t\nrepeat: 0\n',
    'tier: behavioral\ntask: t\nthreshold: 1.5\n',
    'tier: behavioral\ntask: t\nasert: []\n',
    'tier: behavioral\ntask: t\nassert:\n  - smells_good: true\n',
    'tier: behavioral\ntask: t\nassert:\n  - output_contains: a\n    exit_code: 0\n',
    'tier: behavioral\ntask: t\nassert:\n  - artifact: findings\n',
    'tier: trigger\n',
    'tier: trigger\nshould_trigger: [a]\ntask: t\n',
    'tier: behavioral\ntask: t\nfixture: ../x\n',
  ])('both refuse %j', (text) => {
    expect(parseEvalFile(text, 'x.eval.yaml').ok).toBe(false);
    expect(validate(parseYaml(text))).toBe(false);
  });
});

describe('writing evals', () => {
  it('the editor template is a valid eval for both the parser and the schema', () => {
    const text = evalTemplate('prereview');
    expect(parseEvalFile(text, 'evals/new.eval.yaml').ok).toBe(true);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    expect(
      ajv.validate(
        JSON.parse(readFileSync(join(__dirname, '../../spec/schema/eval.schema.json'), 'utf8')) as object,
        parseYaml(text),
      ),
    ).toBe(true);
  });

  it('"save this as an eval" expects what the trial did, and that trial passes it', () => {
    const trial = {
      task: 'Review: "it" & more',
      exitCode: 0,
      changed: ['REVIEW.md', '.kitbash/artifacts/findings.json'],
      skillLoaded: 'yes' as const,
      baseline: false,
    };
    const output = 'Reading the diff\nReview complete: 0 blocking findings.\n';
    const parsed = parseEvalFile(evalFromTrial(trial, output), 'evals/saved.eval.yaml');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.task).toBe(trial.task);
    expect(parsed.value.assert.map((a) => a.kind)).toEqual([
      'skill_triggered',
      'exit_code',
      'files_changed',
      'output_contains',
    ]);
    const seen = judgeTrial(
      parsed.value.assert,
      obs({ transcript: { ...transcript, output }, changed: trial.changed }),
    );
    expect(seen.every((a) => a.status === 'pass')).toBe(true);
  });

  it('leaves skill_triggered out when the transcript could not tell', () => {
    const parsed = parseEvalFile(
      evalFromTrial({ task: 't', exitCode: null, changed: [], skillLoaded: 'unknown', baseline: true }, ''),
      'x.eval.yaml',
    );
    expect(parsed.ok && parsed.value.assert).toEqual([]);
  });
});

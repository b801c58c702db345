import { parseDocument } from 'yaml';
import { ARTIFACT_REF_RE } from '../ksf/model';
import { EVAL_TIERS, type Assertion, type EvalFile, type EvalTier } from './model';
import { CodedError, fail, isCoded, type Result } from '../result';

/** Most trials one eval may ask for; more is a typo, not a plan. */
export const MAX_REPEAT = 100;

export type EvalParse = Result<EvalFile>;

const TOP_KEYS = new Set([
  'tier',
  'description',
  'fixture',
  'task',
  'runner',
  'repeat',
  'threshold',
  'assert',
  'files_unchanged',
  'expect',
  'should_trigger',
  'should_not_trigger',
]);

/**
 * One `*.eval.yaml`. Every problem is one line naming the file, the field and what is
 * wrong; unknown keys are problems too (an eval that silently ignores a misspelt
 * assertion would pass for the wrong reason).
 */
export function parseEvalFile(text: string, file: string): EvalParse {
  const name = (/([^/]+)\.eval\.yaml$/.exec(file)?.[1] ?? file).toString();
  const bad = (field: string, problem: string): EvalParse => fail('invalid-input', `${file}: ${field}: ${problem}`);
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const err = doc.errors[0];
  if (err)
    return bad(
      '(file)',
      `invalid YAML — ${err.message.split('\n')[0]}${err.linePos ? ` at line ${err.linePos[0].line}` : ''}`,
    );
  const root: unknown = doc.toJS();
  if (!isRecord(root)) return bad('(file)', 'must be a mapping of fields (tier, task, assert, …)');
  try {
    for (const k of Object.keys(root))
      if (!TOP_KEYS.has(k))
        throw new CodedError('invalid-input', `${k}: unknown field (known: ${[...TOP_KEYS].join(', ')})`);
    const tier = root.tier;
    if (typeof tier !== 'string' || !(EVAL_TIERS as readonly string[]).includes(tier)) {
      throw new CodedError(
        'invalid-input',
        `tier: must be one of ${EVAL_TIERS.join(', ')}${tier === undefined ? ' (missing)' : ` (got ${JSON.stringify(tier)})`}`,
      );
    }
    const repeat = root.repeat ?? 1;
    if (typeof repeat !== 'number' || !Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT)
      throw new CodedError(
        'invalid-input',
        `repeat: must be a whole number from 1 to ${MAX_REPEAT} (got ${JSON.stringify(repeat)})`,
      );
    const threshold = root.threshold ?? 1;
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1))
      throw new CodedError(
        'invalid-input',
        `threshold: must be a number from 0 to 1, the pass rate needed (got ${JSON.stringify(threshold)})`,
      );
    const str = (k: string): string | undefined => {
      const v = root[k];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string' || v.trim() === '')
        throw new CodedError('invalid-input', `${k}: must be a non-empty string`);
      return v;
    };
    const description = str('description');
    const fixture = str('fixture');
    if (fixture !== undefined && (fixture.startsWith('/') || fixture.split(/[\\/]/).includes('..')))
      throw new CodedError('invalid-input', 'fixture: must be a folder inside the skill (relative, no "..")');
    const task = str('task');
    const runner = str('runner');
    const prompts = (k: string): string[] => {
      const v = root[k];
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v) || v.some((p) => typeof p !== 'string' || p.trim() === ''))
        throw new CodedError('invalid-input', `${k}: must be a list of non-empty prompt strings`);
      return v as string[];
    };
    const shouldTrigger = prompts('should_trigger');
    const shouldNotTrigger = prompts('should_not_trigger');
    const assert = readAssertions(root.assert);
    if (root.files_unchanged !== undefined)
      assert.push({ kind: 'files_unchanged', globs: globList('files_unchanged', root.files_unchanged) });
    if (tier !== 'static' && root.expect !== undefined)
      throw new CodedError(
        'invalid-input',
        'expect: only the static tier takes expect; behavioral checks go under assert',
      );
    if ((tier as EvalTier) === 'trigger') {
      if (shouldTrigger.length + shouldNotTrigger.length === 0)
        throw new CodedError(
          'invalid-input',
          'should_trigger: a trigger eval needs should_trigger and/or should_not_trigger prompts',
        );
      if (task !== undefined)
        throw new CodedError(
          'invalid-input',
          'task: a trigger eval takes its tasks from should_trigger / should_not_trigger',
        );
    } else if (tier !== 'static') {
      if (task === undefined)
        throw new CodedError('invalid-input', `task: required for a ${tier} eval (the prompt given to the agent)`);
      if (shouldTrigger.length + shouldNotTrigger.length > 0)
        throw new CodedError('invalid-input', 'should_trigger: only a trigger eval takes prompt lists');
    }
    return {
      ok: true,
      value: {
        name,
        file,
        tier: tier as EvalTier,
        ...(description !== undefined ? { description } : {}),
        ...(fixture !== undefined ? { fixture } : {}),
        ...(task !== undefined ? { task } : {}),
        ...(runner !== undefined ? { runner } : {}),
        repeat,
        threshold,
        assert,
        shouldTrigger,
        shouldNotTrigger,
      },
    };
  } catch (e) {
    if (isCoded(e)) return fail(e.code, `${file}: ${e.message}`);
    throw e;
  }
}

function readAssertions(v: unknown): Assertion[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new CodedError('invalid-input', 'assert: must be a list of assertions');
  return v.map((a, i) => readAssertion(a, `assert[${i}]`));
}

function readAssertion(a: unknown, at: string): Assertion {
  if (!isRecord(a)) throw new CodedError('invalid-input', `${at}: must be a mapping such as {output_contains: "…"}`);
  const keys = Object.keys(a);
  if ('artifact' in a) {
    const extra = keys.filter((k) => !['artifact', 'where', 'expect'].includes(k));
    if (extra.length)
      throw new CodedError('invalid-input', `${at}.${extra[0]}: unknown key beside artifact (allowed: where, expect)`);
    if (typeof a.artifact !== 'string' || !ARTIFACT_REF_RE.test(a.artifact))
      throw new CodedError('invalid-input', `${at}.artifact: must be an artifact ref like findings@1`);
    if (
      a.where !== undefined &&
      (typeof a.where !== 'string' || !/^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/.test(a.where))
    )
      throw new CodedError(
        'invalid-input',
        `${at}.where: must be a dotted path into the document, like summary.errors`,
      );
    return {
      kind: 'artifact',
      ref: a.artifact,
      ...(typeof a.where === 'string' ? { where: a.where } : {}),
      ...('expect' in a ? { expect: a.expect } : {}),
      hasExpect: 'expect' in a,
    };
  }
  if (keys.length !== 1)
    throw new CodedError(
      'invalid-input',
      `${at}: must hold exactly one assertion (got ${keys.length ? keys.join(', ') : 'none'})`,
    );
  const k = keys[0]!;
  const v = a[k];
  switch (k) {
    case 'files_unchanged':
    case 'files_changed':
      return { kind: k, globs: globList(`${at}.${k}`, v) };
    case 'output_contains':
      if (typeof v !== 'string' || v === '')
        throw new CodedError('invalid-input', `${at}.output_contains: must be a non-empty string`);
      return { kind: k, text: v };
    case 'output_matches':
      if (typeof v !== 'string' || v === '')
        throw new CodedError('invalid-input', `${at}.output_matches: must be a regular expression string`);
      try {
        new RegExp(v, 'u');
      } catch (e) {
        throw new CodedError(
          'invalid-input',
          `${at}.output_matches: not a valid regular expression (${e instanceof Error ? e.message : String(e)})`,
        );
      }
      return { kind: k, pattern: v };
    case 'exit_code':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255)
        throw new CodedError('invalid-input', `${at}.exit_code: must be a whole number from 0 to 255`);
      return { kind: k, code: v };
    case 'skill_triggered':
      if (typeof v !== 'boolean') throw new CodedError('invalid-input', `${at}.skill_triggered: must be true or false`);
      return { kind: k, expected: v };
    default:
      throw new CodedError(
        'invalid-input',
        `${at}.${k}: unknown assertion (known: artifact, files_unchanged, files_changed, output_contains, output_matches, exit_code, skill_triggered)`,
      );
  }
}

function globList(at: string, v: unknown): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || list.some((g) => typeof g !== 'string' || g === ''))
    throw new CodedError('invalid-input', `${at}: must be a glob or a list of globs`);
  return list as string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

import type {
  Assertion,
  AssertionResult,
  Interval,
  Transcript,
  TrialOutcome,
  TrialResult,
  TriggerScore,
} from './model';
import { globMatch } from '../text/glob';

/** One produced artifact document found in the trial workspace, already judged against its schema. */
export interface ArtifactSeen {
  readonly rel: string;
  /** As the gate judges it: pass, fail (a failing verdict), invalid (not a valid document). */
  readonly status: 'pass' | 'fail' | 'invalid';
  readonly detail: string;
  readonly doc?: unknown;
}

/** What a trial left behind, as data: the decisions below are pure. */
export interface TrialObservation {
  readonly outcome: TrialOutcome;
  readonly exitCode: number | null;
  readonly transcript: Transcript;
  /** Workspace-relative paths the agent added, changed or deleted. */
  readonly changed: readonly string[];
  readonly artifacts: (ref: string) => readonly ArtifactSeen[];
  readonly message?: string;
}

/** Every assertion against one trial. A trial that did not complete fails them all as "unknown". */
export function judgeTrial(assertions: readonly Assertion[], o: TrialObservation): AssertionResult[] {
  if (o.outcome !== 'completed') {
    const why = `the trial did not complete (${o.outcome}${o.message ? `: ${o.message}` : ''})`;
    return assertions.map((a) => ({ kind: a.kind, status: 'unknown', detail: why }));
  }
  return assertions.map((a) => judgeOne(a, o));
}

function judgeOne(a: Assertion, o: TrialObservation): AssertionResult {
  const r = (ok: boolean, detail: string): AssertionResult => ({ kind: a.kind, status: ok ? 'pass' : 'fail', detail });
  switch (a.kind) {
    case 'exit_code':
      return r(
        o.exitCode === a.code,
        `exit ${String(o.exitCode)}${o.exitCode === a.code ? '' : `, expected ${a.code}`}`,
      );
    case 'output_contains': {
      const ok = o.transcript.output.includes(a.text);
      return r(
        ok,
        ok ? `output contains ${JSON.stringify(a.text)}` : `output does not contain ${JSON.stringify(a.text)}`,
      );
    }
    case 'output_matches': {
      const ok = new RegExp(a.pattern, 'u').test(o.transcript.output);
      return r(ok, ok ? `output matches /${a.pattern}/` : `output does not match /${a.pattern}/`);
    }
    case 'files_changed': {
      const missing = a.globs.filter((g) => !o.changed.some((p) => globMatch(g, p)));
      return r(
        missing.length === 0,
        missing.length
          ? `no changed file matches ${missing.join(', ')}`
          : `changed: ${o.changed.filter((p) => a.globs.some((g) => globMatch(g, p))).join(', ')}`,
      );
    }
    case 'files_unchanged': {
      const touched = o.changed.filter((p) => a.globs.some((g) => globMatch(g, p)));
      return r(
        touched.length === 0,
        touched.length ? `changed: ${touched.join(', ')}` : `nothing under ${a.globs.join(', ')} changed`,
      );
    }
    case 'skill_triggered': {
      const seen = o.transcript.skillLoaded;
      if (seen === 'unknown')
        return {
          kind: a.kind,
          status: 'unknown',
          detail: `the transcript does not tell whether the skill was loaded${o.transcript.problem ? ` (${o.transcript.problem})` : ''}`,
        };
      const loaded = seen === 'yes';
      return r(
        loaded === a.expected,
        `skill ${loaded ? 'loaded' : 'not loaded'}${loaded === a.expected ? '' : `, expected ${a.expected ? 'loaded' : 'not loaded'}`}`,
      );
    }
    case 'artifact': {
      const docs = o.artifacts(a.ref);
      if (docs.length === 0) return r(false, `no ${a.ref} artifact in .kitbash/artifacts/`);
      const valid = docs.filter((d) => d.status !== 'invalid');
      if (valid.length === 0) return r(false, `${docs[0]!.rel} ${docs[0]!.detail}`);
      for (const d of valid) {
        if (a.where !== undefined) {
          const v = at(d.doc, a.where);
          if (v === undefined) continue;
          if (!a.hasExpect || deepEqual(v, a.expect)) return r(true, `${d.rel}: ${a.where} = ${JSON.stringify(v)}`);
        } else if (a.hasExpect ? d.status === a.expect : d.status === 'pass')
          return r(true, `${d.rel}: ${d.status} (${d.detail})`);
      }
      const d = valid[0]!;
      if (a.where !== undefined) {
        const v = at(d.doc, a.where);
        return r(
          false,
          v === undefined
            ? `${d.rel}: no ${a.where}`
            : `${d.rel}: ${a.where} = ${JSON.stringify(v)}, expected ${JSON.stringify(a.expect)}`,
        );
      }
      return r(
        false,
        `${d.rel}: ${d.status} (${d.detail})${a.hasExpect ? `, expected ${JSON.stringify(a.expect)}` : ''}`,
      );
    }
  }
}

/** `a.b.0.c` into a JSON document; `length` of an array or string is its length. */
function at(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const seg of path.split('.')) {
    if (Array.isArray(cur)) cur = seg === 'length' ? cur.length : /^\d+$/.test(seg) ? cur[Number(seg)] : undefined;
    else if (typeof cur === 'object' && cur !== null)
      cur = Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
    else if (typeof cur === 'string' && seg === 'length') cur = cur.length;
    else return undefined;
  }
  return cur;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** 95% Wilson score interval of k successes in n trials. */
export function wilson(k: number, n: number, z = 1.959964): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The difference of two proportions (with − without the skill) and its 95% interval by
 * Newcombe's hybrid score method, which combines the two Wilson intervals.
 */
export function deltaInterval(k1: number, n1: number, k2: number, n2: number): { value: number; interval: Interval } {
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const a = wilson(k1, n1);
  const b = wilson(k2, n2);
  const d = p1 - p2;
  return {
    value: d,
    interval: {
      low: Math.max(-1, d - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2)),
      high: Math.min(1, d + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2)),
    },
  };
}

/**
 * Precision and recall of "the skill loaded" against what each prompt should do. An
 * unknown or incomplete trial counts against the skill: a missed trigger for a
 * should_trigger prompt, a false trigger for a should_not_trigger one.
 */
export function scoreTrigger(
  trials: readonly Pick<TrialResult, 'shouldTrigger' | 'skillLoaded' | 'outcome'>[],
): TriggerScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  let unknown = 0;
  for (const t of trials) {
    const seen = t.outcome === 'completed' ? t.skillLoaded : 'unknown';
    if (seen === 'unknown') unknown++;
    if (t.shouldTrigger) {
      if (seen === 'yes') tp++;
      else fn++;
    } else if (seen === 'no') tn++;
    else fp++;
  }
  return {
    precision: tp + fp > 0 ? tp / (tp + fp) : null,
    recall: tp + fn > 0 ? tp / (tp + fn) : null,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    unknown,
  };
}

/** A trigger eval's single rate: the lower of precision and recall (1 when neither applies). */
export function triggerRate(s: TriggerScore): number {
  const known = [s.precision, s.recall].filter((x): x is number => x !== null);
  return known.length ? Math.min(...known) : 1;
}

/** Assertions over all trials: pass only when every trial passed it; the first miss explains. */
export function summariseAssertions(trials: readonly Pick<TrialResult, 'assertions'>[]): AssertionResult[] {
  const first = trials[0];
  if (!first) return [];
  return first.assertions.map((a0, i) => {
    const all = trials.map((t) => t.assertions[i]!);
    const passed = all.filter((a) => a.status === 'pass').length;
    const miss = all.find((a) => a.status !== 'pass');
    const status = miss ? (all.every((a) => a.status === 'unknown') ? 'unknown' : 'fail') : 'pass';
    return {
      kind: a0.kind,
      status,
      detail:
        trials.length > 1 ? `${passed}/${trials.length} trials${miss ? ` — ${miss.detail}` : ''}` : (miss ?? a0).detail,
    };
  });
}

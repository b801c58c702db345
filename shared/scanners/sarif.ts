import { fail, ok, type Result } from '../result';
import { plural } from '../text/format';
import type { Severity } from './config';

/**
 * SARIF 2.1.0 from an external scanner, read as hostile input (SPEC D253): any shape, any
 * size the runner let through, paths anywhere. What cannot be placed in the skill is dropped
 * with a note, never guessed at; what is not SARIF is one problem line.
 */
export interface ScannerFinding {
  readonly scanner: string;
  readonly rule: string;
  /** What a `[[policy.exceptions]]` entry names: `scanner:<scanner>/<rule>`. */
  readonly check: string;
  readonly severity: Severity;
  readonly message: string;
  /** Skill-relative, a file of the skill; absent when the result names no location. */
  readonly file?: string;
  readonly line?: number;
}

export interface SarifInput {
  readonly scanner: string;
  /** The folder the scanner was given as `{skill}` (absolute), for results that name absolute paths. */
  readonly skillDir: string;
  /** Skill-relative paths of the skill's files ('/'-separated). */
  readonly files: ReadonlySet<string>;
}

export interface SarifFindings {
  readonly findings: readonly ScannerFinding[];
  /** One line each: results dropped and why. */
  readonly notes: readonly string[];
}

export const MAX_FINDINGS = 500;
const MAX_NOTES = 5;
const MAX_MESSAGE = 300;
const MAX_RULE = 200;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Printable and bounded: scanner text reaches terminals and the app. */
function clean(s: string, max: number): string {
  const one = s.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** GitHub's reading of `security-severity` (a CVSS-like score), else the SARIF level. */
export function severityOf(score: unknown, level: unknown): Severity {
  const n = typeof score === 'number' ? score : typeof score === 'string' ? Number.parseFloat(score) : NaN;
  if (Number.isFinite(n) && n >= 0 && n <= 10) return n >= 9 ? 'critical' : n >= 7 ? 'high' : n >= 4 ? 'medium' : 'low';
  return level === 'error' ? 'high' : level === 'note' || level === 'none' ? 'low' : 'medium';
}

/**
 * A result's `artifactLocation.uri` as a skill-relative path, or why it is not one. Relative
 * URIs are taken from the skill folder (the scanner's working folder); `file:` URIs and
 * absolute paths must lie under `skillDir`.
 */
export function skillPath(uri: string, skillDir: string): Result<string> {
  let path: string;
  try {
    path = decodeURIComponent(uri.replace(/^file:\/\/(localhost)?(?=\/)/i, ''));
  } catch {
    return fail('invalid-input', 'the path is not a valid URI');
  }
  path = path.split('\\').join('/');
  if (/^[a-z][a-z0-9+.-]+:/i.test(path)) return fail('invalid-input', 'the path is not a file');
  // file:///C:/x decodes to /C:/x.
  if (/^\/[A-Za-z]:\//.test(path)) path = path.slice(1);
  const base = skillDir.split('\\').join('/').replace(/\/+$/, '');
  if (path.startsWith('/') || /^[A-Za-z]:\//.test(path)) {
    if (!path.startsWith(`${base}/`)) return fail('invalid-input', 'the path is outside the skill folder');
    path = path.slice(base.length + 1);
  }
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.pop() === undefined) return fail('invalid-input', 'the path is outside the skill folder');
    } else out.push(seg);
  }
  return out.length ? ok(out.join('/')) : fail('invalid-input', 'the path names the skill folder, not a file');
}

/** The findings of one SARIF document, or the one-line problem with it. */
export function parseSarif(text: string, input: SarifInput): Result<SarifFindings> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return fail('invalid-input', `not JSON (${e instanceof RangeError ? 'nested too deeply' : 'syntax error'})`);
  }
  const root = obj(doc);
  if (!root) return fail('invalid-input', 'not a SARIF log (not a JSON object)');
  if (root.version !== undefined && root.version !== '2.1.0')
    return fail('invalid-input', `SARIF version ${clean(String(root.version), 20)} is not 2.1.0`);
  if (!Array.isArray(root.runs)) return fail('invalid-input', 'not a SARIF log (no "runs" array)');
  const findings: ScannerFinding[] = [];
  const dropped: string[] = [];
  let over = 0;
  for (const r of root.runs) {
    const run = obj(r);
    if (!run) return fail('invalid-input', 'a run is not an object');
    const rules = arr(obj(obj(run.tool)?.driver)?.rules);
    const results = run.results ?? [];
    if (!Array.isArray(results)) return fail('invalid-input', 'a run\'s "results" is not an array');
    for (const x of results) {
      const res = obj(x);
      if (!res) return fail('invalid-input', 'a result is not an object');
      if (res.kind !== undefined && res.kind !== 'fail') continue;
      const index = res.ruleIndex;
      const rule =
        obj(typeof index === 'number' && Number.isInteger(index) && index >= 0 ? rules[index] : undefined) ??
        obj(rules.find((d) => str(obj(d)?.id) !== undefined && obj(d)?.id === res.ruleId));
      const ruleId =
        clean(str(res.ruleId) ?? str(obj(res.rule)?.id) ?? str(rule?.id) ?? 'unnamed', MAX_RULE) || 'unnamed';
      const severity = severityOf(
        obj(res.properties)?.['security-severity'] ?? obj(rule?.properties)?.['security-severity'],
        res.level ?? obj(rule?.defaultConfiguration)?.level,
      );
      const message = clean(
        str(obj(res.message)?.text) ?? str(obj(rule?.shortDescription)?.text) ?? ruleId,
        MAX_MESSAGE,
      );
      const physical = obj(obj(arr(res.locations)[0])?.physicalLocation);
      const uri = str(obj(physical?.artifactLocation)?.uri);
      let place: { file?: string; line?: number } = {};
      if (uri !== undefined) {
        const p = skillPath(uri, input.skillDir);
        if (!p.ok || !input.files.has(p.value)) {
          dropped.push(`${clean(uri, 120)}: ${p.ok ? 'no such file in the skill' : p.error.message}`);
          continue;
        }
        const start = obj(physical?.region)?.startLine;
        const line = typeof start === 'number' && Number.isInteger(start) && start >= 1 ? start : 1;
        place = { file: p.value, line };
      }
      if (findings.length >= MAX_FINDINGS) {
        over++;
        continue;
      }
      findings.push({
        scanner: input.scanner,
        rule: ruleId,
        check: `scanner:${input.scanner}/${ruleId}`,
        severity,
        message,
        ...place,
      });
    }
  }
  const notes = dropped
    .slice(0, MAX_NOTES)
    .map((d) => `${input.scanner}: dropped a finding at ${d}`)
    .concat(
      dropped.length > MAX_NOTES
        ? [`${input.scanner}: dropped ${plural(dropped.length - MAX_NOTES, 'more finding')} outside the skill's files`]
        : [],
    )
    .concat(
      over ? [`${input.scanner}: ${plural(over, 'more finding')} not shown (at most ${MAX_FINDINGS} a scanner)`] : [],
    );
  return ok({ findings, notes });
}

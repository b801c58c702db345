/**
 * The KSF conformance fixtures (spec/conformance/ksf/<case>/) as data, plus the
 * parsers both conformance suites share: kitbash's lint tree and SPEC.md's
 * difference headings.
 *
 * A case is a folder holding the skill (in `skill/`, or in the folder named by
 * `skillDir` when the folder name matters) and `expected.json`:
 *   { title, skillDir?, skillsmith: { exit, checks: { <id>: status } }, kitbashDiffers: { <id>: "D<n>" } }
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHECK_IDS as SKILLSMITH_CHECK_IDS } from '../../shared/lint/types';
import { repoRoot } from './paths';

/**
 * Every check id either tool reports, in report order: Skillsmith's list plus the
 * reference's `triggers`, which it reports between `artifacts` and `schema`.
 */
const AT_SCHEMA = SKILLSMITH_CHECK_IDS.indexOf('schema');
export const CHECK_IDS = [
  ...SKILLSMITH_CHECK_IDS.slice(0, AT_SCHEMA),
  'triggers',
  ...SKILLSMITH_CHECK_IDS.slice(AT_SCHEMA),
] as const;
export type CheckId = (typeof CHECK_IDS)[number];
export type CheckStatus = 'pass' | 'warn' | 'fail';
/** A check a tool did not emit compares as "absent". */
export type ComparedStatus = CheckStatus | 'absent';
export type StatusMap = Partial<Record<CheckId, CheckStatus>>;

export interface KsfExpectation {
  title: string;
  skillDir?: string;
  skillsmith: { exit: 0 | 1; checks: StatusMap };
  kitbashDiffers: Partial<Record<CheckId, string>>;
}

export interface KsfFixture {
  /** The case folder name. */
  name: string;
  /** Absolute path of the case folder. */
  caseDir: string;
  /** Absolute path of the skill folder inside it. */
  skillPath: string;
  expected: KsfExpectation;
}

export const ksfFixturesDir = resolve(repoRoot, 'spec/conformance/ksf');

const STATUSES: readonly string[] = ['pass', 'warn', 'fail'];
const DIFF_ID_RE = /^D\d+$/;

export function isCheckId(id: string): id is CheckId {
  return (CHECK_IDS as readonly string[]).includes(id);
}

export function statusOf(map: StatusMap, id: CheckId): ComparedStatus {
  return map[id] ?? 'absent';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validate one expected.json; throws with the case name on any shape problem. */
export function parseExpectation(name: string, raw: unknown): KsfExpectation {
  const fail = (why: string): never => {
    throw new Error(`spec/conformance/ksf/${name}/expected.json: ${why}`);
  };
  if (!isRecord(raw)) return fail('not a JSON object');
  for (const k of Object.keys(raw)) {
    if (!['title', 'skillDir', 'skillsmith', 'kitbashDiffers'].includes(k)) fail(`unexpected key "${k}"`);
  }
  const { title, skillDir, skillsmith, kitbashDiffers } = raw;
  if (typeof title !== 'string' || title.trim() === '') fail('"title" must be a non-empty string');
  if (
    skillDir !== undefined &&
    (typeof skillDir !== 'string' || skillDir === '' || /[\\/]/.test(skillDir) || skillDir === '..')
  ) {
    fail('"skillDir" must be a plain folder name');
  }
  if (!isRecord(skillsmith)) return fail('"skillsmith" must be an object');
  const { exit, checks } = skillsmith;
  if (exit !== 0 && exit !== 1) fail('"skillsmith.exit" must be 0 or 1');
  if (!isRecord(checks)) return fail('"skillsmith.checks" must be an object');
  for (const [id, st] of Object.entries(checks)) {
    if (!isCheckId(id)) fail(`unknown check id "${id}" in skillsmith.checks`);
    if (typeof st !== 'string' || !STATUSES.includes(st)) fail(`skillsmith.checks.${id} must be pass, warn or fail`);
  }
  if (!('manifest' in checks)) fail('skillsmith.checks must include "manifest" (it is always reported)');
  const anyFail = Object.values(checks).includes('fail');
  if ((exit === 1) !== anyFail)
    fail(`skillsmith.exit ${String(exit)} disagrees with the checks (${anyFail ? 'a' : 'no'} failure)`);
  if (!isRecord(kitbashDiffers)) return fail('"kitbashDiffers" must be an object');
  for (const [id, d] of Object.entries(kitbashDiffers)) {
    if (!isCheckId(id)) fail(`unknown check id "${id}" in kitbashDiffers`);
    if (typeof d !== 'string' || !DIFF_ID_RE.test(d)) fail(`kitbashDiffers.${id} must be a difference id like "D7"`);
  }
  return raw as unknown as KsfExpectation;
}

/** Every case under spec/conformance/ksf/, sorted by name. Throws on a malformed case. */
export function loadKsfFixtures(dir: string = ksfFixturesDir): KsfFixture[] {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return names.map((name) => {
    const caseDir = join(dir, name);
    const expectedPath = join(caseDir, 'expected.json');
    if (!existsSync(expectedPath)) throw new Error(`spec/conformance/ksf/${name}: missing expected.json`);
    const expected = parseExpectation(name, JSON.parse(readFileSync(expectedPath, 'utf8')) as unknown);
    const skillPath = join(caseDir, expected.skillDir ?? 'skill');
    if (!existsSync(skillPath) || !statSync(skillPath).isDirectory()) {
      throw new Error(`spec/conformance/ksf/${name}: skill folder "${expected.skillDir ?? 'skill'}" is missing`);
    }
    const extra = readdirSync(caseDir).filter((f) => f !== 'expected.json' && f !== (expected.skillDir ?? 'skill'));
    if (extra.length) throw new Error(`spec/conformance/ksf/${name}: unexpected entries ${extra.join(', ')}`);
    return { name, caseDir, skillPath, expected };
  });
}

const KITBASH_HEADER_RE = /^([✓⚠✗]) (\S+)$/u;
const KITBASH_CHECK_RE = /^ {4}([·⚠✗]) ([a-z][a-z-]*)(?: — .*)?$/u;
const KITBASH_TOTALS_RE = /^linted (\d+) skill\(s\) · \d+ failure\(s\) · \d+ warning\(s\)$/u;

/**
 * Turn the output of `kitbash lint <one path>` into id → status. A load error
 * (kitbash prints only an error message and exits 1) reads as `{ manifest: "fail" }`.
 * Anything else unexpected throws, so a change in kitbash's output cannot pass silently.
 */
export function parseKitbashLint(result: { code: number; stdout: string; stderr: string }): StatusMap {
  const lines = result.stdout.split(/\r?\n/);
  const headers = lines.filter((l) => KITBASH_HEADER_RE.test(l));
  const totals = lines.find((l) => KITBASH_TOTALS_RE.test(l));
  if (!totals) {
    if (result.code === 1 && headers.length === 0 && result.stderr.trim() !== '') return { manifest: 'fail' };
    throw new Error(`unrecognised kitbash lint output (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  if (headers.length !== 1)
    throw new Error(`expected one skill in kitbash lint output, got ${headers.length}:\n${result.stdout}`);
  const out: StatusMap = {};
  for (const line of lines) {
    const m = KITBASH_CHECK_RE.exec(line);
    if (!m) continue;
    const [, sym, id] = m as unknown as [string, string, string];
    if (!isCheckId(id)) throw new Error(`kitbash reported an unknown check id "${id}"`);
    if (id in out) throw new Error(`kitbash reported "${id}" twice`);
    out[id] = sym === '·' ? 'pass' : sym === '⚠' ? 'warn' : 'fail';
  }
  if (!out.manifest) throw new Error(`kitbash lint output has no manifest check:\n${result.stdout}`);
  return out;
}

/** The difference ids that spec/SPEC.md defines, from its `### D<n> — …` headings. */
export function specDifferenceIds(specText: string): Set<string> {
  const ids = new Set<string>();
  for (const m of specText.matchAll(/^###\s+(D\d+)\s+—/gmu)) ids.add(m[1]!);
  return ids;
}

/**
 * Values that repair a manifest: what the editor's quick fixes write. Each one is valid by
 * construction (it passes `validateManifest`), so a fix never trades one error for another.
 */
import semver from 'semver';
import { isKsfName } from '../names';
import { slug } from './load';
import { BUDGET_RANGE, STANDING_RANGE } from './manifest';
import { NEW_SKILL_DEFAULTS, SEMVER_RE } from './model';
import { standingStub } from './stub';

/** A valid version for what was written: `v1.2` → `1.2.0`; nothing like a version → the new-skill default. */
export function semverFor(text: string): string {
  const v = semver.coerce(text)?.version;
  return v && SEMVER_RE.test(v) ? v : NEW_SKILL_DEFAULTS.version;
}

/** A valid skill name for what was written (`Changelog Writer` → `changelog-writer`), else from the folder's name. */
export function nameFor(text: string, dir: string): string | undefined {
  return [slug(text), slug(dir)].find((n) => isKsfName(n));
}

/** The manifest field a hard-error problem is about: `skill.version "x" is not semver` → `skill.version`. */
export function problemField(problem: string): string | undefined {
  return /^([a-z_]+\.[a-z_]+)\b/.exec(problem)?.[1];
}

/** The smallest round budget (a multiple of 100) that holds `tokens`, if the manifest allows one. */
export function budgetFor(tokens: number): number | undefined {
  const b = Math.max(BUDGET_RANGE.min, Math.ceil(tokens / 100) * 100);
  return b <= BUDGET_RANGE.max ? b : undefined;
}

/** The smallest round standing limit (a multiple of 10) that holds `tokens`, if the manifest allows one. */
export function standingFor(tokens: number): number | undefined {
  const s = Math.max(STANDING_RANGE.min, Math.ceil(tokens / 10) * 10);
  return s <= STANDING_RANGE.max ? s : undefined;
}

/** A number the manifest accepts for `field`, as near to `value` as it allows (rounded up, then clamped). */
export function clampContext(field: 'budget' | 'standing', value: number): number {
  const r = field === 'budget' ? BUDGET_RANGE : STANDING_RANGE;
  return Math.min(r.max, Math.max(r.min, Math.ceil(value)));
}

/**
 * A description from the body: the first sentence of its standing stub, cut at a word to
 * fit 200 characters; undefined when the body has nothing of 10 characters to offer.
 */
export function descriptionFrom(body: string): string | undefined {
  const stub = standingStub(body).replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(stub)?.[0] ?? stub;
  let d = sentence;
  if (d.length > 200) d = `${d.slice(0, 199).replace(/\s+\S*$/, '')}…`;
  return d.length >= 10 ? d : undefined;
}

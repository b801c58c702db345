/**
 * Which loaded skills compile may deliver into the agents' folders: only bytes that were
 * reviewed. Pure: the edge hashes the files it read and reads kitbash.lock, and passes both
 * in; this module decides. The rule is the one `run` applies before it executes anything
 * (SPEC §11.1 and "One verdict"), so that what an agent is handed is never less checked than
 * what Skillsmith itself would run.
 */
import type { Check } from '../lint/types';
import { lintSkill } from '../lint/checks';
import type { Skill } from '../ksf/model';
import { describeBlocking, RESOLVE_BLOCKING, skillVerdict } from '../policy/verdict';
import type { ProjectConfig } from '../project/config';

/**
 * Why a skill that loads is not delivered:
 * - `drift`: kitbash.lock pins it and its files no longer hash to that pin (edited after review);
 * - `blocked`: a blocking finding no `[[policy.exceptions]]` entry accepts;
 * - `unverified`: kitbash.lock cannot be read, so no pin can be checked.
 */
export type WithheldReason = 'drift' | 'blocked' | 'unverified';

export interface WithheldSkill {
  readonly name: string;
  readonly reason: WithheldReason;
  /** What is wrong, one line (the blocking findings with their places, or the drift). */
  readonly message: string;
  /** The way forward, one line. */
  readonly forward: string;
}

export interface ReviewFacts {
  /**
   * kitbash.lock's pins, name → integrity (empty when there is no lock: every skill is then
   * the project's own), or the one-line reason the lock cannot be read.
   */
  readonly pins: ReadonlyMap<string, string> | { readonly error: string };
  /** The tree integrity of exactly the files compile read for the skill (the edge hashes them). */
  readonly integrityOf: (skill: Skill) => string;
  readonly config: Pick<ProjectConfig, 'policy' | 'exceptions' | 'unconfirmedExceptions'>;
  /**
   * Where a skill's checks come from when not linted here: the edge's cache by content
   * (main/services/compile/checks-cache.ts), given `lint` for a skill it has not seen.
   */
  readonly checks?: { of(skill: Skill, lint: (skill: Skill) => readonly Check[]): readonly Check[] };
}

export const FORWARD_DRIFT =
  "re-pin the edited files through the install review (the app's lock card: Review and re-pin…), or put back the files that were reviewed";

// Linting is the costly part and depends on the skill alone; a re-plan reuses it per Skill object.
const checksMemo = new WeakMap<Skill, readonly Check[]>();
function checksOf(skill: Skill): readonly Check[] {
  let c = checksMemo.get(skill);
  if (!c) checksMemo.set(skill, (c = lintSkill(skill)));
  return c;
}

/**
 * Whether one loaded skill may be delivered; undefined when it may. A pinned skill must
 * hash to its pin (drift is checked first: a review of the new bytes shows their findings
 * anyway). Every skill — pinned or the project's own, unpinned — must be free of blocking
 * findings: a skill the project wrote itself that pipes curl into sh is as dangerous in an
 * agent's hands as one installed from elsewhere, and nothing in the folder says who wrote it.
 */
export function withheldReason(skill: Skill, facts: ReviewFacts): WithheldSkill | undefined {
  const name = skill.manifest.skill.name;
  const pins = facts.pins;
  if ('error' in pins) {
    const error = pins.error;
    return {
      name,
      reason: 'unverified',
      message: `kitbash.lock cannot be read (${error}), so its pin cannot be checked`,
      forward: 'fix kitbash.lock (resolve the merge, or restore it from version control) and compile again',
    };
  }
  const integrity = facts.integrityOf(skill);
  const pinned = (pins as ReadonlyMap<string, string>).get(name);
  if (pinned !== undefined && pinned !== integrity)
    return {
      name,
      reason: 'drift',
      message: 'its files differ from the integrity pinned in kitbash.lock — edited since it was reviewed',
      forward: FORWARD_DRIFT,
    };
  const verdict = skillVerdict(facts.checks ? facts.checks.of(skill, checksOf) : checksOf(skill), {
    skill: name,
    integrity,
    ...(facts.config.policy ? { policy: facts.config.policy } : {}),
    exceptions: facts.config.exceptions,
    ...(facts.config.unconfirmedExceptions ? { unconfirmed: facts.config.unconfirmedExceptions } : {}),
  });
  if (verdict.blocking.length === 0) return undefined;
  return {
    name,
    reason: 'blocked',
    message: `fails a blocking check: ${verdict.blocking.map((b) => describeBlocking(name, b).slice(name.length + 2)).join('; ')}`,
    forward: RESOLVE_BLOCKING,
  };
}

/** The loaded skills compile may not deliver, in the order given. */
export function withheldSkills(skills: readonly Skill[], facts: ReviewFacts): WithheldSkill[] {
  return skills.flatMap((s) => withheldReason(s, facts) ?? []);
}

/** One line per withheld skill, as the CLI and the dashboard say it. */
export function describeWithheld(w: WithheldSkill): string {
  return `${w.name}: not delivered — ${w.message}. To deliver it: ${w.forward}`;
}

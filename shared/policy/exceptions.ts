import { isTable } from '../ksf/toml';
import { fail, type Result } from '../result';
import { canonicalJson } from '../evals/consent';
import { INTEGRITY_RE, utf8Encode } from '../lock/integrity';
import { sha256Hex } from '../lock/sha256';
import { isKsfName } from '../names';
import { SAFETY_CHECK_IDS, type CheckId } from '../lint/types';

/**
 * A reviewed exception (`[[policy.exceptions]]` in kitbash.toml): a team accepts ONE
 * finding (check + file + line) of ONE exact version of a skill (its tree integrity). It
 * is not a switch: once any byte of the skill changes the integrity differs and the entry
 * matches nothing, so the next version is reviewed afresh.
 */
export interface PolicyException {
  readonly skill: string;
  readonly integrity: string;
  readonly check: ExceptionCheck;
  /** Skill-relative path of the file the finding is in, e.g. `scripts/audit.sh`. */
  readonly file: string;
  readonly line: number;
  /** Who accepted it (a name or an address) — shown in every review. */
  readonly by: string;
  /** Why it is acceptable — shown in every review. */
  readonly reason: string;
}

/**
 * A blocking built-in check, a blocking finding of an external scanner by its rule (SPEC D254),
 * or a signature `[policy] require_signed` refuses (D216).
 */
export type ExceptionCheck = CheckId | `scanner:${string}` | typeof SIGNATURE_CHECK;

/** The check an exception names to accept an unsigned or untrusted signature, at the signature file's line 1. */
export const SIGNATURE_CHECK = 'signature';
export const SIGNATURE_PLACE = { file: 'skill.oms.sig', line: 1 } as const;

/** `scanner:<scanner name>/<rule id>`, as shared/scanners/sarif.ts names a finding. */
export const SCANNER_CHECK_RE = /^scanner:[a-z0-9][a-z0-9_-]{0,39}\/\S/;

/**
 * Checks no exception may accept, with the reason shown when one is refused. Text a reader
 * cannot see can carry instructions to the agent that no reviewer approved, so "I read it"
 * cannot be true of it.
 */
export const NEVER_ACCEPTABLE: ReadonlyMap<CheckId, string> = new Map<CheckId, string>([
  [
    'visible-text',
    'invisible or hidden text can carry instructions no reviewer can read — remove the characters instead',
  ],
]);

/** The fields of one entry, in the order they are written. */
export const EXCEPTION_KEYS = ['skill', 'integrity', 'check', 'file', 'line', 'by', 'reason'] as const;

const MAX_TEXT = 500;

/** One entry checked field by field: the exception, or one line saying what is wrong with it. */
export function validateException(raw: unknown): Result<PolicyException> {
  if (!isTable(raw)) return fail('invalid-input', 'is not a table');
  const text = (k: string): string | undefined =>
    typeof raw[k] === 'string' &&
    (raw[k] as string).trim() !== '' &&
    (raw[k] as string).length <= MAX_TEXT &&
    !/[\p{Cc}]/u.test(raw[k] as string)
      ? (raw[k] as string)
      : undefined;
  const skill = text('skill');
  if (skill === undefined || !isKsfName(skill)) return fail('invalid-input', 'skill must be a skill name');
  const integrity = text('integrity');
  if (integrity === undefined || !INTEGRITY_RE.test(integrity))
    return fail(
      'invalid-input',
      `${skill}: integrity must be "sha256-" and 64 hex digits (the skill's tree hash, as in kitbash.lock)`,
    );
  const check = text('check');
  if (
    check === undefined ||
    !(
      (SAFETY_CHECK_IDS as readonly string[]).includes(check) ||
      SCANNER_CHECK_RE.test(check) ||
      check === SIGNATURE_CHECK
    )
  ) {
    return fail(
      'invalid-input',
      `${skill}: check must be one of the blocking checks (${SAFETY_CHECK_IDS.join(', ')}), "scanner:<scanner>/<rule>" or "${SIGNATURE_CHECK}"`,
    );
  }
  const never = NEVER_ACCEPTABLE.get(check as CheckId);
  if (never !== undefined) return fail('invalid-input', `${skill}: a ${check} finding cannot be accepted — ${never}`);
  const file = text('file');
  if (file === undefined || file.startsWith('/') || file.split('/').some((p) => p === '..' || p === '' || p === '.')) {
    return fail('invalid-input', `${skill}: file must be a path inside the skill folder, e.g. "scripts/run.sh"`);
  }
  const line = typeof raw.line === 'bigint' ? Number(raw.line) : raw.line;
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 1)
    return fail('invalid-input', `${skill}: line must be a whole number from 1`);
  if (check === SIGNATURE_CHECK && (file !== SIGNATURE_PLACE.file || line !== SIGNATURE_PLACE.line))
    return fail(
      'invalid-input',
      `${skill}: a ${SIGNATURE_CHECK} exception names file = "${SIGNATURE_PLACE.file}" and line = ${SIGNATURE_PLACE.line}`,
    );
  const by = text('by');
  if (by === undefined) return fail('invalid-input', `${skill}: by must say who accepted the finding`);
  const reason = text('reason');
  if (reason === undefined) return fail('invalid-input', `${skill}: reason must say why the finding is acceptable`);
  return { ok: true, value: { skill, integrity, check: check as ExceptionCheck, file, line, by, reason } };
}

/**
 * `[[policy.exceptions]]` of a parsed kitbash.toml. A bad entry is dropped (it accepts
 * nothing) and reported — never half-applied.
 */
export function readExceptions(policy: unknown): { exceptions: PolicyException[]; problems: string[] } {
  const exceptions: PolicyException[] = [];
  const problems: string[] = [];
  if (!isTable(policy) || policy.exceptions === undefined) return { exceptions, problems };
  if (!Array.isArray(policy.exceptions))
    return { exceptions, problems: ['[policy].exceptions must be an array of tables ([[policy.exceptions]])'] };
  policy.exceptions.forEach((raw, i) => {
    const v = validateException(raw);
    if (v.ok) exceptions.push(v.value);
    else problems.push(`[[policy.exceptions]] #${i + 1}: ${v.error.message} — this entry accepts nothing`);
  });
  return { exceptions, problems };
}

/** Does `e` accept the finding of `check` at `file:line` in this exact version of `skill`? */
export function exceptionMatches(
  e: PolicyException,
  skill: string,
  integrity: string,
  check: ExceptionCheck,
  file: string,
  line: number,
): boolean {
  return e.skill === skill && e.integrity === integrity && e.check === check && e.file === file && e.line === line;
}

/** The TOML text of one entry, appended as its own `[[policy.exceptions]]` table. */
export function exceptionToml(e: PolicyException): string {
  // A JSON string without control characters is a valid TOML basic string.
  const q = (s: string): string => JSON.stringify(s);
  return (
    [
      '[[policy.exceptions]]',
      `skill = ${q(e.skill)}`,
      `integrity = ${q(e.integrity)}`,
      `check = ${q(e.check)}`,
      `file = ${q(e.file)}`,
      `line = ${e.line}`,
      `by = ${q(e.by)}`,
      `reason = ${q(e.reason)}`,
    ].join('\n') + '\n'
  );
}

/**
 * The id of an entry as written, every field included: what a user's confirmation is bound
 * to (spec D190), so an entry edited in any field — even its reason — is a new entry.
 */
export function exceptionId(e: PolicyException): string {
  const fields = Object.fromEntries(EXCEPTION_KEYS.map((k) => [k, e[k]]));
  return sha256Hex(utf8Encode(canonicalJson(fields))).slice(0, 16);
}

/** Why an entry in kitbash.toml does not take effect for this user, and how to change that — one line. */
export function unconfirmedNote(e: PolicyException): string {
  return `exception for ${e.skill} ${e.check} at ${e.file}:${e.line} in kitbash.toml arrived with the project and is not confirmed by you — confirm with \`skillsmith exceptions confirm ${exceptionId(e)}\` or in the app's Settings`;
}

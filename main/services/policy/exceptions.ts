import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Skill } from '../../../shared/ksf/model';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { lintSkill } from '../../../shared/lint/checks';
import {
  exceptionMatches,
  exceptionToml,
  SIGNATURE_CHECK,
  SIGNATURE_PLACE,
  validateException,
  type PolicyException,
} from '../../../shared/policy/exceptions';
import { isAcceptableSignatureRefusal } from '../../../shared/policy/signature';
import type { ReviewNode } from '../../../shared/lock/review';
import { isBlockingCheck } from '../../../shared/policy/verdict';
import { CONFIG_FILE, parseProjectConfig } from '../../../shared/project/config';
import { writeFileAtomic } from '../fs/atomic';
import { acquireProjectLock } from '../workspace/project-lock';
import { recordConfirmations } from './confirmations';
import { fail, ok, type Result } from '../../../shared/result';

/** What a caller (the app's review) asks to accept: one finding it showed the user. Nothing else is trusted. */
export interface AcceptRequest {
  readonly check: string;
  readonly file: string;
  readonly line: number;
  readonly by: string;
  readonly reason: string;
}

/** What main's own review found beyond the files' checks: scanner findings, the signature, the refusals. */
export type ReviewFound = Pick<ReviewNode, 'scanners' | 'signature' | 'policy'>;

/**
 * Is there a blocking finding of exactly this check at this place? A built-in check is
 * re-run on the staged skill; a scanner finding (SPEC D254) and a signature refusal (D216) are
 * looked up in what main's own review found — the caller's word counts for none.
 */
function blocksHere(skill: Skill, entry: PolicyException, found: ReviewFound): boolean {
  if (entry.check === SIGNATURE_CHECK)
    return (
      entry.file === SIGNATURE_PLACE.file &&
      entry.line === SIGNATURE_PLACE.line &&
      found.policy.some((p) => isAcceptableSignatureRefusal(found.signature, p))
    );
  if (entry.check.startsWith('scanner:'))
    return (found.scanners ?? []).some(
      (f) => f.check === entry.check && f.file === entry.file && f.line === entry.line && f.status !== 'advisory',
    );
  const check = lintSkill(skill).find((c) => c.id === entry.check);
  const here = check?.locations?.some((l) => l.file === entry.file && l.line === entry.line) === true;
  return check !== undefined && isBlockingCheck(check, undefined) && here;
}

/** A failure is `forbidden`: the finding is not accepted, whatever the reason, and nothing is written. */
export type AcceptResult = Result<PolicyException>;

/**
 * Record a reviewed exception for one blocking finding of `skill` — a skill main itself
 * staged and hashed (`integrity` is never taken from the caller). The finding must be one
 * the checks report now, at exactly that file and line, and of a class that may be
 * accepted. The entry is appended to kitbash.toml as its own table, so the rest of the
 * file (comments, layout) is untouched; the result is re-parsed before the atomic write.
 */
export function acceptFinding(
  project: string,
  skill: Skill,
  integrity: string,
  req: AcceptRequest,
  found: ReviewFound = { scanners: [], policy: [] },
): AcceptResult {
  const name = skill.manifest.skill.name;
  const v = validateException({
    skill: name,
    integrity,
    check: req.check,
    file: req.file,
    line: req.line,
    by: req.by,
    reason: req.reason,
  });
  if (!v.ok) return fail('forbidden', `not accepted: ${v.error.message}`);
  const entry = v.value;
  if (!blocksHere(skill, entry, found)) {
    return fail(
      'forbidden',
      `not accepted: ${name} has no blocking ${entry.check} finding at ${entry.file}:${entry.line} in the reviewed version`,
    );
  }
  const release = acquireProjectLock(project, { command: `accept exception (app) ${name}` });
  try {
    const path = join(project, CONFIG_FILE);
    let before = '';
    try {
      const decoded = decodeUtf8(readFileSync(path));
      if (!decoded.ok) return fail('forbidden', `${CONFIG_FILE}: not valid UTF-8 — nothing written`);
      before = decoded.value.text;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        return fail('forbidden', `${CONFIG_FILE}: cannot be read — nothing written`);
    }
    const parsedBefore = parseProjectConfig(before);
    if (!parsedBefore.ok)
      return fail(
        'forbidden',
        `${CONFIG_FILE} does not parse (${parsedBefore.error.message}) — fix it first; nothing written`,
      );
    // The user approved this finding in the review: an entry already there for it (one that
    // arrived with a clone, say) is what they accept, so that entry is what gets confirmed.
    const existing = parsedBefore.value.exceptions.find((e) =>
      exceptionMatches(e, entry.skill, entry.integrity, entry.check, entry.file, entry.line),
    );
    if (existing) {
      recordConfirmations(project, [existing]);
      return ok(existing);
    }
    const after = `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${before === '' ? '' : '\n'}${exceptionToml(entry)}`;
    const parsedAfter = parseProjectConfig(after);
    if (
      !parsedAfter.ok ||
      !parsedAfter.value.exceptions.some((e) =>
        exceptionMatches(e, entry.skill, entry.integrity, entry.check, entry.file, entry.line),
      )
    ) {
      return fail(
        'forbidden',
        `${CONFIG_FILE}: its [policy] cannot take a [[policy.exceptions]] table as written (e.g. an inline exceptions array) — add the entry by hand; nothing written`,
      );
    }
    writeFileAtomic(path, after);
    recordConfirmations(project, [entry]);
    return ok(entry);
  } finally {
    release();
  }
}

import { fileError, ok, type Result } from '../result';
import {
  exceptionMatches,
  SIGNATURE_CHECK,
  SIGNATURE_PLACE,
  unconfirmedNote,
  type PolicyException,
} from './exceptions';
import { isTable, type TomlTable } from '../ksf/toml';

/** What a skill folder's signature check found (SPEC D210). `digest`: sha256 of the signature file. */
export type SignatureState =
  | { readonly state: 'verified'; readonly by: string; readonly digest: string }
  | { readonly state: 'untrusted'; readonly by: string; readonly digest: string; readonly reason: string }
  | { readonly state: 'unsigned' }
  | { readonly state: 'invalid'; readonly digest: string; readonly reason: string }
  | { readonly state: 'unknown-format'; readonly digest: string; readonly reason: string };

/**
 * One `[policy] trusted_publishers` entry as written: a key file, a CA file with an optional
 * identity, or a keyless Sigstore identity with its OIDC issuer.
 */
export interface PublisherEntry {
  readonly key?: string;
  readonly ca?: string;
  readonly identity?: string;
  readonly issuer?: string;
}

export interface SigningPolicy {
  /** true: refuse what is not verified; 'warn': say so in the review; false: only an invalid signature blocks. */
  readonly requireSigned: boolean | 'warn';
  readonly trustedPublishers: readonly PublisherEntry[];
  /** `sigstore_trust_root`: a trusted_root.json to check keyless signatures against instead of the shipped one. */
  readonly trustRoot?: string;
}

/** `require_signed` and `trusted_publishers` of `[policy]`; a malformed value is an error naming kitbash.toml. */
export function readSigningPolicy(raw: Readonly<TomlTable>, file = 'kitbash.toml'): Result<SigningPolicy> {
  const policy = raw.policy;
  if (!isTable(policy)) return ok({ requireSigned: false, trustedPublishers: [] });
  const t = policy;
  const rs = t.require_signed ?? false;
  if (rs !== true && rs !== false && rs !== 'warn')
    return { ok: false, error: fileError(file, `[policy] require_signed must be true, false or "warn"`) };
  const list = t.trusted_publishers ?? [];
  if (!Array.isArray(list))
    return { ok: false, error: fileError(file, '[policy] trusted_publishers must be an array of tables') };
  const entries: PublisherEntry[] = [];
  for (const [i, e] of list.entries()) {
    const x = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    const str = (k: string) => (typeof x[k] === 'string' ? { [k]: x[k] as string } : {});
    const kinds = ['key', 'ca', 'issuer'].filter((k) => typeof x[k] === 'string').length;
    if (kinds !== 1 || (typeof x.issuer === 'string' && typeof x.identity !== 'string'))
      return {
        ok: false,
        error: fileError(
          file,
          `[policy] trusted_publishers[${i}] must name exactly one of key = "FILE", ca = "FILE" or issuer = "URL" (with identity = "…")`,
        ),
      };
    entries.push({ ...str('key'), ...str('ca'), ...str('identity'), ...str('issuer') });
  }
  const root = t.sigstore_trust_root;
  if (root !== undefined && (typeof root !== 'string' || root === ''))
    return {
      ok: false,
      error: fileError(file, '[policy] sigstore_trust_root must be a file path (a trusted_root.json)'),
    };
  return ok({ requireSigned: rs, trustedPublishers: entries, ...(root !== undefined ? { trustRoot: root } : {}) });
}

/** The review's words for a signature state, one line. */
export function describeSignature(s: SignatureState): string {
  switch (s.state) {
    case 'verified':
      return `verified — signed by ${s.by}`;
    case 'untrusted':
      return `untrusted — ${s.reason}`;
    case 'unsigned':
      return 'unsigned — no skill.oms.sig';
    case 'invalid':
      return `invalid — ${s.reason}`;
    case 'unknown-format':
      return `unknown format — ${s.reason}`;
  }
}

/** The exceptions that may accept a skill's signature refusal, and what identifies the skill. */
export interface SignatureExceptions {
  readonly skill: string;
  readonly integrity: string;
  readonly exceptions: readonly PolicyException[];
  /** Entries that arrived with the project and are not confirmed here: they only explain a refusal. */
  readonly unconfirmed?: readonly PolicyException[];
}

/**
 * What the policy makes of a skill's signature: `block` refuses the install (an invalid
 * signature always does, whatever the policy), `warn` is a notice the reviewer reads, and
 * `accepted` the `[[policy.exceptions]]` entry that lets an unsigned or untrusted skill of this
 * exact version through `require_signed = true` (SPEC D216). An invalid signature is never
 * accepted: its files are not what was signed.
 */
export function signatureVerdict(
  s: SignatureState,
  policy: SigningPolicy,
  accept?: SignatureExceptions,
): { block?: string; warn?: string; accepted?: PolicyException } {
  if (s.state === 'verified') return {};
  const line = `signature ${describeSignature(s)}`;
  if (s.state === 'invalid') return { block: `${line} — a signature that fails verification is never installed` };
  if (policy.requireSigned === 'warn') return { warn: `${line} (require_signed = "warn")` };
  if (policy.requireSigned !== true) return {};
  const matches = (e: PolicyException) =>
    accept !== undefined &&
    exceptionMatches(e, accept.skill, accept.integrity, SIGNATURE_CHECK, SIGNATURE_PLACE.file, SIGNATURE_PLACE.line);
  const accepted = accept?.exceptions.find(matches);
  if (accepted) return { accepted };
  const held = accept?.unconfirmed?.find(matches);
  return { block: `${requireSignedRefusal(s)}${held ? `; ${unconfirmedNote(held)}` : ''}` };
}

function requireSignedRefusal(s: SignatureState): string {
  return `signature ${describeSignature(s)}, and require_signed = true`;
}

/**
 * Whether `line`, one of a review node's policy refusals, is `require_signed = true` refusing
 * this unsigned or untrusted signature: the one signature refusal a reviewed exception may
 * accept (SPEC D216). Never an invalid signature or an unknown format.
 */
export function isAcceptableSignatureRefusal(s: SignatureState | undefined, line: string): boolean {
  return (s?.state === 'unsigned' || s?.state === 'untrusted') && line.startsWith(requireSignedRefusal(s));
}

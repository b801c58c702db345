import type { SignatureState } from '../../../shared/policy/signature';
import { createHash, createPublicKey, verify, X509Certificate, type KeyObject } from 'node:crypto';
import type { TrustMaterial } from '@sigstore/verify';
import { checkKeyless } from './keyless';

/**
 * Sigstore bundles (v0.3, DSSE envelope) carrying an OpenSSF Model Signing (OMS) in-toto
 * statement over a skill folder, checked offline with node:crypto. No Rekor or Fulcio call
 * is made: transparency-log inclusion is not checked (SPEC D211).
 */

export const SIGNATURE_FILE = 'skill.oms.sig';
export const BUNDLE_MEDIA_TYPE = 'application/vnd.dev.sigstore.bundle.v0.3+json';
export const INTOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const OMS_PREDICATE = 'https://model_signing/signature/v1.0';
/** Paths OMS leaves out of a folder's manifest by default, and Skillsmith's own signature file. */
export const OMS_IGNORED = ['.git', '.gitattributes', '.github', '.gitignore'] as const;

/** One file of the signed manifest: its folder-relative path and sha256 (hex). */
export interface ManifestFile {
  readonly name: string;
  readonly sha256: string;
}

/**
 * A publisher the project trusts: a public key, a CA that issued the signing certificate, or
 * a keyless identity (certificate identity and OIDC issuer) checked against a Sigstore trust root.
 */
export type TrustedPublisher =
  | { readonly kind: 'key'; readonly label: string; readonly key: KeyObject }
  | { readonly kind: 'ca'; readonly label: string; readonly ca: X509Certificate; readonly identity?: string }
  | {
      readonly kind: 'keyless';
      readonly label: string;
      readonly identity: string;
      readonly issuer: string;
      readonly trust: TrustMaterial;
    };

/** A bundle whose signature checked out: who signed it (if trusted) and the files it lists. */
export interface CheckedBundle {
  readonly signer: string;
  readonly trusted: boolean;
  readonly files: readonly ManifestFile[];
  readonly subjectDigest: string;
  /** Why an untrusted signer is not trusted, where the default reason would not say it. */
  readonly why?: string;
}

type Checked =
  | { ok: true; value: CheckedBundle }
  | { ok: false; state: 'invalid' | 'unknown-format' | 'untrusted'; reason: string; by?: string };

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** DSSE's pre-authentication encoding: what the signature is over. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${Buffer.byteLength(payloadType)} ${payloadType} ${payload.length} `),
    payload,
  ]);
}

/** OMS's subject digest: sha256 over the files' digests in path order (model_signing v1.0). */
export function subjectDigest(files: readonly ManifestFile[]): string {
  const h = createHash('sha256');
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    h.update(Buffer.from(f.sha256, 'hex'));
  return h.digest('hex');
}

/** The digest algorithm an ECDSA key signs with (by curve), or null for Ed25519. */
export function hashFor(key: KeyObject): string | null {
  if (key.asymmetricKeyType === 'ed25519') return null;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (curve === 'secp384r1') return 'sha384';
  if (curve === 'secp521r1') return 'sha512';
  return 'sha256';
}

/** The id Skillsmith gives a public key: sha256 of its DER SubjectPublicKeyInfo. */
export function keyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return `sha256:${sha256Hex(pub.export({ type: 'spki', format: 'der' }))}`;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readStatement(payload: Buffer): { files: ManifestFile[]; subject: string } | string {
  let st: unknown;
  try {
    st = JSON.parse(payload.toString('utf8'));
  } catch {
    return 'the DSSE payload is not JSON';
  }
  if (!isObj(st) || st._type !== 'https://in-toto.io/Statement/v1') return 'the payload is not an in-toto v1 statement';
  if (st.predicateType !== OMS_PREDICATE) return `predicate ${String(st.predicateType)} is not OMS v1.0`;
  const pred = st.predicate;
  const subj = Array.isArray(st.subject) ? st.subject[0] : undefined;
  const subject = isObj(subj) && isObj(subj.digest) ? subj.digest.sha256 : undefined;
  if (!isObj(pred) || !Array.isArray(pred.resources) || typeof subject !== 'string')
    return 'the OMS statement has no resources or subject digest';
  if (isObj(pred.serialization) && pred.serialization.method !== 'files')
    return `OMS serialization "${String(pred.serialization.method)}" is not "files"`;
  const files: ManifestFile[] = [];
  for (const r of pred.resources) {
    if (!isObj(r) || typeof r.name !== 'string' || typeof r.digest !== 'string' || r.algorithm !== 'sha256')
      return 'an OMS resource is not { name, digest, algorithm: "sha256" }';
    files.push({ name: r.name, sha256: r.digest });
  }
  return { files, subject };
}

/** The leaf's identity as a person reads it: its subject alternative name, else its common name. */
function certIdentity(cert: X509Certificate): string {
  const san = cert.subjectAltName?.split(', ')[0]?.replace(/^[A-Za-z ]+:/, '');
  return san ?? /CN=([^\n]+)/.exec(cert.subject)?.[1] ?? cert.subject;
}

/** The chain in the bundle leads to a pinned CA, every certificate valid at `now`. */
function chainTo(chain: readonly X509Certificate[], ca: X509Certificate, now: Date): boolean {
  const within = (c: X509Certificate) => new Date(c.validFrom) <= now && now <= new Date(c.validTo);
  for (let i = 0; i < chain.length; i++) {
    const c = chain[i]!;
    if (!within(c)) return false;
    if (c.fingerprint256 === ca.fingerprint256) return true;
    if (c.checkIssued(ca) && c.verify(ca.publicKey)) return true;
    const next = chain[i + 1];
    if (!next || !next.ca || !c.checkIssued(next) || !c.verify(next.publicKey)) return false;
  }
  return false;
}

/**
 * Parse a Sigstore bundle and check its DSSE signature against the trusted publishers: a
 * key bundle against a trusted key; a certificate-chain bundle against its leaf, and the
 * chain against a pinned CA. The files are not compared here (see `compareFiles`).
 */
export function checkBundle(text: string, trusted: readonly TrustedPublisher[], now: Date): Checked {
  let b: unknown;
  try {
    b = JSON.parse(text);
  } catch {
    return { ok: false, state: 'unknown-format', reason: 'not JSON' };
  }
  if (!isObj(b) || typeof b.mediaType !== 'string' || !b.mediaType.startsWith('application/vnd.dev.sigstore.bundle'))
    return { ok: false, state: 'unknown-format', reason: 'not a Sigstore bundle (no sigstore mediaType)' };
  const env = b.dsseEnvelope;
  const vm = b.verificationMaterial;
  if (!isObj(env) || !isObj(vm))
    return { ok: false, state: 'unknown-format', reason: 'a Sigstore bundle without a DSSE envelope is not supported' };
  const sigs = env.signatures;
  const sig0 = Array.isArray(sigs) && sigs.length === 1 && isObj(sigs[0]) ? sigs[0].sig : undefined;
  if (env.payloadType !== INTOTO_PAYLOAD_TYPE || typeof env.payload !== 'string' || typeof sig0 !== 'string')
    return { ok: false, state: 'unknown-format', reason: 'the DSSE envelope is not one in-toto signature' };
  const payload = Buffer.from(env.payload, 'base64');
  const statement = readStatement(payload);
  if (typeof statement === 'string') return { ok: false, state: 'unknown-format', reason: statement };
  if (subjectDigest(statement.files) !== statement.subject)
    return { ok: false, state: 'invalid', reason: 'the subject digest does not match the listed files' };
  const signed = pae(INTOTO_PAYLOAD_TYPE, payload);
  const sig = Buffer.from(sig0, 'base64');
  const good = (key: KeyObject) => {
    try {
      return verify(hashFor(key), signed, key, sig);
    } catch {
      return false;
    }
  };
  const done = (signer: string, isTrusted: boolean, why?: string): Checked => ({
    ok: true,
    value: {
      signer,
      trusted: isTrusted,
      files: statement.files,
      subjectDigest: statement.subject,
      ...(why !== undefined ? { why } : {}),
    },
  });

  const chainCerts = isObj(vm.x509CertificateChain) ? vm.x509CertificateChain.certificates : undefined;
  const single = isObj(vm.certificate) ? [vm.certificate] : undefined;
  const certs = Array.isArray(chainCerts) ? chainCerts : single;
  if (certs) {
    let chain: X509Certificate[];
    try {
      chain = certs.map((c) => new X509Certificate(Buffer.from(String(isObj(c) ? c.rawBytes : ''), 'base64')));
    } catch {
      return { ok: false, state: 'unknown-format', reason: 'a certificate in the bundle does not parse' };
    }
    const leaf = chain[0];
    if (!leaf) return { ok: false, state: 'unknown-format', reason: 'the certificate chain is empty' };
    const by = certIdentity(leaf);
    if (!good(leaf.publicKey))
      return { ok: false, state: 'invalid', reason: `the signature does not match ${by}'s certificate` };
    for (const t of trusted) {
      if (t.kind !== 'ca' || (t.identity !== undefined && t.identity !== by)) continue;
      if (chainTo(chain, t.ca, now)) return done(`${by} (${t.label})`, true);
    }
    const k = keyless(b, by, trusted);
    return k ? done(k.signer, k.trusted, k.why) : done(by, false);
  }
  if (isObj(vm.publicKey)) {
    const hint = typeof vm.publicKey.hint === 'string' ? vm.publicKey.hint : '';
    const named = trusted.find(
      (t): t is Extract<TrustedPublisher, { kind: 'key' }> => t.kind === 'key' && hint !== '' && keyId(t.key) === hint,
    );
    if (named && !good(named.key))
      return { ok: false, state: 'invalid', reason: `the signature does not match ${named.label}` };
    for (const t of trusted) if (t.kind === 'key' && good(t.key)) return done(t.label, true);
    const by = hint ? `key ${hint.slice(0, 19)}…` : 'an unnamed key';
    return { ok: false, state: 'untrusted', by, reason: `signed by ${by}, which is no trusted publisher's` };
  }
  return { ok: false, state: 'unknown-format', reason: 'the bundle has neither a certificate nor a public key' };
}

/**
 * A certificate no pinned CA vouches for, checked as a keyless Sigstore signature when a
 * keyless publisher is trusted: who signed, and whether a publisher names them; undefined
 * when no keyless publisher is trusted. A bundle the Sigstore checks refuse (no Fulcio chain,
 * no valid log entry) is untrusted, not invalid: its DSSE signature already matched its own
 * certificate, so only who vouches for that certificate is in doubt.
 */
function keyless(bundle: unknown, by: string, trusted: readonly TrustedPublisher[]) {
  const publishers = trusted.filter((t) => t.kind === 'keyless');
  if (publishers.length === 0) return undefined;
  const k = checkKeyless(bundle, publishers[0]!.trust, publishers);
  if (!k.ok) return { signer: by, trusted: false, why: k.reason };
  const signer = `${k.identity} (issuer ${k.issuer})`;
  return { signer, trusted: k.trusted, why: `${signer} is no trusted publisher` };
}

/** Files the signature lists and the folder's files disagree on, one line each; empty when they match. */
export function compareFiles(signed: readonly ManifestFile[], folder: readonly ManifestFile[]): string[] {
  const have = new Map(folder.map((f) => [f.name, f.sha256]));
  const listed = new Set(signed.map((f) => f.name));
  const out: string[] = [];
  for (const f of signed) {
    const d = have.get(f.name);
    if (d === undefined) out.push(`${f.name}: signed but missing`);
    else if (d !== f.sha256) out.push(`${f.name}: changed since it was signed`);
  }
  for (const f of folder) if (!listed.has(f.name)) out.push(`${f.name}: not covered by the signature`);
  return out;
}

/**
 * The signature state of a skill folder, given its signature file (undefined: none) and
 * its files (without the signature file itself).
 */
export function signatureState(
  sigText: string | undefined,
  folder: readonly ManifestFile[],
  trusted: readonly TrustedPublisher[],
  now: Date,
): SignatureState {
  if (sigText === undefined) return { state: 'unsigned' };
  const digest = `sha256:${sha256Hex(sigText)}`;
  const c = checkBundle(sigText, trusted, now);
  if (!c.ok) {
    if (c.state === 'untrusted') return { state: 'untrusted', by: c.by ?? 'an unnamed key', digest, reason: c.reason };
    return { state: c.state, digest, reason: c.reason };
  }
  // A certificate's signature checks without trust, so a changed file is invalid either way.
  const diff = compareFiles(c.value.files, folder);
  if (diff.length)
    return { state: 'invalid', digest, reason: `${diff[0]}${diff.length > 1 ? ` (and ${diff.length - 1} more)` : ''}` };
  if (!c.value.trusted)
    return {
      state: 'untrusted',
      by: c.value.signer,
      digest,
      reason: c.value.why ?? `${c.value.signer}: its certificate chain leads to no trusted publisher`,
    };
  return { state: 'verified', by: c.value.signer, digest };
}

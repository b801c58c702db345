import { bundleToJSON } from '@sigstore/bundle';
import { X509Certificate as SigstoreCertificate } from '@sigstore/core';
import { DSSEBundleBuilder, FulcioSigner, RekorWitness } from '@sigstore/sign';
import { fail, ok, type Result } from '../../../shared/result';
import { writeFileAtomic } from '../fs/atomic';
import { INTOTO_PAYLOAD_TYPE } from './bundle';
import { folderManifest, omsPayload, signatureFileOf } from './folder';

/*
 * Keyless signing (SPEC D217): an OIDC identity token is exchanged with Fulcio for a
 * short-lived certificate over an ephemeral key, the folder's OMS statement is signed in a
 * DSSE envelope with that key, and the signature is entered in Rekor. The bundle is the one
 * `--key` writes (D210), with the certificate and the log entry as its verification material,
 * so `verify` and install check it as any keyless signature (D215). The protocol is
 * @sigstore/sign's; this module decides what is sent where and what the user reads.
 */

export const PUBLIC_FULCIO_URL = 'https://fulcio.sigstore.dev';
export const PUBLIC_REKOR_URL = 'https://rekor.sigstore.dev';
/** How long one request to Fulcio or Rekor may take. */
const REQUEST_TIMEOUT_MS = 30_000;
const OID_ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';
const OID_ISSUER_V1 = '1.3.6.1.4.1.57264.1.1';

export interface KeylessOptions {
  /** The OIDC identity token (a JWT). Never printed, logged or written. */
  readonly token: string;
  readonly fulcioUrl: string;
  readonly rekorUrl: string;
}

export interface KeylessSigned {
  readonly file: string;
  readonly files: number;
  /** The certificate's subject alternative name and OIDC issuer: what `trusted_publishers` names. */
  readonly identity: string;
  readonly issuer: string;
  readonly logIndex: string;
}

/**
 * Why Fulcio could not read the token, or undefined when it is a JWT it can: three base64url
 * parts, a JSON payload with `iss` and a subject (`sub`, or an `email` the issuer verified).
 * Checked before anything is sent; the answer never quotes the token.
 */
export function tokenProblem(token: string): string | undefined {
  const parts = token.split('.');
  let claims: unknown;
  try {
    if (parts.length !== 3) throw new Error('not three parts');
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return 'the identity token is not a JWT (three base64url parts with a JSON payload)';
  }
  const c = (typeof claims === 'object' && claims !== null ? claims : {}) as Record<string, unknown>;
  if (typeof c.iss !== 'string' || c.iss === '') return 'the identity token names no issuer (iss)';
  // Fulcio takes the email when there is one, and only a verified one.
  if (typeof c.email === 'string')
    return c.email_verified === true ? undefined : 'the identity token names an email its issuer did not verify';
  return typeof c.sub === 'string' ? undefined : 'the identity token names no subject (sub, or a verified email)';
}

/**
 * A Fulcio or Rekor address: https, or plain http only to this machine. The identity token
 * goes to Fulcio, and a bearer token sent in clear to another host is a token given away.
 */
export function serviceUrl(flag: string, value: string): Result<string> {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return fail('invalid-request', `${flag} ${value}: not a URL`);
  }
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback))
    return fail('invalid-request', `${flag} ${value}: must be https (plain http only to 127.0.0.1, ::1 or localhost)`);
  return ok(value.replace(/\/+$/, ''));
}

/** The first certificate of a bundle's verification material, or undefined. */
function leafOf(bundleText: string): SigstoreCertificate | undefined {
  try {
    const vm = (JSON.parse(bundleText) as { verificationMaterial?: Record<string, unknown> }).verificationMaterial;
    const chain = vm?.x509CertificateChain as { certificates?: Array<{ rawBytes?: string }> } | undefined;
    const der = (vm?.certificate as { rawBytes?: string } | undefined)?.rawBytes ?? chain?.certificates?.[0]?.rawBytes;
    return der === undefined ? undefined : SigstoreCertificate.parse(Buffer.from(der, 'base64'));
  } catch {
    return undefined;
  }
}

/** Fulcio's identity and issuer extensions, read the way @sigstore/verify reads them (D215). */
function signerOf(cert: SigstoreCertificate): { identity: string; issuer: string } {
  const v2 = cert.extension(OID_ISSUER_V2)?.valueObj.subs?.[0]?.value.toString('ascii');
  const issuer = v2 ?? cert.extension(OID_ISSUER_V1)?.value.toString('ascii') ?? '';
  return { identity: cert.subjectAltName ?? '', issuer };
}

/** What went wrong talking to Fulcio or Rekor, in one line, with the token cut out wherever it appears. */
function describeFailure(e: unknown, opts: KeylessOptions): string {
  const parts: string[] = [];
  for (let cur: unknown = e; cur instanceof Error && parts.length < 3; cur = (cur as { cause?: unknown }).cause)
    parts.push(cur.message.split('\n')[0]!);
  const code = (e as { code?: unknown }).code;
  const where =
    code === 'CA_CREATE_SIGNING_CERTIFICATE_ERROR'
      ? `Fulcio (${opts.fulcioUrl}) issued no certificate`
      : code === 'TLOG_CREATE_ENTRY_ERROR'
        ? `Rekor (${opts.rekorUrl}) made no log entry`
        : 'keyless signing failed';
  const detail = parts.slice(code === undefined ? 0 : 1).join(': ') || String(e);
  return `${where}: ${detail}`.split(opts.token).join('<token>');
}

/**
 * Sign the whole folder keylessly and write `skill.oms.sig` atomically. An existing
 * signature is replaced only when it holds a certificate for the same identity and issuer:
 * a key signature, or another signer's, is not ours to overwrite. The key and certificate
 * checks of an existing file happen before anything is sent.
 */
export async function signFolderKeyless(
  dir: string,
  skillName: string,
  opts: KeylessOptions,
): Promise<Result<KeylessSigned>> {
  const problem = tokenProblem(opts.token);
  if (problem !== undefined) return fail('invalid-input', problem);
  const { target, existing } = signatureFileOf(dir);
  const before = existing === undefined ? undefined : leafOf(existing);
  const othersFile = (why: string) => fail('forbidden', `${target}: ${why} — remove it first to re-sign`);
  if (existing !== undefined && before === undefined)
    return othersFile('a signature made with a key or another tool is there');
  const files = folderManifest(dir);
  if (!files.ok) return files;

  const signer = new FulcioSigner({
    identityProvider: { getToken: () => Promise.resolve(opts.token) },
    fulcioBaseURL: opts.fulcioUrl,
    timeout: REQUEST_TIMEOUT_MS,
  });
  const rekor = new RekorWitness({ rekorBaseURL: opts.rekorUrl, entryType: 'dsse', timeout: REQUEST_TIMEOUT_MS });
  const builder = new DSSEBundleBuilder({ signer, witnesses: [rekor], certificateChain: false });
  let text: string;
  try {
    const bundle = await builder.create({ data: omsPayload(skillName, files.value), type: INTOTO_PAYLOAD_TYPE });
    text = `${JSON.stringify(bundleToJSON(bundle), null, 2)}\n`;
  } catch (e) {
    return fail('internal', describeFailure(e, opts));
  }
  const leaf = leafOf(text);
  if (leaf === undefined) return fail('internal', `Fulcio (${opts.fulcioUrl}) returned no certificate`);
  const who = signerOf(leaf);
  if (before !== undefined) {
    const was = signerOf(before);
    if (was.identity !== who.identity || was.issuer !== who.issuer)
      return othersFile(`a signature by ${was.identity} (issuer ${was.issuer}) is there`);
  }
  writeFileAtomic(target, text);
  const entry = (JSON.parse(text) as { verificationMaterial: { tlogEntries: Array<{ logIndex: string }> } })
    .verificationMaterial.tlogEntries[0];
  return ok({ file: target, files: files.value.length, ...who, logIndex: entry?.logIndex ?? '?' });
}

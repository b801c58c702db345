import { createPrivateKey, createPublicKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { SignatureState, SigningPolicy } from '../../../shared/policy/signature';
import { fail, fileError, ok, type Result } from '../../../shared/result';
import { writeFileAtomic } from '../fs/atomic';
import { describeFsError } from '../fs/describe-error';
import {
  BUNDLE_MEDIA_TYPE,
  hashFor,
  INTOTO_PAYLOAD_TYPE,
  keyId,
  OMS_IGNORED,
  OMS_PREDICATE,
  pae,
  sha256Hex,
  SIGNATURE_FILE,
  signatureState,
  subjectDigest,
  type ManifestFile,
  type TrustedPublisher,
} from './bundle';
import { loadTrustRoot } from './keyless';

/** Every file of a skill folder as OMS lists it (path order); a symlink is refused, as OMS does. */
export function folderManifest(dir: string): Result<ManifestFile[]> {
  const out: ManifestFile[] = [];
  const walk = (d: string): string | undefined => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      const rel = relative(dir, abs).split(sep).join('/');
      if (d === dir && (name === SIGNATURE_FILE || (OMS_IGNORED as readonly string[]).includes(name))) continue;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) return rel;
      if (st.isDirectory()) {
        const bad = walk(abs);
        if (bad) return bad;
      } else if (st.isFile()) out.push({ name: rel, sha256: sha256Hex(readFileSync(abs)) });
    }
    return undefined;
  };
  try {
    const link = walk(dir);
    if (link) return fail('invalid-input', `${link}: a symlink — a signed skill folder holds only files and folders`);
  } catch (e) {
    return fail('invalid-input', `${dir}: ${describeFsError(e)}`);
  }
  return ok(out.sort((a, b) => (a.name < b.name ? -1 : 1)));
}

/** The DSSE payload of a folder's signature: the OMS in-toto statement over these files. */
export function omsPayload(skillName: string, files: readonly ManifestFile[]): Buffer {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: skillName, digest: { sha256: subjectDigest(files) } }],
    predicateType: OMS_PREDICATE,
    predicate: {
      serialization: { allow_symlinks: false, ignore_paths: [...OMS_IGNORED], method: 'files', hash_type: 'sha256' },
      resources: files.map((f) => ({ digest: f.sha256, algorithm: 'sha256', name: f.name })),
    },
  };
  return Buffer.from(JSON.stringify(statement, null, 2));
}

/** The Sigstore bundle (OMS statement in a DSSE envelope) signing these files with `key`. */
export function bundleFor(skillName: string, files: readonly ManifestFile[], key: KeyObject): string {
  const payload = omsPayload(skillName, files);
  const sig = sign(hashFor(key), pae(INTOTO_PAYLOAD_TYPE, payload), key);
  const bundle = {
    mediaType: BUNDLE_MEDIA_TYPE,
    verificationMaterial: { publicKey: { hint: keyId(key) }, tlogEntries: [] },
    dsseEnvelope: {
      payload: payload.toString('base64'),
      payloadType: INTOTO_PAYLOAD_TYPE,
      signatures: [{ sig: sig.toString('base64'), keyid: '' }],
    },
  };
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

function hintOf(text: string): string | undefined {
  try {
    const b = JSON.parse(text) as { verificationMaterial?: { publicKey?: { hint?: unknown } } };
    const h = b.verificationMaterial?.publicKey?.hint;
    return typeof h === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sign the whole folder (scripts included) with a private key file, writing
 * `skill.oms.sig` atomically. An existing signature is replaced only when it was made with
 * the same key: someone else's signature is not ours to overwrite.
 */
export function signFolder(
  dir: string,
  skillName: string,
  keyFile: string,
): Result<{ file: string; keyId: string; files: number }> {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(keyFile));
  } catch (e) {
    return fail('invalid-input', `${keyFile}: not a readable PEM private key (${describeFsError(e)})`);
  }
  const id = keyId(key);
  const { target, existing } = signatureFileOf(dir);
  if (existing !== undefined && hintOf(existing) !== id)
    return fail(
      'forbidden',
      `${target}: a signature made with another key or tool is there — remove it first to re-sign`,
    );
  const files = folderManifest(dir);
  if (!files.ok) return files;
  writeFileAtomic(target, bundleFor(skillName, files.value, key));
  return ok({ file: target, keyId: id, files: files.value.length });
}

/** The signature state of a skill folder on disk. */
export function verifyFolder(
  dir: string,
  trusted: readonly TrustedPublisher[],
  now = new Date(),
): Result<SignatureState> {
  let text: string | undefined;
  try {
    text = readFileSync(join(dir, SIGNATURE_FILE), 'utf8');
  } catch {
    text = undefined;
  }
  const files = folderManifest(dir);
  if (!files.ok) return files;
  return ok(signatureState(text, files.value, trusted, now));
}

/**
 * The `[policy] trusted_publishers` entries (SPEC D213, D215) loaded: key, CA and trust root
 * files are relative to the project; one that does not load is an error naming kitbash.toml.
 * The Sigstore trust root is read only when a keyless publisher needs it.
 */
export function loadTrustedPublishers(project: string, policy: SigningPolicy): Result<TrustedPublisher[]> {
  const out: TrustedPublisher[] = [];
  const entries = policy.trustedPublishers;
  const keyless = entries.filter((e) => e.issuer !== undefined);
  const trust = keyless.length ? loadTrustRoot(project, policy.trustRoot) : undefined;
  if (trust && !trust.ok) return trust;
  for (const [i, e] of entries.entries()) {
    if (e.issuer !== undefined && e.identity !== undefined && trust?.ok) {
      const label = `${e.identity} (issuer ${e.issuer})`;
      out.push({ kind: 'keyless', label, identity: e.identity, issuer: e.issuer, trust: trust.value });
      continue;
    }
    const path = e.key ?? e.ca ?? '';
    const where = `[policy] trusted_publishers[${i}]: ${path}`;
    let pem: Buffer;
    try {
      pem = readFileSync(resolve(project, path));
    } catch (err) {
      return { ok: false, error: fileError('kitbash.toml', `${where}: ${describeFsError(err)}`) };
    }
    try {
      if (e.key !== undefined) out.push({ kind: 'key', label: `key ${path}`, key: createPublicKey(pem) });
      else {
        const ca = new X509Certificate(pem);
        const label = `CA ${/CN=([^\n]+)/.exec(ca.subject)?.[1] ?? path}`;
        out.push({ kind: 'ca', label, ca, ...(e.identity !== undefined ? { identity: e.identity } : {}) });
      }
    } catch {
      const what = e.key !== undefined ? 'a PEM public key' : 'a PEM certificate';
      return { ok: false, error: fileError('kitbash.toml', `${where} is not ${what}`) };
    }
  }
  return ok(out);
}

/** A folder's signature file and its text, when there is one (re-signing checks whose it is first). */
export function signatureFileOf(dir: string): { target: string; existing?: string } {
  const target = join(dir, SIGNATURE_FILE);
  try {
    return { target, existing: readFileSync(target, 'utf8') };
  } catch {
    return { target };
  }
}

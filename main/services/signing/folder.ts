import { createPrivateKey, createPublicKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
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
  type SignatureState,
  type TrustedPublisher,
} from './bundle';

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

/** The Sigstore bundle (OMS statement in a DSSE envelope) signing these files with `key`. */
export function bundleFor(skillName: string, files: readonly ManifestFile[], key: KeyObject): string {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: skillName, digest: { sha256: subjectDigest(files) } }],
    predicateType: OMS_PREDICATE,
    predicate: {
      serialization: { allow_symlinks: false, ignore_paths: [...OMS_IGNORED], method: 'files', hash_type: 'sha256' },
      resources: files.map((f) => ({ digest: f.sha256, algorithm: 'sha256', name: f.name })),
    },
  };
  const payload = Buffer.from(JSON.stringify(statement, null, 2));
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
  const target = join(dir, SIGNATURE_FILE);
  let existing: string | undefined;
  try {
    existing = readFileSync(target, 'utf8');
  } catch {
    existing = undefined;
  }
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
 * `[policy] trusted_publishers`: each entry `{ key = "FILE" }` (a PEM public key) or
 * `{ ca = "FILE", identity = "…" }` (a pinned PEM CA certificate, optionally one signer's
 * identity under it); files are relative to the project. An entry that does not load is an error.
 */
export function loadTrustedPublishers(project: string, entries: unknown): Result<TrustedPublisher[]> {
  if (entries === undefined) return ok([]);
  const bad = (message: string) => ({ ok: false as const, error: fileError('kitbash.toml', message) });
  if (!Array.isArray(entries)) return bad('[policy] trusted_publishers must be an array of tables');
  const out: TrustedPublisher[] = [];
  for (const [i, e] of entries.entries()) {
    const where = `[policy] trusted_publishers[${i}]`;
    if (typeof e !== 'object' || e === null) return bad(`${where} is not a table`);
    const t = e as Record<string, unknown>;
    const path = typeof t.key === 'string' ? t.key : typeof t.ca === 'string' ? t.ca : undefined;
    if (path === undefined) return bad(`${where} names neither key = "FILE" nor ca = "FILE"`);
    let pem: Buffer;
    try {
      pem = readFileSync(resolve(project, path));
    } catch (err) {
      return bad(`${where}: ${path}: ${describeFsError(err)}`);
    }
    try {
      if (typeof t.key === 'string') out.push({ kind: 'key', label: `key ${path}`, key: createPublicKey(pem) });
      else {
        const ca = new X509Certificate(pem);
        const identity = typeof t.identity === 'string' ? t.identity : undefined;
        out.push({
          kind: 'ca',
          label: `CA ${/CN=([^\n]+)/.exec(ca.subject)?.[1] ?? path}`,
          ca,
          ...(identity ? { identity } : {}),
        });
      }
    } catch {
      return bad(`${where}: ${path} is not a PEM ${typeof t.key === 'string' ? 'public key' : 'certificate'}`);
    }
  }
  return ok(out);
}

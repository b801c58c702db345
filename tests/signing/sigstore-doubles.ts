/**
 * Test doubles of Sigstore's services, shared by the keyless tests (SPEC D215, D217):
 * @sigstore/mock's certificate authority and transparency log (real keys, certificates and
 * signed entries), what they lack filled in the way the real services do it (a signed
 * certificate timestamp; Rekor's stored form of a dsse entry), a trust root naming their
 * keys, and loopback http servers speaking Fulcio's and Rekor's APIs around them.
 */
import {
  createHash,
  generateKeyPairSync,
  createPublicKey,
  sign,
  verify,
  webcrypto,
  X509Certificate,
  type KeyPairKeyObjectResult,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fulcioHandler, initializeCA, initializeTLog } from '@sigstore/mock';
import * as x509 from '@peculiar/x509';
import { INTOTO_PAYLOAD_TYPE, pae } from '../../main/services/signing/bundle';

export const ec = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** A trusted_root.json naming the mock CA, CT log and transparency log, valid from an hour ago. */
export function trustedRoot(
  ca: Buffer,
  ctlog: { publicKey: Buffer; logID: Buffer },
  tlogKey: Buffer,
  urls = { fulcio: 'https://fulcio.test', rekor: 'https://rekor.test' },
): string {
  const start = new Date(Date.now() - 3600_000).toISOString();
  const log = (url: string, key: Buffer, id: Buffer) => ({
    baseUrl: url,
    hashAlgorithm: 'SHA2_256',
    publicKey: { rawBytes: b64(key), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start } },
    logId: { keyId: b64(id) },
  });
  return JSON.stringify({
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [log(urls.rekor, tlogKey, createHash('sha256').update(tlogKey).digest())],
    certificateAuthorities: [
      {
        subject: { organization: 'sigstore.mock', commonName: 'sigstore' },
        uri: urls.fulcio,
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
export async function withSct(
  der: Buffer,
  caKeys: KeyPairKeyObjectResult,
  ct: KeyPairKeyObjectResult,
): Promise<Buffer> {
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
export interface RekorEntry {
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

/** A compact JWT signed ES256 with `key`: the test's OIDC identity token. */
export function makeToken(key: KeyPairKeyObjectResult['privateKey'], claims: Record<string, unknown>): string {
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signed = `${part({ alg: 'ES256', typ: 'JWT', kid: 'test' })}.${part(claims)}`;
  const sig = sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' });
  return `${signed}.${sig.toString('base64url')}`;
}

/** The OIDC issuer the Fulcio double trusts: tokens it signed, for this `iss`. */
export interface TestIssuer {
  readonly url: string;
  readonly keys: KeyPairKeyObjectResult;
}

export interface SigstoreDoubles {
  readonly fulcioUrl: string;
  readonly rekorUrl: string;
  /** A trusted_root.json naming the doubles' CA, CT log and transparency log. */
  readonly root: string;
  /** Requests each service received. */
  readonly requests: { fulcio: number; rekor: number };
  close(): Promise<void>;
}

type Reply = { status: number; body: string };
const json = (status: number, v: unknown): Reply => ({ status, body: JSON.stringify(v) });

function serve(route: string, handle: (body: string) => Promise<Reply>): Promise<Server> {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply =
        req.method === 'POST' && req.url === route
          ? handle(Buffer.concat(chunks).toString('utf8'))
          : Promise.resolve(json(404, { message: `no route ${req.method} ${req.url}` }));
      void reply
        .catch((e: unknown) => json(500, { message: e instanceof Error ? e.message : String(e) }))
        .then((r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body));
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const toPem = (der: Buffer) => new X509Certificate(der).toString();

/**
 * Fulcio and Rekor on 127.0.0.1. Fulcio checks what the real one checks of a request — the
 * token's signature by the trusted issuer, its `iss` and expiry, and the proof of possession
 * (the subject signed with the key to certify) — then issues through @sigstore/mock's handler
 * and adds the SCT. On a bad token it echoes the token, as a careless service might, so a
 * test can see the CLI keep it out of its output. Rekor checks the DSSE signature against the
 * certificate and logs the entry in the stored form real Rekor gives a dsse v0.0.1 entry.
 */
export async function startSigstoreDoubles(issuer: TestIssuer): Promise<SigstoreDoubles> {
  const requests = { fulcio: 0, rekor: 0 };
  const caKeys = ec();
  const ctKeys = ec();
  const tlogKeys = ec();
  const ca = await initializeCA(caKeys);
  const mockFulcio = fulcioHandler(ca);

  const fulcio = await serve('/api/v2/signingCert', async (body) => {
    requests.fulcio++;
    const req = JSON.parse(body) as {
      credentials: { oidcIdentityToken: string };
      publicKeyRequest: { publicKey: { content: string }; proofOfPossession: string };
    };
    const token = req.credentials.oidcIdentityToken;
    const [head, claimsPart, sigPart] = token.split('.');
    const claims = JSON.parse(Buffer.from(claimsPart ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const signedByIssuer = verify(
      'sha256',
      Buffer.from(`${head}.${claimsPart}`),
      { key: issuer.keys.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(sigPart ?? '', 'base64url'),
    );
    if (!signedByIssuer || claims.iss !== issuer.url || Number(claims.exp) * 1000 < Date.now())
      return json(401, { code: 16, message: `invalid identity token ${token}` });
    const proof = verify(
      'sha256',
      Buffer.from(String(claims.sub)),
      createPublicKey(req.publicKeyRequest.publicKey.content),
      Buffer.from(req.publicKeyRequest.proofOfPossession, 'base64'),
    );
    if (!proof) return json(400, { code: 3, message: 'the proof of possession does not verify' });
    const issued = await mockFulcio.fn(body);
    if (issued.statusCode !== 201) return { status: issued.statusCode, body: String(issued.response) };
    const chain = (
      JSON.parse(String(issued.response)) as { signedCertificateEmbeddedSct: { chain: { certificates: string[] } } }
    ).signedCertificateEmbeddedSct.chain.certificates;
    const leaf = await withSct(Buffer.from(new X509Certificate(chain[0]!).raw), caKeys, ctKeys);
    return json(201, { signedCertificateEmbeddedSct: { chain: { certificates: [toPem(leaf), chain[1]!] } } });
  });

  // The log is made once the server has its port: its checkpoints name the log's address.
  const log: { tlog?: Awaited<ReturnType<typeof initializeTLog>> } = {};
  const rekor = await serve('/api/v1/log/entries', async (body) => {
    requests.rekor++;
    const proposed = JSON.parse(body) as {
      kind: string;
      apiVersion: string;
      spec: { proposedContent: { envelope: string; verifiers: string[] } };
    };
    if (proposed.kind !== 'dsse') return json(400, { message: `entry kind ${proposed.kind} is not served here` });
    const { envelope, verifiers } = proposed.spec.proposedContent;
    const env = JSON.parse(envelope) as { payload: string; payloadType: string; signatures: Array<{ sig: string }> };
    const payload = Buffer.from(env.payload, 'base64');
    const cert = new X509Certificate(Buffer.from(verifiers[0]!, 'base64'));
    const sig = env.signatures[0]!.sig;
    if (
      env.payloadType !== INTOTO_PAYLOAD_TYPE ||
      !verify('sha256', pae(env.payloadType, payload), cert.publicKey, Buffer.from(sig, 'base64'))
    )
      return json(400, { message: 'the envelope signature does not verify' });
    const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');
    const stored = {
      apiVersion: proposed.apiVersion,
      kind: 'dsse',
      spec: {
        envelopeHash: { algorithm: 'sha256', value: sha(envelope) },
        payloadHash: { algorithm: 'sha256', value: sha(payload) },
        signatures: [{ signature: sig, verifier: verifiers[0] }],
      },
    };
    return json(201, await log.tlog!.log(stored));
  });
  log.tlog = await initializeTLog(urlOf(rekor), tlogKeys);

  const spki = (k: KeyPairKeyObjectResult) => k.publicKey.export({ type: 'spki', format: 'der' });
  const ctlog = { publicKey: spki(ctKeys), logID: createHash('sha256').update(spki(ctKeys)).digest() };
  return {
    fulcioUrl: urlOf(fulcio),
    rekorUrl: urlOf(rekor),
    root: trustedRoot(ca.rootCertificate, ctlog, spki(tlogKeys), { fulcio: urlOf(fulcio), rekor: urlOf(rekor) }),
    requests,
    close: () =>
      Promise.all([fulcio, rekor].map((s) => new Promise<void>((done) => s.close(() => done())))).then(() => undefined),
  };
}

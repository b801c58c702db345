import { describe, expect, it } from 'vitest';
import { SECRET_RULES } from '../../shared/lint/safety/secret-rules';
import { findSecrets } from '../../shared/lint/safety/secrets';
import { isPlaceholderCredential } from '../../shared/lint/safety/credentials';
import { lintTree, manifested, mustCheck } from './helpers';

/*
 * The vendored rule set (D240) and the false-alarm classes of issue 39 (D241, D242). Every
 * key here is assembled at run time from a fake alphabet, so no credential-shaped literal
 * sits in the source.
 */
const ALPHA = 'Ab3Cd5Ef7Gh9Jk2Lm4Np6Qr8St1Uv3Wz5Xy0Ba';
const alnum = (n: number): string => ALPHA.repeat(Math.ceil(n / ALPHA.length)).slice(0, n);
const letters = (n: number): string =>
  alnum(n * 2)
    .replace(/[0-9]/g, '')
    .slice(0, n);
const digits = (n: number): string => '3917284650'.repeat(Math.ceil(n / 10)).slice(0, n);
const hex = (n: number): string => 'a3f9c1e7b5d2'.repeat(Math.ceil(n / 12)).slice(0, n);
const cat = (...parts: string[]): string => parts.join('');

/** One spelling per rule label that only the new rule set finds. */
const NEW_SHAPES: Array<[string, string]> = [
  ['AWS access key', cat('ASIA', 'QWRTPZ2345BNMKLJ')],
  ['AWS secret access key', cat('AWS_SECRET_ACCESS_KEY=', alnum(36), '+/', alnum(2))],
  ['Anthropic API key', cat('sk-ant-', 'admin01-', alnum(90))],
  ['OpenAI service-account or admin key', cat('sk-', 'svcacct-', alnum(60))],
  ['GitHub token', cat('gh', 'o_', alnum(36))],
  ['GitLab token', cat('glp', 'at-', alnum(20))],
  ['Slack token', cat('xapp', '-1-', alnum(12), '-', digits(13))],
  ['Slack webhook', cat('https://hooks.slack.com/services/', 'T', alnum(8), '/B', alnum(8), '/', alnum(24))],
  ['npm token', cat('np', 'm_', alnum(36))],
  ['npm auth token', cat('//registry.npmjs.org/:_auth', 'Token=', alnum(36))],
  ['Groq API key', cat('gs', 'k_', alnum(52))],
  ['Hugging Face token', cat('h', 'f_', letters(34))],
  ['Notion token', cat('nt', 'n_', digits(11), alnum(35))],
  ['SendGrid API key', cat('S', 'G.', alnum(22), '.', alnum(43))],
  ['Shopify token', cat('shp', 'at_', hex(32))],
  ['Grafana token', cat('gl', 'c_', alnum(40))],
  ['Grafana token', cat('gl', 'sa_', alnum(32), '_', hex(8))],
  ['1Password service token', cat('op', 's_ey', alnum(120), 'fQ==')],
  ['HashiCorp Vault token', cat('hv', 's.', alnum(95))],
  ['HashiCorp Vault token', cat('hv', 'b.', alnum(140))],
  ['Vercel token', cat('vc', 'p_', alnum(24))],
  ['Databricks token', cat('dap', 'i', hex(32))],
  ['Docker access token', cat('dck', 'r_pat_', alnum(27))],
  ['Figma token', cat('fi', 'gd_', alnum(40))],
  ['Stripe live key', cat('r', 'k_live_', alnum(24))],
  ['Linear API key', cat('lin', '_api_', alnum(32))],
  ['DB connection secret', cat('mysqlx://app:', alnum(10), '@db')],
  ['DB connection secret', cat('rediss://default:', alnum(10), '@cache:6380')],
  ['password in a URL', cat('https://deploy:', alnum(12), '@git.corp.test/repo.git')],
];

describe('the vendored rule set (D240)', () => {
  it('every rule names its kind and carries the g flag', () => {
    for (const r of SECRET_RULES) {
      expect(r.label.length).toBeGreaterThan(3);
      expect(r.re.flags).toContain('g');
    }
  });

  it.each(NEW_SHAPES)('finds a %s, whole', (label, secret) => {
    const hits = findSecrets(`value: ${secret} end`);
    expect(hits.map((h) => h.label)).toEqual([label]);
    const at = secret.indexOf(hits[0]!.match);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(hits[0]!.offset).toBe('value: '.length + at);
    // A key is matched whole; a URL up to its credential's end, or whole with its host.
    if (!/:\/\//.test(secret) && !secret.includes('=')) expect(hits[0]!.match).toBe(secret);
  });

  it('every rule label is exercised by a spelling here or in safety-secrets.test.ts', () => {
    const here = new Set(NEW_SHAPES.map(([l]) => l));
    const earlier = ['OpenAI project key', 'OpenAI key', 'GitHub fine-grained token', 'Google API key', 'private key'];
    for (const r of SECRET_RULES) expect(here.has(r.label) || earlier.includes(r.label), r.label).toBe(true);
  });

  it('hits come in text order across rules', () => {
    const a = cat('gl', 'pat-', alnum(20));
    const b = cat('AK', 'IA', 'QWRTPZ2345BNMKLJ');
    expect(findSecrets(`${a} then ${b}`).map((h) => h.match)).toEqual([a, b]);
  });
});

/** A PEM block of the given body lines. */
const pem = (kind: string, lines: readonly string[]): string =>
  `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${kind}PRIVATE KEY-----`;
const keyLines = (n: number, width = 64): string[] =>
  Array.from({ length: n }, (_, i) => `${alnum(width + 8).slice(i % 8, (i % 8) + width - 2)}+/`);

describe('private keys count only with a key-like body (D241)', () => {
  it.each([
    ['a header alone', '-----BEGIN RSA PRIVATE KEY-----'],
    ['a header and an elided body', '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----'],
    ['a header and …', '-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----'],
    ['a header and <key>', '-----BEGIN OPENSSH PRIVATE KEY-----\n<your key here>\n-----END OPENSSH PRIVATE KEY-----'],
    ['an empty block', '-----BEGIN EC PRIVATE KEY-----\n\n-----END EC PRIVATE KEY-----'],
    ['a first line then ...', pem('RSA ', ['MIIEpAIBAAKCAQEA' + alnum(20), '...'])],
    ['a JSON example', '{"private_key": "-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"}'],
    [
      'filler lines',
      pem(
        '',
        Array.from({ length: 4 }, () => 'A'.repeat(64)),
      ),
    ],
    [
      'an alphabet',
      pem(
        '',
        Array.from({ length: 4 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
      ),
    ],
    ['prose after the header', '-----BEGIN PRIVATE KEY----- is the line a PKCS#8 file starts with, then its body'],
    [
      'short lines',
      pem(
        '',
        Array.from({ length: 12 }, (_, i) => alnum(20).slice(i % 5, (i % 5) + 12)),
      ),
    ],
  ])('not: %s', (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    ['PKCS#8', pem('', keyLines(4))],
    ['RSA, 64-character lines', pem('RSA ', keyLines(25))],
    ['OpenSSH, 70-character lines', pem('OPENSSH ', keyLines(6, 70))],
    [
      'encrypted PEM with header fields',
      pem('RSA ', ['Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-128-CBC,' + hex(32), '', ...keyLines(4)]),
    ],
    [
      'PGP armour',
      `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${keyLines(4).join('\n')}\n=${alnum(4)}\n-----END PGP PRIVATE KEY BLOCK-----`,
    ],
    [
      'a service-account JSON',
      `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${keyLines(4).join('\\n')}\\n-----END PRIVATE KEY-----\\n"}`,
    ],
    ['a key without its END line', `-----BEGIN PRIVATE KEY-----\n${keyLines(3).join('\n')}\n`],
    ['a key on one line', `KEY="-----BEGIN PRIVATE KEY----- ${keyLines(3).join(' ')} -----END PRIVATE KEY-----"`],
  ])('finds %s, header to END', (_what, text) => {
    const hits = findSecrets(text);
    expect(hits.map((h) => h.label)).toEqual(['private key']);
    expect(hits[0]!.match.startsWith('-----BEGIN')).toBe(true);
    if (text.includes('-----END')) expect(hits[0]!.match).toMatch(/-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----$/);
  });

  it('an elided key beside a real one: the real one is still found', () => {
    const real = pem('RSA ', keyLines(4));
    const hits = findSecrets(`${pem('RSA ', ['...'])}\n\n${real}`);
    expect(hits.map((h) => h.match)).toEqual([real]);
  });
});

describe('placeholder credentials in URLs (D242)', () => {
  it.each([
    'postgres://user:p%40ssw%24rd@host/db',
    'postgresql://postgres:postgres@localhost:5432/test_db',
    'mysql://root:root@127.0.0.1:3306/app',
    'amqp://guest:guest@rabbitmq:5672/',
    'mongodb://admin:admin123@mongo:27017',
    'postgres://app:P%40ssw0rd@db/app',
    'postgres://app:pa55word@db/app',
    'postgres://app:my_password1@db/app',
    'postgres://app:changeme@db/app',
    'postgres://app:…secret…@db/app',
    'postgres://app:<token>@db/app',
    'postgres://app:${PGPASSWORD}@db/app',
    'postgres://app:$PGPASSWORD@db/app',
    'postgres://app:example1@db/app',
    'postgres://app:123456789@db/app',
    'https://user:password@example.com/x',
    'https://deploy:********@git.corp.test/x',
    'https://deploy:dev_password@git.corp.test/x',
  ])('not a secret: %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    ['a random password at localhost', cat('postgres://app:', alnum(12), '@localhost:5432/app')],
    ['a random password at an example host', cat('postgres://app:', alnum(12), '@db.example.com/app')],
    ['a URL-encoded random password', cat('postgres://app:', alnum(6), '%40', alnum(6), '@db/app')],
    ['a password that only contains a word', 'postgres://app:Tr0mb0ne-password-77x@db/app'],
    ['a basic-auth URL', cat('https://ci-bot:', alnum(16), '@git.corp.test/x')],
  ])('still a secret: %s', (_what, text) => {
    expect(findSecrets(text)).toHaveLength(1);
  });

  it('judges the password, not the host, and each URL on its own', () => {
    expect(isPlaceholderCredential('postgres', 'postgres')).toBe(true);
    expect(isPlaceholderCredential('app', 'p%40ssw%24rd')).toBe(true);
    expect(isPlaceholderCredential('app', alnum(12))).toBe(false);
    const real = cat('postgres://app:', alnum(12), '@db/app');
    expect(findSecrets(`postgres://postgres:postgres@localhost/db\n${real}`).map((h) => h.match)).toEqual([
      real.replace(/@.*$/, '@'),
    ]);
  });
});

describe('secrets in lintSkill: the false-alarm classes no longer block (issue 39)', () => {
  it('passes a CI service block, an elided key and an encoded documentation password', () => {
    const body = [
      'services: { postgres: { env: { DATABASE_URL: "postgres://postgres:postgres@localhost:5432/ci" } } }',
      'connect("postgres://user:p%40ssw%24rd@host/db")',
      '```\n-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n```',
    ].join('\n\n');
    const checks = lintTree(manifested(body));
    expect(checks.find((c) => c.id === 'secrets')).toBeUndefined();
  });

  it('still blocks a real key in the same file', () => {
    const real = pem('', keyLines(4));
    const c = mustCheck(lintTree(manifested(`-----BEGIN RSA PRIVATE KEY-----\n...\n\n${real}\n`)), 'secrets');
    expect(c.status).toBe('fail');
    expect(c.locations).toHaveLength(1);
    expect(c.locations![0]).toMatchObject({ line: 4, endLine: 9 });
  });
});

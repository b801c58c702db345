import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../shared/lint/safety/secrets';
import { check, lintTree, manifested, mustCheck } from './helpers';

/** Key-shaped strings are assembled at run time, so no literal credential sits in the source. */
const alnum = (n: number): string => 'Ab3Cd5Ef7Gh9Jk2Lm4Np6Qr8St1Uv3Wz5'.repeat(Math.ceil(n / 33)).slice(0, n);
const upper = (n: number): string => 'QWRTPZ2345BNMKLJ6789'.repeat(Math.ceil(n / 20)).slice(0, n);
/** A key-shaped PEM block: four 64-character base64 lines (D241 — a header alone is no key). */
const pem = (kind: string): string => {
  const body = [0, 1, 2, 3].map((i) => `${alnum(70).slice(i, i + 60)}+/${upper(2)}`).join('\n');
  return `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`;
};

const SHAPES: Array<[string, string]> = [
  ['AWS access key', `AKIA${upper(16)}`],
  ['Anthropic API key', `sk-ant-api03-${alnum(90)}`],
  ['Anthropic API key', `sk-ant-${alnum(80)}`],
  ['OpenAI project key', `sk-proj-${alnum(44)}`],
  ['OpenAI key', `sk-${alnum(48)}`],
  ['GitHub token', `ghp_${alnum(36)}`],
  ['GitHub fine-grained token', `github_pat_${alnum(22)}_${alnum(59)}`],
  ['Google API key', `AIza${alnum(35)}`],
  ['Stripe live key', `sk_live_${alnum(24)}`],
  ['Slack token', `xoxb-${alnum(12)}-${alnum(12)}`],
  ['Slack token', `xoxp-${alnum(14)}`],
  ['Linear API key', `lin_api_${alnum(40)}`],
  ['DB connection secret', `postgres://admin:${alnum(12)}@db.internal:5432/app`],
  ['DB connection secret', `postgresql://u:${alnum(8)}@h/db`],
  ['DB connection secret', `mongodb+srv://u:${alnum(8)}@cluster.example`],
  ['DB connection secret', `mysql://root:${alnum(6)}@localhost`],
  ['DB connection secret', `redis://default:${alnum(10)}@cache:6379`],
  ['DB connection secret', `amqp://guest:${alnum(9)}@mq`],
  ['private key', pem('')],
  ['private key', pem('RSA ')],
  ['private key', pem('EC ')],
  ['private key', pem('DSA ')],
  ['private key', pem('OPENSSH ')],
  ['private key', pem('PGP ')],
];

describe('findSecrets: every label (SPEC §9.5)', () => {
  it.each(SHAPES)('%s: %s', (label, secret) => {
    const hits = findSecrets(`token = "${secret}"`);
    expect(hits.map((h) => h.label)).toContain(label);
    const hit = hits.find((h) => h.label === label)!;
    expect(hit.offset).toBe('token = "'.length);
  });

  it.each([
    ['AWS key of 15 characters', `AKIA${upper(15)}`],
    ['AWS key inside a longer word', `XAKIA${upper(16)}`],
    ['AWS key with lower case', `AKIA${upper(8).toLowerCase()}${upper(8)}`],
    ['Anthropic key too short', `sk-ant-${alnum(79)}`],
    ['OpenAI key of 47', `sk-${alnum(47)}`],
    ['OpenAI key of 49', `sk-${alnum(49)}`],
    ['GitHub token of 35', `ghp_${alnum(35)}`],
    ['Stripe test key', `sk_test_${alnum(30)}`],
    ['Slack token too short', `xoxb-${alnum(11)}`],
    ['Slack token of an unknown kind', `xoxz-${alnum(20)}`],
    ['DB URL without a password', 'postgres://admin@db/app'],
    ['DB URL with a 5-character password', 'postgres://admin:abcde@db/app'],
    ['http URL with credentials', `https://u:${alnum(10)}@example.com`],
    ['public key', '-----BEGIN PUBLIC KEY-----'],
    ['lower-case label', '-----begin private key-----'],
  ])('does not match %s', (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('is case-sensitive in the prefix', () => {
    expect(findSecrets(`GHP_${alnum(36)}`)).toEqual([]);
    expect(findSecrets(`akia${upper(16)}`)).toEqual([]);
  });
});

describe('findSecrets: placeholders are ignored, each match judged on its own (D3)', () => {
  it.each([
    ['EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
    ['example (any case)', `ghp_example${alnum(29)}`],
    ['XXXX', `sk_live_XXXX${alnum(24)}`],
    ['YOUR', `ghp_YOUR${alnum(32)}`],
    ['YOUR_', `sk-proj-YOUR_${alnum(40)}`],
    ['your- (any case)', `sk-proj-your-${alnum(40)}`],
    ['PLACEHOLDER', `sk-proj-PLACEHOLDER${alnum(40)}`],
    ['REDACTED', `sk-ant-REDACTED${alnum(80)}`],
    ['...', 'postgres://user:abc...xyz@db/app'],
    ['<letter', 'postgres://user:<password>@db/app'],
    ['${', 'postgres://user:${DB_PASSWORD}@db/app'],
  ])('%s', (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('a real key after a placeholder of the same shape is still found', () => {
    const real = `AKIA${upper(16)}`;
    const hits = findSecrets(`example: AKIAIOSFODNN7EXAMPLE\nreal: ${real}\n`);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.match).toBe(real);
  });

  it('every real occurrence is reported', () => {
    const a = `ghp_${alnum(36)}`;
    const b = `ghp_${upper(36)}`;
    expect(findSecrets(`${a} and ghp_YOUR${alnum(32)} and ${b}`).map((h) => h.match)).toEqual([a, b]);
  });

  it('the placeholder words are looked for in the match only, not the surrounding text', () => {
    const real = `ghp_${alnum(36)}`;
    expect(findSecrets(`YOUR token, a PLACEHOLDER for nothing: ${real}`).map((h) => h.match)).toEqual([real]);
  });

  it('an Example label on the line of the match makes it documentation; on another line it does not', () => {
    const real = `ghp_${alnum(36)}`;
    expect(findSecrets(`Example: ${real}`)).toEqual([]);
    expect(findSecrets(`token = "${real}"  # e.g. what the API returns`)).toEqual([]);
    expect(findSecrets(`Example:\n${real}`).map((h) => h.match)).toEqual([real]);
    expect(findSecrets(`mongodb+srv://u:${alnum(8)}@cluster.example`)).toHaveLength(1);
  });

  it.each([
    'postgresql://user:password@host:port/database',
    'postgresql://username:password@localhost:5432/database',
    'mysql://root:changeme@localhost/db',
    'postgres://$DB_USER:$DB_PASSWORD@db:5432/app',
    'postgres://app:$DB_PASSWORD@db:5432/app',
    'postgres://app:<password>@db:5432/app',
    'postgres://app:[password]@db:5432/app',
    'postgres://app:{password}@db:5432/app',
    'postgres://app:%(password)s@db:5432/app',
    'postgres://app:********@db:5432/app',
    'redis://default:your_password@cache:6379',
    `sk-${'abcdefghijklmnopqrstuvwxyz'}${'abcdefghijklmnopqrstuv'}`,
    'AKIA0123456789ABCDEF'.replace('0123456789ABCDEF', 'ABCDEFGHIJKLMNOP'),
    `ghp_${'DUMMY'.repeat(7)}x`,
  ])('a placeholder credential is not a secret: %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    'postgresql://{{username}}:{{password}}@postgres.example.com:5432/app',
    'postgresql://vault:{{.Password}}@db:5432/app',
    'mysql://app:{{{password}}}@db/app',
    'postgres://app:${DB_PASSWORD}@db:5432/app',
    'postgres://app:$(DB_PASSWORD)@db:5432/app',
    'postgres://app:%DB_PASSWORD%@db:5432/app',
    'postgres://app:#{password}@db:5432/app',
    '//registry.npmjs.org/:_authToken={{NPM_TOKEN}}',
  ])('a template hole is not a secret (D248): %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    // A literal beside a hole, or a hole only in the user, is a password someone wrote.
    'postgres://{{username}}:Xk9mq2Lp7v@db:5432/app',
    'postgres://app:{{pw}}Xk9mq2Lp7v@db:5432/app',
    'postgres://app:Xk9mq2Lp7v{{pw}}@db:5432/app',
    'postgres://app:{{a}}Xk9mq2{{b}}@db:5432/app',
    'postgres://app:{Xk9mq2Lp7v@db:5432/app',
    'postgres://app:%Xk9mq2Lp7v@db:5432/app',
    '//registry.npmjs.org/:_authToken={{x}}Xk9mq2Lp7v',
  ])('a real value beside or around a hole is still a secret (D248): %s', (text) => {
    expect(findSecrets(text)).toHaveLength(1);
  });

  it('a key that strings several runs together is still a key (only one run is a sequential fake)', () => {
    expect(findSecrets('AKIA1234567890ABCDEF').map((h) => h.label)).toEqual(['AWS access key']);
    expect(findSecrets('postgres://admin:s3cr3tPass99@db.host:5432/app').map((h) => h.label)).toEqual([
      'DB connection secret',
    ]);
    expect(findSecrets('postgres://admin:password123!@db.host:5432/app').map((h) => h.label)).toEqual([
      'DB connection secret',
    ]);
  });
});

describe('secrets in lintSkill', () => {
  it('is absent when nothing matches', () => {
    expect(
      check(lintTree(manifested('Set ${OPENAI_API_KEY} first, see sk-ant-... and ghp_YOUR_TOKEN_HERE.')), 'secrets'),
    ).toBeUndefined();
  });

  it('fails on a key in a dotfile, located there', () => {
    const key = `ghp_${alnum(36)}`;
    const c = mustCheck(lintTree(manifested('Body', { '.env': `# env\nGITHUB_TOKEN=${key}\n` })), 'secrets');
    expect(c.status).toBe('fail');
    expect(c.detail).toContain('GitHub token');
    expect(c.detail).toContain('.env');
    expect(c.detail).not.toContain(key);
    expect(c.locations).toEqual([{ file: '.env', line: 2, column: 14, endLine: 2, endColumn: 14 + key.length }]);
  });

  it('fails on the real key after a placeholder (D3)', () => {
    const c = mustCheck(lintTree(manifested(`Example: AKIAIOSFODNN7EXAMPLE\n\nReal: AKIA${upper(16)}\n`)), 'secrets');
    expect(c.locations).toEqual([{ file: 'SKILL.md', line: 3, column: 7, endLine: 3, endColumn: 27 }]);
  });

  it('lists each finding of several files', () => {
    const c = mustCheck(
      lintTree(manifested(`A: sk_live_${alnum(30)}`, { 'scripts/x.sh': `B=xoxb-${alnum(20)}` })),
      'secrets',
    );
    expect(c.locations?.map((l) => l.file)).toEqual(['SKILL.md', 'scripts/x.sh']);
    expect(c.detail).toContain('Stripe live key');
    expect(c.detail).toContain('Slack token');
  });
});

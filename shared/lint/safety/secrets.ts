import { LITERALS_TABLE } from '../match/literals-table';
import { expressionsOf, lazyMatcher, type TextScan } from '../match/matcher';
import { lineAt, type Pattern } from './patterns';
import type { Hit } from '../types';

export const SECRETS: readonly Pattern[] = [
  { label: 'AWS access key', re: /\bAKIA[0-9A-Z]{16}\b/g },
  { label: 'Anthropic API key', re: /\bsk-ant-(?:api03-)?[A-Za-z0-9_-]{80,}/g },
  { label: 'OpenAI project key', re: /\bsk-proj-[A-Za-z0-9_-]{40,}/g },
  { label: 'OpenAI key', re: /\bsk-[A-Za-z0-9]{48}\b/g },
  { label: 'GitHub token', re: /\bghp_[A-Za-z0-9]{36}\b/g },
  { label: 'GitHub fine-grained token', re: /\bgithub_pat_[A-Za-z0-9_]{60,}/g },
  { label: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { label: 'Stripe live key', re: /\bsk_live_[A-Za-z0-9]{24,}/g },
  { label: 'Slack token', re: /\bxox[baprs]-[A-Za-z0-9-]{12,}/g },
  { label: 'Linear API key', re: /\blin_api_[A-Za-z0-9]{40,}/g },
  {
    label: 'DB connection secret',
    re: /\b(?:postgres(?:ql)?|mongodb(?:\+srv)?|mysql|redis|amqp):\/\/[^:@\s/]+:[^@\s/]{6,}@/g,
  },
  { label: 'private key', re: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP )?PRIVATE KEY-----/g },
];

/** Documentation placeholders; judged per match, so one never shields a real key elsewhere. */
const PLACEHOLDER = /EXAMPLE|XXXX|YOUR[_-]?|PLACEHOLDER|REDACTED|DUMMY|\.\.\.|<[A-Za-z]|\$\{/i;

/** A line that labels what it shows as an example (`Example:`, `e.g.`, `(sample)`). */
const EXAMPLE_LABEL = /\b(?:examples?|sample)\s*[:)]|\be\.g\.|\(\s*(?:example|sample)\b/i;

/**
 * The password of a connection URL that only names a password: a word such as `password`,
 * a shell or template variable (`$DB_PASSWORD`, `${…}`, `%(pw)s`, `{pw}`), or a bracketed
 * hole (`<password>`, `[password]`).
 */
const PLACEHOLDER_PASSWORD =
  /^(?:(?:my|your|the|db|some|user|example|sample)[_-]?)?(?:pass(?:word|wd|phrase)?|pwd|secret|changeme|change[_-]?me|dummy|example|sample|placeholder|redacted)\d{0,3}$|^\$\w+$|^%\(?\w*\)?s$|^\{\w*\}$|^[<[][^>\]]*[>\]]$|^\*+$/i;

/**
 * Sequential fakes: a key body that is one run of consecutive characters (`abcdef…`,
 * `123456…`, wrapping within its class). Only a single run counts, so a body that strings
 * several runs together (`1234567890ABCDEF`) is still judged a key.
 */
function isSequentialRun(body: string): boolean {
  const chars = body.replace(/[-_]/g, '');
  if (chars.length < 8) return false;
  for (let i = 1; i < chars.length; i++) {
    if (successor(chars[i - 1]!) !== chars[i]) return false;
  }
  return true;
}

function successor(c: string): string | undefined {
  if (c === '9') return '0';
  if (c === 'z') return 'a';
  if (c === 'Z') return 'A';
  if (/[0-8a-yA-Y]/.test(c)) return String.fromCharCode(c.charCodeAt(0) + 1);
  return undefined;
}

/** The part of a key after its fixed prefix (`AKIA`, `sk-ant-api03-`, `ghp_`, …). */
const KEY_PREFIX = /^(?:AKIA|sk-ant-(?:api03-)?|sk-proj-|sk-|ghp_|github_pat_|AIza|sk_live_|xox[baprs]-|lin_api_)/;

function isPlaceholder(match: string, text: string, offset: number): boolean {
  if (PLACEHOLDER.test(match)) return true;
  if (EXAMPLE_LABEL.test(lineAt(text, offset))) return true;
  const url = /^[^:]+:\/\/([^:@\s/]+):([^@\s/]+)@$/.exec(match);
  if (url) return PLACEHOLDER_PASSWORD.test(url[2]!) || url[1]!.startsWith('$');
  const prefix = KEY_PREFIX.exec(match);
  return prefix !== null && isSequentialRun(match.slice(prefix[0].length));
}

export const SECRET_EXPRESSIONS: readonly RegExp[] = expressionsOf(SECRETS);
const own = lazyMatcher(() => SECRET_EXPRESSIONS, LITERALS_TABLE);

/** `scan`: the text's one-pass scan, when the caller already has one. */
export function findSecrets(text: string, scan: TextScan = own().scan(text)): Hit[] {
  return scan.findAll(SECRETS, (m, t, at) => !isPlaceholder(m, t, at));
}

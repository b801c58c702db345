import { LITERALS_TABLE } from '../match/literals-table';
import { expressionsOf, lazyMatcher, type TextScan } from '../match/matcher';
import { isHole, isPlaceholderCredential, PLACEHOLDER } from './credentials';
import { lineAt, type Keep, type Pattern } from './patterns';
import { SECRET_RULES, type SecretShape } from './secret-rules';
import type { Hit } from '../types';

/** Every rule of the vendored set (./secret-rules.ts, SPEC.md D240). */
export const SECRETS: readonly Pattern[] = SECRET_RULES;

/** A line that labels what it shows as an example (`Example:`, `e.g.`, `(sample)`). */
const EXAMPLE_LABEL = /\b(?:examples?|sample)\s*[:)]|\be\.g\.|\(\s*(?:example|sample)\b/i;

/** The longest run of consecutive characters (`abcd`, `6789`, wrapping within its class) that ends `s`. */
function trailingRun(s: string): number {
  let n = s.length > 0 ? 1 : 0;
  for (let i = s.length - 1; i > 0 && successor(s[i - 1]!) === s[i]; i--) n++;
  return n;
}

function longestRun(s: string): number {
  let best = s.length > 0 ? 1 : 0;
  for (let i = 1, n = 1; i < s.length; i++) {
    n = successor(s[i - 1]!) === s[i] ? n + 1 : 1;
    if (n > best) best = n;
  }
  return best;
}

function successor(c: string): string | undefined {
  if (c === '9') return '0';
  if (c === 'z') return 'a';
  if (c === 'Z') return 'A';
  if (/[0-8a-yA-Y]/.test(c)) return String.fromCharCode(c.charCodeAt(0) + 1);
  return undefined;
}

/** Longer than every rule's fixed prefix (`sk-ant-api03-` is 13 characters, 10 without dashes). */
const MAX_PREFIX = 14;

/**
 * A made-up key body: after its prefix, one run of consecutive characters (`abcdef…`,
 * `123456…`). A body that strings several runs together (`1234567890ABCDEF`) is still
 * judged a key.
 */
function isFakeBody(match: string): boolean {
  const chars = match.replace(/[-_.]/g, '');
  return trailingRun(chars) >= Math.max(8, chars.length - MAX_PREFIX);
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

const PEM_ENDS = /^-----BEGIN [^-]*-----|-----END [^-]*-----$/g;
const NEWLINE = /\r?\n|\\(?:r\\)?n/;
/** A PEM header field (`Proc-Type: 4,ENCRYPTED`), or the armour's `=abcd` checksum. */
const NOT_BODY = /^\s*(?:[A-Za-z-]+: |=[A-Za-z0-9+/]{4}\s*$)/;
/** Random base64 carries about 6 bits a character; English or a repeated filler far less. */
const MIN_BODY_ENTROPY = 4.5;
const MIN_BODY = 100;

/**
 * Whether a PEM block carries a key: at least MIN_BODY base64 characters after the header
 * fields, every line but the last of a key's width (40 to 100 characters), random-looking
 * (entropy, no long run of consecutive characters). A header alone, or followed by `...`,
 * `…`, `<key>` or prose, documents the format (SPEC.md D241).
 */
function isKeyBody(match: string): boolean {
  const lines = match
    .replace(PEM_ENDS, '')
    .split(NEWLINE)
    .filter((l) => !NOT_BODY.test(l))
    .flatMap((l) => l.split(/[ \t]+/))
    .filter((l) => l !== '');
  if (!lines.every((l) => /^[A-Za-z0-9+/=]+$/.test(l))) return false;
  const body = lines.join('');
  if (body.length < MIN_BODY) return false;
  if (lines.slice(0, -1).some((l) => l.length < 40 || l.length > 100)) return false;
  return entropy(body) >= MIN_BODY_ENTROPY && longestRun(body) < 12;
}

/** `user:password` of a URL match (`scheme://user:password@…`). */
const URL_CREDENTIAL = /^[^:]+(?::[^:/]+)*:\/\/([^:@\s/]+):([^@\s/]+)@/;

const KEEP: Readonly<Record<SecretShape, Keep>> = {
  token: (match, text, offset) =>
    !PLACEHOLDER.test(match) &&
    !isHole(match.slice(match.indexOf('=') + 1)) &&
    !EXAMPLE_LABEL.test(lineAt(text, offset)) &&
    !isFakeBody(match),
  url: (match, text, offset) => {
    const cred = URL_CREDENTIAL.exec(match);
    if (!cred) return false;
    const [, user, password] = cred as unknown as [string, string, string];
    return !EXAMPLE_LABEL.test(lineAt(text, offset)) && !isPlaceholderCredential(user, password);
  },
  pem: (match) => isKeyBody(match),
};

const BY_SHAPE: ReadonlyArray<readonly [SecretShape, readonly Pattern[]]> = (['token', 'url', 'pem'] as const).map(
  (shape) => [shape, SECRET_RULES.filter((r) => r.shape === shape)] as const,
);

export const SECRET_EXPRESSIONS: readonly RegExp[] = expressionsOf(SECRETS);
const own = lazyMatcher(() => SECRET_EXPRESSIONS, LITERALS_TABLE);

/** `scan`: the text's one-pass scan, when the caller already has one. Hits in text order. */
export function findSecrets(text: string, scan: TextScan = own().scan(text)): Hit[] {
  return BY_SHAPE.flatMap(([shape, rules]) => scan.findAll(rules, KEEP[shape])).sort((a, b) => a.offset - b.offset);
}

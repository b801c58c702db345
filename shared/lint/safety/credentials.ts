/**
 * Whether the `user:password` of a connection or basic-auth URL only stands for a credential
 * (SPEC.md D242). The password alone decides, never the host: a real password pasted with
 * `localhost` or an example host is still a password someone uses. What counts:
 *
 * - a placeholder marker (EXAMPLE, XXXX, YOUR…, `...`, `…`, `<…>`, `${…}`), in either part;
 * - a variable or a template hole: `$DB_PASSWORD`, `%(pw)s`, `{pw}`, `{{password}}`,
 *   `[password]`, `****` (`isHole`), or a user that is a variable (`$DB_USER:…`);
 * - the user's own name (`postgres:postgres`, `root:root`): a service's default, public;
 * - a placeholder or well-known default word (`password`, `changeme`, `postgres`, `guest`…),
 *   after an optional `my`/`your`/`db`… prefix and up to three digits, and read through
 *   URL-encoding and masking: `p%40ssw%24rd` is `p@ssw$rd`, where a digit or punctuation
 *   stands in for a letter;
 * - one character repeated, or one run of consecutive characters (`12345678`).
 */

/** Documentation placeholders; judged per match, so one never shields a real key elsewhere. */
export const PLACEHOLDER = /EXAMPLE|XXXX|YOUR[_-]?|PLACEHOLDER|REDACTED|DUMMY|\.\.\.|…|<[A-Za-z]|\$\{/i;

/**
 * A variable or a template hole filled in when the text is used, standing for the whole value:
 * shell and Make (`$PW`, `${PW}`, `$(PW)`), cmd.exe (`%PW%`), printf and Python (`%s`,
 * `%(pw)s`, `{pw}`), Ruby (`#{pw}`), Mustache, Jinja, Go and Vault templates (`{{pw}}`,
 * `{{ .Password }}`, `{{{pw}}}`), and the `<pw>`, `[pw]`, `****` of documentation. One hole and
 * nothing else: a literal beside a hole (`{{pw}}Xk9…`) is text someone wrote (SPEC.md D248).
 */
const HOLE =
  /^(?:\$\w+|\$\{[^{}]*\}|\$\(\w+\)|%\w+%|%\(?\w*\)?[sd]|\{\w*\}|#\{[^{}]*\}|\{\{\{?[^{}]+\}?\}\}|[<[][^>\]]*[>\]]|\*+)$/;

/** Whether `value`, a password or a key=value secret's value, is one variable or template hole. */
export function isHole(value: string): boolean {
  return HOLE.test(value.trim());
}

const PREFIXES =
  'my|your|the|db|some|user|example|sample|dev|test|local|app|admin|root|default|new|strong|secure|super';

/** Placeholder words, and the defaults a service ships with (public, so no secret). */
const WORDS = [
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'changeme',
  'changeit',
  'dummy',
  'example',
  'sample',
  'placeholder',
  'redacted',
  'postgres',
  'mysql',
  'root',
  'toor',
  'admin',
  'guest',
  'test',
  'letmein',
  'qwerty',
  'default',
];

/** Digits that spell letters, and any ASCII punctuation, may stand in for a letter. */
const STAND_INS: Readonly<Record<string, string>> = { a: '4', e: '3', i: '1', l: '1', o: '0', s: '5', t: '7', g: '9' };
const PUNCTUATION = String.raw`!-\/:-@\[-\x60{-~`;

const masked = (word: string): string => [...word].map((c) => `[${c}${STAND_INS[c] ?? ''}${PUNCTUATION}]`).join('');

const PLACEHOLDER_WORD = new RegExp(`^(?:(?:${PREFIXES}))?(?:${WORDS.map(masked).join('|')})\\d{0,3}$`, 'i');

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** One run of consecutive characters (`abcdefgh`, `12345678`), at least eight long. */
function isSequential(s: string): boolean {
  if (s.length < 8) return false;
  for (let i = 1; i < s.length; i++) {
    const prev = s.charCodeAt(i - 1);
    if (s.charCodeAt(i) !== prev + 1 || !/[0-9a-zA-Z]/.test(s[i]!)) return false;
  }
  return true;
}

export function isPlaceholderCredential(user: string, password: string): boolean {
  if (PLACEHOLDER.test(user) || PLACEHOLDER.test(password) || user.startsWith('$')) return true;
  const pw = decoded(password);
  const name = decoded(user);
  if (isHole(pw)) return true;
  if (pw.toLowerCase() === name.toLowerCase()) return true;
  if (PLACEHOLDER_WORD.test(pw.replace(/[_-]/g, ''))) return true;
  return /^(.)\1*$/.test(pw) || isSequential(pw);
}

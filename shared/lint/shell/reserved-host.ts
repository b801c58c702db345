import type { Word } from './parse';

/*
 * Fetches that cannot deliver anyone's payload (SPEC.md D246). The names RFC 2606, RFC 6761
 * and RFC 8375 reserve can be registered by no one, and no public certificate authority
 * issues a certificate for them (IANA holds the example domains), so an HTTPS fetch from one,
 * with certificate checking left on, is answered by IANA or by nobody. That is the style
 * example of documentation (`curl -fsSL https://example.com/install.sh | sh`), not a way to
 * run someone's code. Everything here errs toward "remote": one URL, option or spelling this
 * module does not recognise, and the fetch is judged as before.
 */

/**
 * Reserved names: the name itself or any name under it. Left out though reserved: `localhost`
 * (this machine, where any process can answer and a local CA such as mkcert's can vouch),
 * `test` (development resolvers such as Laravel Valet's answer `*.test` with a trusted local
 * CA) and `home.arpa` (a home network's own names): each has a local answerer by design.
 */
const RESERVED = ['example.com', 'example.net', 'example.org', 'example', 'invalid'];

/**
 * An HTTPS URL spelled the way documentation spells one: lower-case scheme and host, no user
 * information, no trailing dot, an optional port, then a path, query or fragment without
 * whitespace. A host with an expansion, an `@`, a backslash, a non-ASCII letter, upper case,
 * brackets or a glob does not match, so it is never reserved.
 */
const URL =
  /^https:\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::\d{1,5})?(?:[/?#]\S*)?$/;

/** Whether `host` (lower-case ASCII, no trailing dot) is a reserved name or under one. */
export function isReservedHost(host: string): boolean {
  return RESERVED.some((r) => host === r || host.endsWith(`.${r}`));
}

/** Whether `url` is an HTTPS URL whose host, read as strictly as above, is reserved. */
export function isReservedUrl(url: string): boolean {
  const m = URL.exec(url);
  return m !== null && isReservedHost(m[1]!);
}

/**
 * Text that changes where a name resolves or which certificates are trusted — a proxy, a hosts
 * file, a resolver override, another CA, certificate checks off, a tool's own config file — or
 * that sources a file (a path, a variable or a name with an extension, where a command starts),
 * which could do any of these. Where a file
 * holds any of it, in code or prose, no fetch in it is judged reserved.
 */
const TRUST_CHANGES =
  /_proxy\b|proxy\s*=|--(?:pre)?proxy\b|\/etc\/hosts|hostaliases|--resolve\b|--connect-to\b|--doh-url\b|curlrc|wgetrc|curl_home|--insecure\b|--no-check-certificate\b|--ca(?:cert|path)\b|--ca-(?:certificate|directory)\b|ca_bundle|ssl_cert|ca_certificate\s*=|extra_ca_certs|update-ca-(?:certificates|trust)|\/usr\/local\/share\/ca-certificates|\/etc\/(?:ssl|pki)\/|(?:^[ \t>*+-]*(?:\$[ \t]+)?|[;&|(][ \t]*)(?:source|\.)[ \t]+["']?(?=[\w~$./{}-]*(?:[/$~]|\.\w))/im;

let last: { scope: string; changes: boolean } | undefined;

/** Whether `scope` holds a change of trust; the last answer is kept, as one file asks for each of its fetches. */
export function changesTrust(scope: string): boolean {
  if (last?.scope !== scope) last = { scope, changes: TRUST_CHANGES.test(scope) };
  return last.changes;
}

interface FetchOptions {
  /** Options that take no value and change nothing about where the data comes from. */
  readonly flags: ReadonlySet<string>;
  /** Options whose value (the next word, or attached) is a file, header, time or label — never fetched. */
  readonly values: ReadonlySet<string>;
  /** Single-letter options that may be clustered (`-fsSL`, `-qO-`): flag letters, value letters. */
  readonly shortFlags: string;
  readonly shortValues: string;
}

const set = (...xs: string[]): ReadonlySet<string> => new Set(xs);

const CURL: FetchOptions = {
  flags: set(
    '--fail',
    '--fail-with-body',
    '--silent',
    '--show-error',
    '--location',
    '--remote-name',
    '--remote-name-all',
    '--remote-header-name',
    '--remote-time',
    '--compressed',
    '--progress-bar',
    '--verbose',
    '--include',
    '--head',
    '--globoff',
    '--create-dirs',
    '--no-buffer',
    '--http1.1',
    '--http2',
    '--tlsv1.2',
    '--tlsv1.3',
    '--ipv4',
    '--ipv6',
    '--retry-connrefused',
    '--retry-all-errors',
  ),
  values: set(
    '--output',
    '--output-dir',
    '--header',
    '--user-agent',
    '--max-time',
    '--connect-timeout',
    '--retry',
    '--retry-delay',
    '--retry-max-time',
    '--request',
    '--write-out',
    '--continue-at',
    '--proto',
    '--proto-redir',
  ),
  shortFlags: 'fsSLOJR#viIgN46',
  shortValues: 'oHAmXwC',
};

const WGET: FetchOptions = {
  flags: set(
    '-nv',
    '-nc',
    '--quiet',
    '--no-verbose',
    '--verbose',
    '--continue',
    '--timestamping',
    '--no-clobber',
    '--show-progress',
    '--server-response',
    '--https-only',
  ),
  values: set(
    '--output-document',
    '--directory-prefix',
    '--user-agent',
    '--timeout',
    '--tries',
    '--header',
    '--progress',
    '--output-file',
  ),
  shortFlags: 'qcNSv',
  shortValues: 'OPUTto',
};

/** PowerShell's cmdlets: options are case-insensitive and never clustered; `-Uri` is followed by the URL. */
const POWERSHELL: FetchOptions = {
  flags: set('-usebasicparsing', '-uri'),
  values: set('-outfile', '-method', '-useragent', '-timeoutsec'),
  shortFlags: '',
  shortValues: '',
};

const OPTIONS: Readonly<Record<string, FetchOptions>> = {
  curl: CURL,
  wget: WGET,
  iwr: POWERSHELL,
  irm: POWERSHELL,
  'invoke-webrequest': POWERSHELL,
  'invoke-restmethod': POWERSHELL,
};

/**
 * A host that names nothing: empty, dots or an ellipsis (`...`, `…`), or a `<name>` or `[name]`
 * placeholder — one word of letters, digits, `_` and `-`, so neither a hostname with a dot nor
 * an IPv6 literal, and not a curl glob range (`[a-z]`, `[1-9]`), which curl expands into hosts.
 */
function isPlaceholderHost(host: string): boolean {
  if (/^[.…]*$/.test(host)) return true;
  const m = /^<([^<>]*)>$|^\[([^[\]]*)\]$/.exec(host);
  const name = m?.[1] ?? m?.[2];
  return name !== undefined && /^[A-Za-z][\w-]*$/.test(name) && !/^(?:[A-Za-z]-[A-Za-z]|\d+-\d+)$/.test(name);
}

/**
 * Whether a fetch operand could reach a host (SPEC.md D256): anything holding an expansion or a
 * curl glob (`{a,b}`), and every URL, with a scheme or without (curl and wget take `host/path`),
 * whose host — after the scheme and its slashes, user information and port — is not a
 * placeholder host. Erring toward "fetchable": only the placeholder shapes above are not.
 */
export function isFetchable(value: string): boolean {
  if (/[\0{}\\]/.test(value)) return true;
  const rest = value.replace(/^[A-Za-z][\w+.-]*:\/+/, '');
  const authority = rest.split(/[/?#]/, 1)[0]!;
  return !isPlaceholderHost(authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, ''));
}

/**
 * Whether a fetch with these arguments reads nothing anyone could serve: every word is an option
 * the tool's table knows (with its value), a reserved HTTPS URL (D246) or an operand that is not
 * fetchable (D256: `curl | sh`, `curl -fsSL ... | sh`, `wget [url]`). A word with a command
 * substitution, an unknown option (`-K file` and `-i file` read URLs from files) or anything that
 * could be a URL makes it remote. PowerShell's cmdlets ask for a missing `-Uri` (someone may
 * type one), so for them an operand must be written.
 */
export function fetchesNothingRemote(tool: string, args: readonly Word[]): boolean {
  const o = OPTIONS[tool];
  if (!o) return false;
  let operands = 0;
  for (let k = 0; k < args.length; k++) {
    const w = args[k]!;
    if (w.subs.length > 0) return false;
    const v = o === POWERSHELL ? w.value.toLowerCase() : w.value;
    if (isReservedUrl(w.value)) operands++;
    else if (o.flags.has(v)) continue;
    else if (o.values.has(v)) k++;
    else if (v.startsWith('--') && v.includes('=') && o.values.has(v.slice(0, v.indexOf('=')))) continue;
    else if (!v.startsWith('-')) {
      if (isFetchable(w.value)) return false;
      operands++;
    } else if (!clusterOk(v, o, () => k++)) return false;
  }
  return operands > 0 || o !== POWERSHELL;
}

/** `-fsSL`, `-qO-`, `-o file`: letters the table knows, a value letter taking the rest or the next word. */
function clusterOk(v: string, o: FetchOptions, takeNext: () => void): boolean {
  if (!/^-[^-]/.test(v)) return false;
  for (let i = 1; i < v.length; i++) {
    if (o.shortValues.includes(v[i]!)) {
      if (i === v.length - 1) takeNext();
      return true;
    }
    if (!o.shortFlags.includes(v[i]!)) return false;
  }
  return true;
}

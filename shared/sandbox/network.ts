/**
 * What a `network = true` run may reach, decided over plain data: the host's addresses and
 * its resolv.conf text in, the run's resolvers and the `ip -batch` lines that cut this
 * machine out of the run's namespace back. main/services/sandbox/netns.ts applies them.
 */

/** An IPv6 address as eight 4-digit groups (no scope), or undefined when it is not one. */
export function expandIpv6(raw: string): string | undefined {
  let s = raw.toLowerCase().replace(/%.*$/, '');
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const o = ipv4Octets(v4[2]!);
    if (!o) return undefined;
    s = `${v4[1]!}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const groups = [...head, ...Array<string>(Math.max(fill, 0)).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => g.padStart(4, '0')).join(':');
}

function ipv4Octets(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) < 256)) return undefined;
  return parts.map(Number);
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:127.0.0.1`), if it is one. */
function mappedIpv4(expanded: string): string | undefined {
  if (!expanded.startsWith('0000:0000:0000:0000:0000:ffff:')) return undefined;
  const [hi, lo] = expanded
    .split(':')
    .slice(6)
    .map((g) => parseInt(g, 16));
  return [hi! >> 8, hi! & 255, lo! >> 8, lo! & 255].join('.');
}

/**
 * Where an address leads from a run: `this-host` (loopback, unspecified — the host's own
 * stack), `link-local` (169.254/16, fe80::/10: the host's own link and whatever answers on
 * it, cloud metadata services included), `other`, or undefined when it is no address.
 */
export function addressScope(raw: string): 'this-host' | 'link-local' | 'other' | undefined {
  const o = ipv4Octets(raw);
  if (o) {
    if (o[0] === 127 || o[0] === 0) return 'this-host';
    return o[0] === 169 && o[1] === 254 ? 'link-local' : 'other';
  }
  const x = expandIpv6(raw);
  if (!x) return undefined;
  const v4 = mappedIpv4(x);
  if (v4) return addressScope(v4);
  if (x === '0000:0000:0000:0000:0000:0000:0000:0001' || x === '0000:0000:0000:0000:0000:0000:0000:0000')
    return 'this-host';
  return (parseInt(x.slice(0, 4), 16) & 0xffc0) === 0xfe80 ? 'link-local' : 'other';
}

/** One spelling per address, so `fd00::2` and `fd00:0::2` compare equal. */
function canonical(raw: string): string | undefined {
  if (ipv4Octets(raw)) return raw;
  const x = expandIpv6(raw);
  return x ? (mappedIpv4(x) ?? x) : undefined;
}

/**
 * The resolvers a run may use: the `nameserver` lines of a resolv.conf that lead outside
 * this machine — not its loopback (systemd-resolved's 127.0.0.53, a local dnsmasq), not
 * one of its own addresses, not link-local. A resolver on the host is a host service, and
 * forwarding the run's queries to it would hand the script that service.
 */
export function outsideResolvers(resolvConf: string, hostAddrs: readonly string[]): string[] {
  const own = new Set(hostAddrs.map((a) => canonical(a.replace(/\/\d+$/, ''))));
  const out: string[] = [];
  for (const line of resolvConf.split('\n')) {
    const m = /^\s*nameserver\s+(\S+)/.exec(line);
    if (!m) continue;
    const addr = m[1]!;
    if (addressScope(addr) !== 'other' || own.has(canonical(addr)) || out.includes(addr)) continue;
    out.push(addr);
  }
  return out;
}

/** The run's /etc/resolv.conf: the outside resolvers, or a note that there are none (names then fail). */
export function runResolvConf(resolvers: readonly string[]): string {
  if (!resolvers.length)
    return "# skillsmith: this machine names no resolver outside itself; the run's names do not resolve\n";
  return resolvers.map((r) => `nameserver ${r}\n`).join('');
}

/**
 * `ip -batch` lines run inside the run's namespace after pasta linked it out: `all` as is,
 * `inet6` under `ip -6` (a rule's family is not read from its address). Every host address
 * gets an unreachable route. Link-local destinations get a policy rule instead: a connect
 * to `fe80::…%eth0` names its interface, and the kernel then sends it on-link past any
 * route, so pasta would carry it to the host's own link-local address; a rule is consulted
 * first (after the local table, so the run's own addresses still work).
 */
export function isolationBatch(
  hostAddrs: readonly string[],
  ipv6: boolean,
): { readonly all: string[]; readonly inet6: string[] } {
  const all = hostAddrs.filter((a) => ipv6 || !a.includes(':')).map((a) => `route add unreachable ${a}`);
  all.push('rule add to 169.254.0.0/16 prohibit pref 1');
  return { all, inet6: ipv6 ? ['rule add to fe80::/10 prohibit pref 1'] : [] };
}

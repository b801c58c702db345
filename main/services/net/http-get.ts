import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { fail, ok, type Result } from '../../../shared/result';
import { formatBytes } from '../../../shared/text/format';

/**
 * The one GET of install sources (marketplace manifests, discovery indexes and their files):
 * bounded in size, redirects and time, with the schemes and hosts a redirect may reach.
 */
export interface HttpGetOptions {
  readonly url: string;
  /** The body is refused past this many bytes (by Content-Length, or while it streams). */
  readonly maxBytes: number;
  /** URL schemes the first request and every redirect may use; defaults to https: and http:. */
  readonly schemes?: readonly string[];
  /** Redirects followed before giving up; defaults to 5. */
  readonly redirects?: number;
  /** From the first request to the last byte, redirects included; defaults to 30 s. */
  readonly timeoutMs?: number;
  /**
   * Follow a redirect to another host. Off by default: a marketplace URL the user typed never
   * sends the fetch elsewhere. A discovery index may (its files can live on a CDN) — its
   * digests, checked after the fetch, are what vouch for the bytes (SPEC D322–D323).
   */
  readonly otherHosts?: boolean;
}

export interface HttpBody {
  readonly body: Uint8Array;
  /** Where the body came from after redirects. */
  readonly url: string;
  /** The media type without parameters, lower-cased; undefined when none was sent. */
  readonly contentType?: string;
}

const DEFAULT_SCHEMES = ['https:', 'http:'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One GET, bounded: size, redirects, time. A redirect never downgrades https to http, never
 * leaves the schemes allowed (so never reaches a file on this machine), and stays on the
 * host named unless `otherHosts`. Every failure is one line naming the URL.
 */
export async function httpGet(o: HttpGetOptions): Promise<Result<HttpBody>> {
  const schemes = o.schemes ?? DEFAULT_SCHEMES;
  const allowed = schemes.join(' and ');
  const redirects = o.redirects ?? 5;
  const deadline = Date.now() + (o.timeoutMs ?? 30_000);
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    return fail('invalid-input', `${o.url}: not a URL`);
  }
  if (!schemes.includes(url.protocol)) return fail('invalid-input', `${o.url}: only ${allowed} URLs are fetched`);
  const first = url;
  for (let hop = 0; ; hop++) {
    const r = await getOnce(url, o.maxBytes, deadline);
    if (!r.ok) return r;
    if (!('location' in r.value)) return ok({ ...r.value, url: url.href });
    if (hop >= redirects) return fail('invalid-input', `${o.url}: more than ${redirects} redirects — stopped`);
    let next: URL;
    try {
      next = new URL(r.value.location, url);
    } catch {
      return fail('invalid-input', `${o.url}: redirected to "${r.value.location}", which is not a URL`);
    }
    if (!schemes.includes(next.protocol))
      return fail(
        'invalid-input',
        `${o.url}: redirected to ${next.protocol} (${next.href}) — only ${allowed} are followed`,
      );
    if (!o.otherHosts && next.hostname !== first.hostname)
      return fail(
        'invalid-input',
        `${o.url}: redirected to another host (${next.host}) — not followed; give that URL yourself if you trust it`,
      );
    if (url.protocol === 'https:' && next.protocol === 'http:')
      return fail('invalid-input', `${o.url}: redirected from https to plain http (${next.href}) — not followed`);
    url = next;
  }
}

type Once = { body: Uint8Array; contentType?: string } | { location: string };

function getOnce(url: URL, maxBytes: number, deadline: number): Promise<Result<Once>> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Result<Once>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const tooBig = (size?: number) =>
      fail(
        'invalid-input',
        size === undefined
          ? `${url.href}: more than the ${formatBytes(maxBytes)} allowed — stopped reading`
          : `${url.href}: ${formatBytes(size)}, more than the ${formatBytes(maxBytes)} allowed — not read`,
      );
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json, */*;q=0.5', 'accept-encoding': 'identity', 'user-agent': 'skillsmith' },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status) && res.headers.location) {
          res.resume();
          return done(ok({ location: res.headers.location }));
        }
        if (status !== 200) {
          res.resume();
          return done(fail('invalid-input', `${url.href}: the server answered ${status}`));
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          req.destroy();
          return done(tooBig(declared));
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (d: Buffer) => {
          size += d.length;
          if (size <= maxBytes) return void parts.push(d);
          req.destroy();
          done(tooBig());
        });
        res.on('end', () => {
          const type = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
          done(ok({ body: new Uint8Array(Buffer.concat(parts)), ...(type ? { contentType: type } : {}) }));
        });
        res.on('error', (e) => done(fail('invalid-input', `${url.href}: ${e.message.split('\n')[0]}`)));
      },
    );
    const left = Math.max(1, deadline - Date.now());
    const timer = setTimeout(() => {
      req.destroy();
      done(fail('invalid-input', `${url.href}: no answer within ${Math.round(left / 1000)} s`));
    }, left);
    req.on('error', (e) => done(fail('invalid-input', `${url.href}: cannot fetch — ${e.message.split('\n')[0]}`)));
    req.end();
  });
}

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { fail, ok, type Result } from '../../../shared/result';
import { formatBytes } from '../../../shared/text/format';

export interface HttpGetOptions {
  readonly url: string;
  /** The body is refused past this many bytes (by Content-Length, or while it streams). */
  readonly maxBytes: number;
  /** URL schemes the first request and every redirect may use; defaults to https: and http:. */
  readonly schemes?: readonly string[];
  /** Redirects followed; a redirect to another host, to a scheme not allowed, or from https to http is refused. */
  readonly redirects?: number;
  readonly timeoutMs?: number;
}

export interface HttpBody {
  readonly body: Uint8Array;
  /** Where the body came from after redirects. */
  readonly url: string;
}

const DEFAULT_SCHEMES = ['https:', 'http:'];

/**
 * One GET, bounded: size, redirects, time. A redirect stays on the host the user named
 * (an answer from one server never sends the fetch to another, or to a file on this
 * machine) and never downgrades https to http. Every failure is one line naming the URL.
 */
export async function httpGet(o: HttpGetOptions): Promise<Result<HttpBody>> {
  const schemes = o.schemes ?? DEFAULT_SCHEMES;
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    return fail('invalid-input', `${o.url}: not a URL`);
  }
  if (!schemes.includes(url.protocol))
    return fail('invalid-input', `${o.url}: only ${schemes.join(' and ')} URLs are fetched`);
  const first = url;
  for (let hop = 0; ; hop++) {
    const r = await getOnce(url, o.maxBytes, o.timeoutMs ?? 30_000);
    if (!r.ok) return r;
    if ('body' in r.value) return ok({ body: r.value.body, url: url.href });
    if (hop >= (o.redirects ?? 5))
      return fail('invalid-input', `${o.url}: more than ${o.redirects ?? 5} redirects — stopped`);
    let next: URL;
    try {
      next = new URL(r.value.location, url);
    } catch {
      return fail('invalid-input', `${o.url}: redirected to "${r.value.location}", which is not a URL`);
    }
    if (!schemes.includes(next.protocol))
      return fail(
        'invalid-input',
        `${o.url}: redirected to ${next.protocol} (${next.href}) — only ${schemes.join(' and ')} are followed`,
      );
    if (next.hostname !== first.hostname)
      return fail(
        'invalid-input',
        `${o.url}: redirected to another host (${next.host}) — not followed; give that URL yourself if you trust it`,
      );
    if (url.protocol === 'https:' && next.protocol === 'http:')
      return fail('invalid-input', `${o.url}: redirected from https to plain http (${next.href}) — not followed`);
    url = next;
  }
}

type Once = { body: Uint8Array } | { location: string };

function getOnce(url: URL, maxBytes: number, timeoutMs: number): Promise<Result<Once>> {
  return new Promise((resolve) => {
    const done = (r: Result<Once>) => {
      clearTimeout(timer);
      resolve(r);
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', headers: { accept: 'application/json, */*;q=0.5', 'user-agent': 'skillsmith' } },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return done(ok({ location: res.headers.location }));
        }
        if (status !== 200) {
          res.resume();
          return done(fail('invalid-input', `${url.href}: the server answered ${status}`));
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          res.destroy();
          return done(
            fail(
              'invalid-input',
              `${url.href}: ${formatBytes(declared)}, more than the ${formatBytes(maxBytes)} allowed — not read`,
            ),
          );
        }
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (d: Buffer) => {
          size += d.length;
          if (size > maxBytes) {
            res.destroy();
            done(
              fail('invalid-input', `${url.href}: more than the ${formatBytes(maxBytes)} allowed — stopped reading`),
            );
          } else parts.push(d);
        });
        res.on('end', () => done(ok({ body: new Uint8Array(Buffer.concat(parts)) })));
        res.on('error', (e) => done(fail('invalid-input', `${url.href}: ${e.message}`)));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done(fail('invalid-input', `${url.href}: no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on('error', (e) => done(fail('invalid-input', `${url.href}: ${e.message}`)));
    req.end();
  });
}

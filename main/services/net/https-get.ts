import { get, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { formatBytes } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';

/** What one GET may cost: bytes, redirects and time. */
export interface HttpsLimits {
  readonly maxBytes: number;
  /** Redirects followed before giving up. */
  readonly maxRedirects: number;
  /** From the request to the last byte, redirects included. */
  readonly timeoutMs: number;
}

export interface HttpsBody {
  /** The URL the bytes came from, after redirects. */
  readonly url: string;
  readonly bytes: Buffer;
  /** The media type without parameters, lower-cased; undefined when none was sent. */
  readonly contentType?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET over HTTPS only (a redirect to anything else is refused), with a cap on the body that
 * holds whatever Content-Length says, on redirects and on the whole time taken. Certificates
 * are checked as Node checks them (`NODE_EXTRA_CA_CERTS` adds a trusted root). `what` names
 * the thing fetched in the one-line errors.
 */
export async function httpsGet(url: string, limits: HttpsLimits, what: string): Promise<HttpsBody> {
  const deadline = Date.now() + limits.timeoutMs;
  let at = url;
  for (let hop = 0; ; hop++) {
    const target = httpsUrl(at, what);
    const r = await getOnce(target, limits, deadline, what);
    if ('location' in r) {
      if (hop >= limits.maxRedirects)
        throw new CodedError('invalid-input', `${what}: more than ${limits.maxRedirects} redirects from ${url}`);
      try {
        at = new URL(r.location, target).href;
      } catch {
        throw new CodedError(
          'invalid-input',
          `${what}: ${target.href} redirects to "${r.location}", which is not a URL`,
        );
      }
      continue;
    }
    return r;
  }
}

function httpsUrl(raw: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new CodedError('invalid-input', `${what}: "${raw}" is not a URL`);
  }
  if (u.protocol !== 'https:')
    throw new CodedError(
      'invalid-input',
      `${what}: ${u.href} is not HTTPS — skills indexes and their files are fetched over HTTPS only`,
    );
  return u;
}

function getOnce(
  u: URL,
  limits: HttpsLimits,
  deadline: number,
  what: string,
): Promise<HttpsBody | { location: string }> {
  return new Promise((resolve, reject) => {
    const left = deadline - Date.now();
    const options: RequestOptions = {
      headers: { 'user-agent': 'skillsmith', accept: '*/*', 'accept-encoding': 'identity' },
      timeout: Math.max(1, left),
    };
    let settled = false;
    const done = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(() => {
      req.destroy();
      done(() =>
        reject(new CodedError('invalid-input', `${what}: ${u.href} took longer than ${limits.timeoutMs / 1000} s`)),
      );
    }, left);
    const req = get(u, options, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.resume();
        done(() => resolve({ location: res.headers.location! }));
        return;
      }
      if (status !== 200) {
        res.resume();
        done(() => reject(new CodedError('invalid-input', `${what}: ${u.href} answered HTTP ${status}`)));
        return;
      }
      const tooBig = () =>
        new CodedError('invalid-input', `${what}: ${u.href} is larger than its ${formatBytes(limits.maxBytes)} cap`);
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        req.destroy();
        done(() => reject(tooBig()));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxBytes) {
          req.destroy();
          done(() => reject(tooBig()));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => {
        const type = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
        done(() => resolve({ url: u.href, bytes: Buffer.concat(chunks), ...(type ? { contentType: type } : {}) }));
      });
      res.on('error', (e) => done(() => reject(netError(what, u, e))));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer for ${limits.timeoutMs / 1000} s`)));
    req.on('error', (e) => done(() => reject(netError(what, u, e))));
  });
}

const netError = (what: string, u: URL, e: Error): CodedError =>
  new CodedError('invalid-input', `${what}: cannot fetch ${u.href} — ${e.message.split('\n')[0]}`);

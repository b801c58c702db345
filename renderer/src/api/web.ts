import type { EventName } from '../../../shared/ipc/contract';
import type { Transport } from '../../../shared/ipc/client';

/**
 * The event stream to main: 'connecting' until its first answer, then 'open' or 'closed'
 * (a closed stream is retried, and stays 'closed' until a retry opens it).
 */
export type Connection = 'connecting' | 'open' | 'closed';

const TOKEN_KEY = 'skillsmith.token';
const SESSION_KEY = 'skillsmith.session';

function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The browser transport to the loopback host: calls are `POST /rpc/<channel>` with the
 * access token and this tab's session id; events arrive on one WebSocket that reconnects
 * by itself. The token comes from the URL `skillsmith serve` printed and is then moved
 * out of the address bar into this tab's sessionStorage. A URL from `serve --open`
 * carries a one-time code instead, which leaves the address bar at once and is exchanged
 * for the token (the host spends it: the history entry opens nothing afterwards).
 */
export function webTransport(onConnection?: (state: Exclude<Connection, 'connecting'>) => void): Transport {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  const code = url.searchParams.get('code');
  if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
  if (fromUrl || code) {
    url.searchParams.delete('token');
    url.searchParams.delete('code');
    window.history.replaceState(null, '', url.pathname + (url.search || '') + url.hash);
  }
  // A code is always spent, even by a tab that already holds a token.
  const stored = fromUrl ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
  const token: Promise<string> = code ? exchangeCode(code).then((t) => t || stored) : Promise.resolve(stored);
  let session = sessionStorage.getItem(SESSION_KEY);
  if (!session) {
    session = randomId();
    sessionStorage.setItem(SESSION_KEY, session);
  }

  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | undefined;
  let retry = 250;
  const connect = async () => {
    const ws = new WebSocket(
      `ws://${window.location.host}/events?token=${encodeURIComponent(await token)}&session=${session}`,
    );
    socket = ws;
    ws.onopen = () => {
      retry = 250;
      onConnection?.('open');
    };
    ws.onmessage = (m) => {
      try {
        const { event, payload } = JSON.parse(String(m.data)) as { event: string; payload: unknown };
        for (const l of listeners.get(event) ?? []) l(payload);
      } catch {
        // A frame that is not ours: ignore it.
      }
    };
    ws.onclose = () => {
      onConnection?.('closed');
      if (socket === ws) setTimeout(() => void connect(), (retry = Math.min(retry * 2, 5000)));
    };
  };
  void connect();

  return {
    async invoke(channel, request) {
      let res: Response;
      try {
        const t = await token;
        res = await fetch(`/rpc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-skillsmith-token': t, 'x-skillsmith-session': session! },
          body: JSON.stringify(request ?? {}),
        });
      } catch {
        return {
          ok: false,
          error: {
            code: 'internal',
            message: 'cannot reach the Skillsmith host — is `skillsmith serve` still running?',
          },
        };
      }
      if (!res.ok) {
        const text = (await res.text()).trim();
        return {
          ok: false,
          error: {
            code: res.status === 401 || res.status === 403 ? 'forbidden' : 'internal',
            message: text || `HTTP ${res.status}`,
          },
        };
      }
      return res.json();
    },
    subscribe(event: EventName, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

/** Spend a one-time code for the token (kept in sessionStorage for reloads); '' when refused. */
async function exchangeCode(code: string): Promise<string> {
  try {
    const res = await fetch('/session/exchange', { method: 'POST', headers: { 'x-skillsmith-code': code } });
    if (!res.ok) return '';
    const { token } = (await res.json()) as { token?: unknown };
    if (typeof token !== 'string') return '';
    sessionStorage.setItem(TOKEN_KEY, token);
    return token;
  } catch {
    return '';
  }
}

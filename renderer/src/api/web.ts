import type { EventName } from '../../../shared/ipc/contract';
import type { Transport } from '../../../shared/ipc/client';

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
 * out of the address bar into this tab's sessionStorage.
 */
export function webTransport(onConnection?: (state: 'open' | 'closed') => void): Transport {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + (url.search || '') + url.hash);
  }
  const token = fromUrl ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
  let session = sessionStorage.getItem(SESSION_KEY);
  if (!session) {
    session = randomId();
    sessionStorage.setItem(SESSION_KEY, session);
  }

  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | undefined;
  let retry = 250;
  const connect = () => {
    const ws = new WebSocket(`ws://${window.location.host}/events?token=${encodeURIComponent(token)}&session=${session}`);
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
      if (socket === ws) setTimeout(connect, (retry = Math.min(retry * 2, 5000)));
    };
  };
  connect();

  return {
    async invoke(channel, request) {
      let res: Response;
      try {
        res = await fetch(`/rpc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-skillsmith-token': token, 'x-skillsmith-session': session! },
          body: JSON.stringify(request ?? {}),
        });
      } catch {
        return { ok: false, error: { code: 'internal', message: 'cannot reach the Skillsmith host — is `skillsmith serve` still running?' } };
      }
      if (!res.ok) {
        const text = (await res.text()).trim();
        return { ok: false, error: { code: res.status === 401 || res.status === 403 ? 'forbidden' : 'internal', message: text || `HTTP ${res.status}` } };
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

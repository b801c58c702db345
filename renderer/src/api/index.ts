import type { Api, EventName } from '../../../shared/ipc/contract';
import { createApi, type Transport } from '../../../shared/ipc/client';
import { webTransport, type Connection } from './web';

export type { Connection } from './web';

/** What the Electron preload exposes as `window.skillsmith`: named methods returning envelopes. */
interface PreloadBridge {
  readonly [area: string]: unknown;
  on(event: EventName, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    skillsmith?: PreloadBridge;
  }
}

function preloadTransport(bridge: PreloadBridge): Transport {
  return {
    invoke(channel, request) {
      const [area, method] = channel.split('.') as [string, string];
      const fn = (bridge[area] as Record<string, (r: unknown) => Promise<unknown>> | undefined)?.[method];
      if (!fn)
        return Promise.resolve({
          ok: false,
          error: { code: 'unknown-channel', message: `the preload has no ${channel}` },
        });
      return fn(request);
    },
    subscribe: (event, listener) => bridge.on(event, listener),
  };
}

/** The Api over whichever transport this page has: the Electron preload, or the loopback host. */
export function connectApi(onConnection?: (state: Exclude<Connection, 'connecting'>) => void): {
  api: Api;
  transport: 'electron' | 'web';
} {
  const bridge = window.skillsmith;
  if (bridge && typeof bridge.on === 'function') {
    onConnection?.('open');
    return { api: createApi(preloadTransport(bridge)), transport: 'electron' };
  }
  return { api: createApi(webTransport(onConnection)), transport: 'web' };
}

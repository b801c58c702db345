import type { Api, EventName, Unsubscribe } from './contract';
import { unwrap } from './errors';

/**
 * What a transport provides: send one call and get its envelope back; subscribe to an
 * event stream. Electron's preload and the browser's web bridge each implement this in a
 * few lines; `createApi` turns either into the typed `Api`.
 */
export interface Transport {
  invoke(channel: string, request: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

/**
 * The typed Api over a transport: `api.<area>.<method>(request)` sends `<area>.<method>`;
 * errors are thrown as IpcError. Built lazily from the names the (type-checked) caller
 * uses, so the renderer does not bundle the contract's schemas — main validates every
 * call, and an unknown name comes back as an `unknown-channel` error.
 */
export function createApi(transport: Transport): Api {
  const areas = new Map<string, object>();
  const area = (name: string) => {
    let a = areas.get(name);
    if (!a) {
      const methods = new Map<string, (request: unknown) => Promise<unknown>>();
      a = new Proxy(Object.freeze({}), {
        get: (_t, method) => {
          if (typeof method !== 'string') return undefined;
          let fn = methods.get(method);
          if (!fn)
            methods.set(
              method,
              (fn = async (request: unknown) => unwrap(await transport.invoke(`${name}.${method}`, request ?? {}))),
            );
          return fn;
        },
      });
      areas.set(name, a);
    }
    return a;
  };
  const on = (event: EventName, listener: (payload: unknown) => void) => transport.subscribe(event, listener);
  return new Proxy(Object.freeze({}), {
    get: (_t, key) => (key === 'on' ? on : typeof key === 'string' && key !== 'then' ? area(key) : undefined),
  }) as Api;
}

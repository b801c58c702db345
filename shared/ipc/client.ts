import { CONTRACT, listChannels, type Api, type Area, type EventName, type Unsubscribe } from './contract';
import { EnvelopeShape, IpcError, type Envelope } from './define';

/**
 * What a transport provides: send one call and get its envelope back; subscribe to an
 * event stream. Electron's preload and the browser's web bridge each implement this in a
 * few lines; `createApi` turns either into the typed `Api`.
 */
export interface Transport {
  invoke(channel: string, request: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

/** The typed Api over a transport: one method per contract channel, errors thrown as IpcError. */
export function createApi(transport: Transport): Api {
  const api: Record<string, unknown> = {};
  for (const area of Object.keys(CONTRACT) as Area[]) api[area] = {};
  for (const { area, method, name } of listChannels()) {
    (api[area] as Record<string, unknown>)[method] = async (request: unknown) => unwrap(await transport.invoke(name, request ?? {}));
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => transport.subscribe(event, listener);
  return api as unknown as Api;
}

/** Open an envelope: the value, or a thrown IpcError. A malformed envelope is an error too. */
export function unwrap<T>(raw: unknown): T {
  const parsed = EnvelopeShape.safeParse(raw);
  if (!parsed.success) throw new IpcError({ code: 'invalid-response', message: 'the transport returned something that is not an IPC envelope' });
  const env = parsed.data as Envelope<T>;
  if (env.ok) return env.value;
  throw new IpcError(env.error);
}

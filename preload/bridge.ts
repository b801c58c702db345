import { isEventName, listChannels } from '../shared/ipc/contract';

type Listener = (payload: unknown) => void;

/**
 * The object the preload exposes as `window.skillsmith`, generated from the contract:
 * one named method per channel (`bridge.project.dashboard(request)`), each forwarding to
 * `invoke(channelName, request)`, plus `on(event, listener)` for the contract's event
 * streams. No electron import here, so it is testable in plain Node; preload/index.ts
 * passes ipcRenderer's invoke and the event fan-out in.
 */
export function buildBridge(invoke: (channel: string, request: unknown) => Promise<unknown>): {
  bridge: Record<string, unknown>;
  deliver: (event: unknown, payload: unknown) => void;
} {
  const bridge: Record<string, unknown> = {};
  for (const { area, method, name } of listChannels()) {
    const group = (bridge[area] ??= {}) as Record<string, (request: unknown) => Promise<unknown>>;
    group[method] = (request: unknown) => invoke(name, request ?? {});
  }
  const listeners = new Map<string, Set<Listener>>();
  bridge.on = (event: unknown, listener: unknown) => {
    if (typeof event !== 'string' || !isEventName(event) || typeof listener !== 'function')
      throw new Error(`unknown event stream: ${String(event)}`);
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => void set.delete(listener as Listener);
  };
  const deliver = (event: unknown, payload: unknown) => {
    if (typeof event !== 'string') return;
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  for (const group of Object.values(bridge)) if (typeof group === 'object' && group) Object.freeze(group);
  return { bridge: Object.freeze(bridge), deliver };
}

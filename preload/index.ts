import { contextBridge, ipcRenderer } from 'electron';
import { isEventName, listChannels } from '../shared/ipc/contract';
import { EVENT_CHANNEL } from '../shared/ipc/define';

// Generated from the contract: one named method per channel (`app.info`, `project.dashboard`,
// …), each forwarding its request to main, where the sender is checked and the payload
// validated. Events fan out from the single event channel by name. Neither ipcRenderer
// nor process is ever exposed.

const bridge: Record<string, unknown> = {};
for (const { area, method, name } of listChannels()) {
  const group = (bridge[area] ??= {}) as Record<string, (request: unknown) => Promise<unknown>>;
  group[method] = (request: unknown) => ipcRenderer.invoke(name, request ?? {});
}

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();
ipcRenderer.on(EVENT_CHANNEL, (_event, message: { event?: unknown; payload?: unknown }) => {
  if (typeof message?.event !== 'string') return;
  for (const l of listeners.get(message.event) ?? []) l(message.payload);
});

bridge.on = (event: string, listener: Listener) => {
  if (typeof event !== 'string' || !isEventName(event) || typeof listener !== 'function') throw new Error(`unknown event stream: ${String(event)}`);
  let set = listeners.get(event);
  if (!set) listeners.set(event, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
};

contextBridge.exposeInMainWorld('skillsmith', bridge);

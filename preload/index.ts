import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_CHANNEL } from '../shared/ipc/define';
import { buildBridge } from './bridge';

// `window.skillsmith`: named methods generated from the contract (see ./bridge.ts), each
// forwarding its request to main — where the sender is checked and the payload validated.
// Neither ipcRenderer nor process is ever exposed.
const { bridge, deliver } = buildBridge((channel, request) => ipcRenderer.invoke(channel, request));
ipcRenderer.on(EVENT_CHANNEL, (_event, message: { event?: unknown; payload?: unknown } | undefined) =>
  deliver(message?.event, message?.payload),
);
contextBridge.exposeInMainWorld('skillsmith', bridge);

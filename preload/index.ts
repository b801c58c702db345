import { contextBridge } from 'electron';

// The preload exposes named, typed methods only — never ipcRenderer itself. The full
// contract arrives with the desktop-shell issue; today the renderer learns only its
// workspace path from the URL the main process loaded.
contextBridge.exposeInMainWorld('skillsmith', Object.freeze({ runtime: 'electron' as const }));

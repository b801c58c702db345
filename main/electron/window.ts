import { BrowserWindow, shell, type WebPreferences } from 'electron';
import { join } from 'node:path';

/** The one set of web preferences every window uses: the renderer is untrusted. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
  };
}

export function createMainWindow(workspace: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'Skillsmith',
    webPreferences: secureWebPreferences(join(__dirname, '../preload/index.cjs')),
  });
  // Navigation away from the app and new windows are never allowed; the renderer
  // cannot open arbitrary URLs.
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());
  void win.loadFile(join(__dirname, '../renderer/index.html'), { query: { workspace } });
  void shell; // external links get an allowlisted opener with the desktop shell issue
  return win;
}

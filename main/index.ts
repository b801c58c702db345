import { app, session } from 'electron';
import { resolve } from 'node:path';
import { createMainWindow } from './electron/window';

// Electron entry: the only module (with main/electron/) that may import electron.
const workspaceArg = process.argv.slice(app.isPackaged ? 1 : 2).find((a) => !a.startsWith('-'));
const workspace = resolve(workspaceArg ?? resolve(__dirname, '../../examples/workspace'));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    createMainWindow(workspace);
  });
  app.on('window-all-closed', () => app.quit());
}

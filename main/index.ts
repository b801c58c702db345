import { app, session } from 'electron';
import { join, resolve } from 'node:path';
import { createMainWindow } from './electron/window';

// Electron entry: the only module (with main/electron/) that may import electron.
const workspaceArg = process.argv.slice(app.isPackaged ? 1 : 2).find((a) => !a.startsWith('-'));
// Packaged builds carry the example workspace as an extra resource (electron-builder.yml).
const bundledExample = app.isPackaged ? join(process.resourcesPath, 'examples', 'workspace') : resolve(__dirname, '../../examples/workspace');
const workspace = resolve(workspaceArg ?? bundledExample);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    createMainWindow(workspace);
  });
  app.on('window-all-closed', () => app.quit());
}

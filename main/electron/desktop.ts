import type * as Electron from 'electron';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import { Session, type Platform } from '../ipc/session';
import { defaultDataDir } from '../services/dashboard/data-dir';
import { DashboardCache } from '../services/dashboard/cache';
import { ProjectHub } from '../services/dashboard/hub';
import { RecentProjects } from '../services/dashboard/recent';
import { EVENT_CHANNEL, registerIpc } from './ipc';
import { menuTemplate } from './menu';
import { APP_SCHEME_PRIVILEGES, handleAppProtocol } from './protocol';
import { createAppWindow } from './window';
import { sweepLeftovers } from '../services/sources/temp';

type ElectronModule = Pick<
  typeof Electron,
  'app' | 'BrowserWindow' | 'Menu' | 'dialog' | 'ipcMain' | 'protocol' | 'session' | 'shell'
>;

interface WindowState {
  readonly win: Electron.BrowserWindow;
  readonly session: Session;
}

/** The first non-flag argument after the app's own, as a project folder. */
export function projectFromArgv(argv: readonly string[], packaged: boolean, cwd: string): string | undefined {
  const args = argv.slice(packaged ? 1 : 2).filter((a) => !a.startsWith('-'));
  const first = args.find((a) => !a.endsWith('.js') && a !== '.');
  return first ? resolve(cwd, first) : undefined;
}

/**
 * The Electron main process: single instance, app:// protocol, IPC with sender checks,
 * one session per window, native menu, folder dialog, recent projects in the user-data
 * folder. `electron` is passed in by main/index.ts (the only module importing it).
 */
export function startDesktop(electron: ElectronModule, version: string): void {
  const { app, BrowserWindow, Menu, dialog, ipcMain, protocol, shell } = electron;

  if (!process.env.SKILLSMITH_DATA_DIR) app.setPath('userData', defaultDataDir());
  const dataDir = process.env.SKILLSMITH_DATA_DIR ?? app.getPath('userData');
  protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  // A killed install's clone and staging copies go when the app starts, as with every CLI command.
  void sweepLeftovers();
  const outDir = resolve(__dirname, '..');
  const rendererDir = join(outDir, 'renderer');
  const preloadPath = join(outDir, 'preload', 'index.cjs');
  const example = app.isPackaged
    ? join(process.resourcesPath, 'examples', 'workspace')
    : resolve(outDir, '..', 'examples', 'workspace');
  const examplePath = existsSync(example) ? example : null;

  const windows = new Map<number, WindowState>();
  const trusted = new Set<number>();
  const recent = new RecentProjects(dataDir);
  const hub = new ProjectHub(undefined, undefined, new DashboardCache(dataDir));

  const focused = (): WindowState | undefined => {
    const w = BrowserWindow.getFocusedWindow();
    return (w && windows.get(w.webContents.id)) ?? windows.values().next().value;
  };

  const platform: Platform = {
    version,
    examplePath,
    recent,
    hub,
    capabilities: { pickFolder: true, nativeMenus: true },
    async pickFolder(session) {
      const owner = [...windows.values()].find((w) => w.session === session)?.win;
      const options: Electron.OpenDialogOptions = { title: 'Open a Skillsmith project', properties: ['openDirectory'] };
      const r = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options);
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
  };

  const openIn = (state: WindowState | undefined, path: string) => {
    if (!state) return;
    try {
      const ref = state.session.open(path);
      state.session.emit('project.opened', ref);
    } catch (e) {
      void dialog.showMessageBox(state.win, {
        type: 'error',
        message: 'Cannot open that folder',
        detail: e instanceof Error ? e.message : String(e),
      });
    }
    refreshMenu();
  };

  function refreshMenu() {
    const template = menuTemplate(
      {
        openFolder: () => {
          const s = focused();
          if (s) void platform.pickFolder!(s.session).then((p) => p && openIn(s, p));
        },
        openExample: () => examplePath && openIn(focused(), examplePath),
        openRecent: (p) => openIn(focused(), p),
        closeProject: () => {
          const s = focused();
          const root = s?.session.project?.root;
          if (s && root && s.session.close()) s.session.emit('project.closed', { root });
          refreshMenu();
        },
        rescan: () => {
          const s = focused();
          const root = s?.session.project?.root;
          if (s && root) s.session.emit('project.changed', { root, paths: [], at: new Date().toISOString() });
        },
      },
      recent.list(),
      { isMac: process.platform === 'darwin', dev: !app.isPackaged, hasExample: examplePath !== null },
    );
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  }

  const openWindow = (project: string | undefined) => {
    const win = createAppWindow({ BrowserWindow, shell }, preloadPath);
    const id = win.webContents.id;
    const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
      if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, { event, payload });
    };
    const session = new Session(platform, emit);
    windows.set(id, { win, session });
    trusted.add(id);
    if (project) {
      try {
        session.open(project);
      } catch {
        // A vanished last project: the window starts on the picker.
      }
    }
    win.on('closed', () => {
      session.dispose();
      windows.delete(id);
      trusted.delete(id);
    });
    return win;
  };

  app.on('second-instance', (_event, argv, cwd) => {
    const state = focused();
    if (!state) return;
    if (state.win.isMinimized()) state.win.restore();
    state.win.focus();
    const p = projectFromArgv(argv, app.isPackaged, cwd);
    if (p) openIn(state, p);
  });

  // Nothing in the app needs a permission (camera, notifications, …): refuse them all.
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  void app.whenReady().then(() => {
    const ses = electron.session.defaultSession;
    ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    ses.setPermissionCheckHandler(() => false);
    handleAppProtocol(protocol, rendererDir);
    registerIpc(ipcMain, { trusted, sessionFor: (id) => windows.get(id)?.session });
    refreshMenu();
    const first =
      projectFromArgv(process.argv, app.isPackaged, process.cwd()) ?? recent.last() ?? examplePath ?? undefined;
    openWindow(first);
    app.on('activate', () => {
      if (windows.size === 0) openWindow(recent.last());
    });
  });

  app.on('window-all-closed', () => {
    hub.closeAll();
    if (process.platform !== 'darwin') app.quit();
  });
}

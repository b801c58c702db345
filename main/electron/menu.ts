import type { MenuItemConstructorOptions } from 'electron';
import type { RecentProject } from '../../shared/ipc/channels/app';

export interface MenuActions {
  openFolder(): void;
  openExample(): void;
  openRecent(path: string): void;
  closeProject(): void;
  rescan(): void;
}

/** The native menu as data (built by Menu.buildFromTemplate in the Electron entry). */
export function menuTemplate(
  actions: MenuActions,
  recent: readonly RecentProject[],
  opts: { isMac: boolean; dev: boolean; hasExample: boolean },
): MenuItemConstructorOptions[] {
  const recentItems: MenuItemConstructorOptions[] = recent.filter((r) => r.exists).length
    ? recent.filter((r) => r.exists).map((r) => ({ label: r.path, click: () => actions.openRecent(r.path) }))
    : [{ label: 'No recent projects', enabled: false }];
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
      ...(opts.hasExample ? [{ label: 'Open Example Workspace', click: () => actions.openExample() }] : []),
      { label: 'Open Recent', submenu: recentItems },
      { type: 'separator' },
      { label: 'Close Project', accelerator: 'CmdOrCtrl+W', click: () => actions.closeProject() },
      ...(opts.isMac ? [] : [{ type: 'separator' as const }, { role: 'quit' as const }]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { label: 'Rescan Project', accelerator: 'CmdOrCtrl+R', click: () => actions.rescan() },
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(opts.dev ? [{ role: 'toggleDevTools' as const }] : []),
    ],
  };
  return [
    ...(opts.isMac ? [{ role: 'appMenu' as const }] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
  ];
}

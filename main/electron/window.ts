import type { BrowserWindow, BrowserWindowConstructorOptions, Shell, WebContents } from 'electron';
import { APP_ENTRY, isAllowedExternal, secureWebPreferences } from './secure';

/** What window creation needs from electron (injected, so tests never load electron). */
export interface WindowDeps {
  readonly BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  readonly shell: Pick<Shell, 'openExternal'>;
}

type Hardenable = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Lock a webContents down: it can never navigate (the app is a single page), never open
 * a window (an allowlisted https link goes to the system browser instead), and never
 * attach a <webview>.
 */
export function hardenWebContents(contents: Hardenable, shell: Pick<Shell, 'openExternal'>): void {
  // The app is one page: no navigation at all, not even to another app:// path.
  contents.on('will-navigate', (event: { preventDefault(): void }) => event.preventDefault());
  contents.on('will-redirect', (event: { preventDefault(): void }) => event.preventDefault());
  contents.on('will-attach-webview', (event: { preventDefault(): void }) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** Every window of the app goes through here: the shared secure preferences, hardened, app:// only. */
export function createAppWindow(
  deps: WindowDeps,
  preloadPath: string,
  extra: Partial<BrowserWindowConstructorOptions> = {},
): BrowserWindow {
  const { webPreferences: _ignored, ...rest } = extra;
  const win = new deps.BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Skillsmith',
    backgroundColor: '#0f1115',
    ...rest,
    webPreferences: secureWebPreferences(preloadPath),
  });
  hardenWebContents(win.webContents, deps.shell);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
  return win;
}

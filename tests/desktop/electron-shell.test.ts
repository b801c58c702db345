/**
 * The Electron shell's security rules, tested without Electron: the modules under
 * main/electron/ take electron's objects as parameters, so fakes stand in for
 * BrowserWindow, webContents, shell, ipcMain and protocol. Loading the real electron
 * package here would try to download its binary — the mock below fails the suite if
 * anything does.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => {
  throw new Error(
    'the electron package was loaded by a test — main/electron/ modules must take electron as a parameter',
  );
});

import { ipcHandler, registerIpc } from '../../main/electron/ipc';
import { menuTemplate } from '../../main/electron/menu';
import { appProtocolResponse, handleAppProtocol, APP_SCHEME_PRIVILEGES } from '../../main/electron/protocol';
import { APP_ENTRY, isAllowedExternal, isAppUrl, secureWebPreferences } from '../../main/electron/secure';
import { isTrustedSender } from '../../main/electron/sender';
import { createAppWindow, hardenWebContents } from '../../main/electron/window';
import { projectFromArgv } from '../../main/electron/desktop';
import { listChannels } from '../../shared/ipc/contract';
import { repoRoot } from '../support/paths';
import { scratch, testPlatform, testSession } from './helpers';

type Handler = (...args: unknown[]) => unknown;

class FakeWebContents {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  readonly handlers = new Map<string, Handler>();
  openHandler: ((d: { url: string }) => { action: string }) | undefined;
  readonly mainFrame = { url: APP_ENTRY };
  on(event: string, h: Handler) {
    this.handlers.set(event, h);
    return this;
  }
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
}

class FakeBrowserWindow {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loaded: string | undefined;
  constructor(readonly options: { webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
    FakeBrowserWindow.created.push(this);
  }
  once() {
    return this;
  }
  loadURL(url: string) {
    this.loaded = url;
    return Promise.resolve();
  }
}

const shell = {
  opened: [] as string[],
  openExternal(url: string) {
    this.opened.push(url);
    return Promise.resolve();
  },
};
const deps = () => ({ BrowserWindow: FakeBrowserWindow as never, shell });

describe('windows', () => {
  it('every window gets the one secure set of web preferences, whatever the caller passes', () => {
    const win = createAppWindow(deps(), '/app/preload.cjs', {
      webPreferences: { nodeIntegration: true, sandbox: false, contextIsolation: false },
      width: 900,
    } as never) as unknown as FakeBrowserWindow;
    expect(win.options.webPreferences).toEqual(secureWebPreferences('/app/preload.cjs'));
    expect(win.options.width).toBe(900);
    const prefs = secureWebPreferences('/p');
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(win.loaded).toBe('app://skillsmith/index.html');
  });

  it('no module creates a BrowserWindow except through createAppWindow', () => {
    const dir = join(repoRoot, 'main');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (/\.tsx?$/.test(e.name)) files.push(join(d, e.name));
      }
    };
    walk(dir);
    const constructing = files
      .filter((f) => /new\s+(deps\.)?BrowserWindow\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(repoRoot.length + 1));
    expect(constructing).toEqual(['main/electron/window.ts']);
    expect(readFileSync(join(repoRoot, 'main/electron/desktop.ts'), 'utf8')).toMatch(/createAppWindow\(/);
  });

  it('denies navigation, redirects, webviews and new windows; allowlisted https links open externally', () => {
    const wc = new FakeWebContents();
    hardenWebContents(wc as never, shell);
    for (const [event, url] of [
      ['will-navigate', 'https://evil.example/'],
      ['will-navigate', 'app://skillsmith/other.html'],
      ['will-redirect', 'https://x'],
      ['will-attach-webview', ''],
    ] as const) {
      const e = {
        prevented: false,
        preventDefault() {
          this.prevented = true;
        },
      };
      wc.handlers.get(event)!(e, url);
      expect(e.prevented, `${event} ${url}`).toBe(true);
    }
    shell.opened.length = 0;
    expect(wc.openHandler!({ url: 'https://github.com/singhharsh1708/kitbash' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'http://github.com/x' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://github.com/singhharsh1708/kitbash']);
  });

  it('the external allowlist parses URLs instead of matching prefixes', () => {
    expect(isAllowedExternal('https://github.com/a')).toBe(true);
    expect(isAllowedExternal('https://docs.github.com/a')).toBe(true);
    expect(isAllowedExternal('https://github.com.evil.example/')).toBe(false);
    expect(isAllowedExternal('https://evilgithub.com/')).toBe(false);
    expect(isAllowedExternal('https://user:pw@github.com/')).toBe(false);
    expect(isAllowedExternal('https://github.com:8443/')).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)')).toBe(false);
    expect(isAppUrl('app://skillsmith/index.html')).toBe(true);
    expect(isAppUrl('app://skillsmith.evil/index.html')).toBe(false);
    expect(isAppUrl('app://other/index.html')).toBe(false);
  });
});

describe('IPC sender check', () => {
  const trusted = new Set([7]);
  const frame = (url: string) => ({ url });
  it('accepts the top frame of a trusted window on the app origin', () => {
    const top = frame('app://skillsmith/index.html');
    expect(isTrustedSender({ sender: { id: 7, mainFrame: top }, senderFrame: top }, trusted)).toBe(true);
  });
  it.each([
    ['a foreign origin', 7, 'https://evil.example/', true],
    ['file://', 7, 'file:///app/index.html', true],
    ['a look-alike host', 7, 'app://skillsmith.evil/', true],
    ['an untrusted webContents', 8, 'app://skillsmith/index.html', true],
    ['a subframe', 7, 'app://skillsmith/index.html', false],
  ])('refuses %s', (_what, id, url, isTop) => {
    const f = frame(url);
    const mainFrame = isTop ? f : frame('app://skillsmith/index.html');
    expect(isTrustedSender({ sender: { id, mainFrame }, senderFrame: f }, trusted)).toBe(false);
  });
  it('refuses a destroyed frame', () => {
    expect(isTrustedSender({ sender: { id: 7 }, senderFrame: null }, trusted)).toBe(false);
  });

  it('registers every contract channel, and a foreign sender gets forbidden before any handler runs', async () => {
    const s = scratch();
    try {
      const { session } = testSession(testPlatform(s.dataDir));
      const registered: string[] = [];
      registerIpc({ handle: (name: string) => void registered.push(name) } as never, {
        trusted,
        sessionFor: () => session,
      });
      expect(registered).toEqual(listChannels().map((c) => c.name));
      const handler = ipcHandler('project.open', { trusted, sessionFor: () => session });
      const evil = frame('https://evil.example/');
      expect(
        await handler({ sender: { id: 7, mainFrame: evil }, senderFrame: evil } as never, { path: s.project }),
      ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(session.project).toBeNull();
      const top = frame('app://skillsmith/index.html');
      expect(
        await handler({ sender: { id: 7, mainFrame: top }, senderFrame: top } as never, { path: s.project }),
      ).toMatchObject({ ok: true, value: { name: 'workspace' } });
      expect(
        await handler({ sender: { id: 7, mainFrame: top }, senderFrame: top } as never, { path: 'relative' }),
      ).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
      session.dispose();
    } finally {
      s.cleanup();
    }
  });
});

describe('app:// protocol', () => {
  let root: string;
  let renderer: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'skillsmith-proto-'));
    renderer = join(root, 'renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html>');
    writeFileSync(join(renderer, 'assets', 'a.js'), 'export {}');
    writeFileSync(join(root, 'secret.txt'), 'SECRET');
    symlinkSync(join(root, 'secret.txt'), join(renderer, 'link.txt'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves the built renderer with a CSP on the page', async () => {
    const page = await appProtocolResponse(renderer, 'app://skillsmith/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self'/);
    const js = await appProtocolResponse(renderer, 'app://skillsmith/assets/a.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('export {}');
    expect((await appProtocolResponse(renderer, 'app://skillsmith/')).status).toBe(200);
  });

  it.each([
    'app://skillsmith/../secret.txt',
    'app://skillsmith/assets/../../secret.txt',
    'app://skillsmith/%2e%2e/secret.txt',
    'app://skillsmith/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://skillsmith/..%5csecret.txt',
    'app://skillsmith/link.txt',
    'app://skillsmith/a%00b',
    'app://other/index.html',
  ])('refuses %s', async (url) => {
    const r = await appProtocolResponse(renderer, url);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(await r.text()).not.toContain('SECRET');
  });

  it('refuses writes and registers as a standard, secure scheme', async () => {
    expect((await appProtocolResponse(renderer, 'app://skillsmith/index.html', 'POST')).status).toBe(405);
    expect(APP_SCHEME_PRIVILEGES[0]).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true } });
    const handled: string[] = [];
    handleAppProtocol({ handle: (scheme: string) => void handled.push(scheme) } as never, renderer);
    expect(handled).toEqual(['app']);
  });
});

describe('menu and command line', () => {
  it('builds File/Edit/View/Window with Open Folder, the example and recent projects', () => {
    const calls: string[] = [];
    const actions = {
      openFolder: () => calls.push('folder'),
      openExample: () => calls.push('example'),
      openRecent: (p: string) => calls.push(`recent:${p}`),
      closeProject: () => calls.push('close'),
      rescan: () => calls.push('rescan'),
    };
    const t = menuTemplate(
      actions,
      [
        { path: '/a', name: 'a', openedAt: '', exists: true },
        { path: '/gone', name: 'gone', openedAt: '', exists: false },
      ],
      { isMac: false, dev: false, hasExample: true },
    );
    expect(t.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'windowMenu']);
    const file = t[0]!.submenu as {
      label?: string;
      click?: () => void;
      submenu?: { label: string; click?: () => void }[];
    }[];
    file.find((i) => i.label === 'Open Folder…')!.click!();
    file.find((i) => i.label === 'Open Example Workspace')!.click!();
    const recent = file.find((i) => i.label === 'Open Recent')!.submenu!;
    expect(recent.map((r) => r.label)).toEqual(['/a']);
    recent[0]!.click!();
    expect(calls).toEqual(['folder', 'example', 'recent:/a']);
    const view = t[2]!.submenu as { role?: string }[];
    expect(view.some((v) => v.role === 'toggleDevTools')).toBe(false);
  });

  it('reads the project folder from argv in dev and packaged layouts', () => {
    expect(projectFromArgv(['/usr/bin/electron', '.', 'examples/workspace'], false, '/repo')).toBe(
      '/repo/examples/workspace',
    );
    expect(projectFromArgv(['/usr/bin/electron', 'out/main/index.js', '--inspect'], false, '/repo')).toBeUndefined();
    expect(projectFromArgv(['/opt/Skillsmith/skillsmith', '/home/me/proj'], true, '/')).toBe('/home/me/proj');
    expect(projectFromArgv(['/opt/Skillsmith/skillsmith', '--no-sandbox'], true, '/')).toBeUndefined();
  });
});

import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from '../../tests/support/paths';

export const CHROMIUM = '/usr/bin/chromium';
/** The flags this machine's Chromium needs (no sandbox in containers, no network chatter). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
/** Screenshots of every screen land here (gitignored; CI keeps them as artifacts). */
export const ARTIFACTS = join(repoRoot, 'e2e', 'artifacts');

/** The two window sizes every screen is looked at in: a laptop and a small window. */
export const SIZES = [
  { width: 1400, height: 900 },
  { width: 900, height: 700 },
] as const;

export const haveChromium = (): boolean => existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface Watched {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught page errors. */
  readonly errors: string[];
  /** Requests that tried to leave 127.0.0.1 (aborted). */
  readonly offHost: string[];
}

/** A fresh context + page that records errors and refuses (and records) any request off the loopback host. */
export async function watchedPage(
  browser: Browser,
  opts: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<Watched> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const offHost: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if ((url.protocol === 'http:' || url.protocol === 'ws:') && url.hostname === '127.0.0.1') return route.continue();
    if (url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    offHost.push(url.href);
    return route.abort('blockedbyclient');
  });
  return { context, page, errors, offHost };
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

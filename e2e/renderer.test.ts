/**
 * The built renderer (out/renderer/, from `npm run build`) in a real browser: Debian's
 * Chromium driven by playwright-core, the page served from 127.0.0.1. No Electron here —
 * this checks what the renderer itself guarantees: it renders, it shows the workspace it
 * was opened with, its CSP forbids inline script, it logs no errors and it never reaches
 * beyond the local server.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireOrSkip } from '../tests/support/paths';
import { startStaticServer, type StaticServer } from './support/static-server';

const CHROMIUM = '/usr/bin/chromium';
const rendererDir = join(repoRoot, 'out/renderer');
const resultsDir = join(repoRoot, 'test-results');
const WORKSPACE = '/tmp/demo';

const haveChromium = requireOrSkip(`chromium at ${CHROMIUM}`, existsSync(CHROMIUM));

interface Watched {
  page: Page;
  consoleErrors: string[];
  offHost: string[];
}

describe.skipIf(!haveChromium)('renderer in Chromium (built out/renderer)', () => {
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(join(rendererDir, 'index.html'))) {
      throw new Error(`${rendererDir}/index.html is missing: run \`npm run build\` first (npm test does)`);
    }
    server = await startStaticServer(rendererDir);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A fresh page that records console errors and aborts (and records) any request not to the local server. */
  async function watchedPage(): Promise<Watched> {
    const context = await browser.newContext({ viewport: { width: 1024, height: 640 } });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const offHost: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      // The browser's own favicon probe is not the page's doing (Electron's loadFile
      // makes none); every other error counts.
      if (new URL(msg.location().url || 'about:blank', server.url).pathname === '/favicon.ico') return;
      consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`));
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'http:' && url.host === `127.0.0.1:${server.port}`) return route.continue();
      if (url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      offHost.push(url.href);
      return route.abort('blockedbyclient');
    });
    page.on('request', (req) => {
      const url = new URL(req.url());
      const local = url.protocol === 'http:' && url.hostname === '127.0.0.1';
      if (!local && url.protocol !== 'data:' && url.protocol !== 'blob:' && !offHost.includes(url.href)) offHost.push(url.href);
    });
    return { page, consoleErrors, offHost };
  }

  it('renders the placeholder with the workspace, a strict CSP, no errors and no off-host requests', async () => {
    const { page, consoleErrors, offHost } = await watchedPage();
    const response = await page.goto(`${server.url}?workspace=${encodeURIComponent(WORKSPACE)}`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');

    const heading = page.getByRole('heading', { name: 'Skillsmith', level: 1 });
    await heading.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await heading.isVisible()).toBe(true);
    expect(await page.title()).toBe('Skillsmith');

    const workspace = page.locator('.workspace code');
    expect(await workspace.isVisible()).toBe(true);
    expect(await workspace.textContent()).toBe(WORKSPACE);
    expect(await page.locator('body').innerText()).toContain(`Workspace: ${WORKSPACE}`);

    const csp = await page.evaluate(() => {
      const metas = [...document.querySelectorAll('meta[http-equiv]')].filter(
        (m) => m.getAttribute('http-equiv')?.toLowerCase() === 'content-security-policy',
      );
      const content = metas[0]?.getAttribute('content') ?? null;
      const directives = new Map<string, string[]>();
      for (const part of (content ?? '').split(';')) {
        const [name, ...values] = part.trim().split(/\s+/);
        if (name) directives.set(name.toLowerCase(), values);
      }
      const scriptSrc = directives.get('script-src') ?? directives.get('default-src') ?? null;
      return { count: metas.length, content, scriptSrc, objectSrc: directives.get('object-src') ?? null };
    });
    expect(csp.count).toBe(1);
    expect(csp.content).toBeTruthy();
    expect(csp.scriptSrc).not.toBeNull();
    expect(csp.scriptSrc).toContain("'self'");
    expect(csp.scriptSrc).not.toContain("'unsafe-inline'");
    expect(csp.scriptSrc).not.toContain("'unsafe-eval'");
    expect(csp.scriptSrc).not.toContain('*');
    expect(csp.objectSrc).toEqual(["'none'"]);

    mkdirSync(resultsDir, { recursive: true });
    await page.screenshot({ path: join(resultsDir, 'renderer-placeholder.png'), fullPage: true });

    // A CSP directive that only works as an HTTP header (frame-ancestors, report-uri,
    // sandbox) makes Chromium log an error on every load when it sits in the <meta> tag.
    expect(consoleErrors, 'console errors on load (CSP directives ignored in <meta> must be removed from renderer/index.html)').toEqual([]);
    expect(offHost, 'requests that left 127.0.0.1').toEqual([]);
    expect(server.requests.some((r) => r.startsWith('/assets/'))).toBe(true);
    await page.context().close();
  });

  it('enforces the CSP: an injected inline script does not run', async () => {
    const { page, offHost } = await watchedPage();
    await page.goto(`${server.url}?workspace=${encodeURIComponent(WORKSPACE)}`, { waitUntil: 'networkidle' });
    const outcome = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; violated: string | null }>((done) => {
          let violated: string | null = null;
          document.addEventListener('securitypolicyviolation', (e) => (violated = e.effectiveDirective));
          const s = document.createElement('script');
          s.textContent = 'window.__inlineRan = true;';
          document.head.appendChild(s);
          setTimeout(() => done({ ran: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true, violated }), 200);
        }),
    );
    expect(outcome.ran).toBe(false);
    expect(outcome.violated).toMatch(/^script-src/);
    expect(offHost).toEqual([]);
    await page.context().close();
  });
});

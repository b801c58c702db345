import type { Page } from 'playwright-core';

/**
 * The editor is ready: Monaco visible (it stays hidden until its first file is attached, so
 * nothing is typed into an editor with no file) and the session's first analysis in.
 */
export async function editorReady(page: Page): Promise<void> {
  await page.locator('.ed-host .monaco-editor').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => window.__skillsmithEditor?.analysis() != null, null, { timeout: 30_000 });
}

/** Resolves once the editor shows `file` (a path inside the skill folder). */
export const editorShows = (page: Page, file: string) =>
  page.waitForFunction((f) => document.querySelector('.ed-host')?.getAttribute('data-file') === f, file);

/** Open skill folder `dir` in the editor (on `file` when given) and wait until it is ready. */
export async function openEditor(page: Page, dir: string, file?: string): Promise<void> {
  await page.evaluate((h) => (window.location.hash = h), `#/editor/${dir}${file ? `%2F${file}` : ''}`);
  await editorReady(page);
  if (file) await editorShows(page, file);
}

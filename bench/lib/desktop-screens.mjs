// The screens bench/desktop.mjs measures for long tasks, in tab order: the route, what
// shows it is there, and what is done on it once it has settled. `skill` is a skill folder
// of the project (the editor and previews open one); `source`, a skill folder outside it
// that the install screen reviews.
//
// Elements are found with CSS selectors, never Playwright's role queries: those run in the
// page's main thread, and over a list of 1,000 links one query was itself a long task of
// about a second — the harness, not the app, would have been measured.

/** Type into a search box and clear it again, as a user narrowing a list does. */
async function search(page, label, text) {
  const box = page.locator(`input[type="search"][aria-label="${label}"]`).first();
  await box.fill(text);
  await page.waitForTimeout(300);
  await box.fill('');
}

export function screens(skill, source) {
  return [
    {
      name: 'dashboard',
      hash: '#/dashboard',
      ready: '.dash-view[data-scan="fresh"] .dash-tbody [role="row"]',
      did: 'fresh scan shown; sort by lint, filter by text and by failing, scroll the table to the end',
      async use(page) {
        await page.locator('button', { hasText: /^Lint/ }).first().click();
        await page.fill('input[aria-label="Filter skills"]', 'audit');
        await page.fill('input[aria-label="Filter skills"]', '');
        await page
          .locator('button', { hasText: /^Failing/ })
          .first()
          .click();
        await page.locator('button', { hasText: /^All/ }).first().click();
        await page.evaluate(() => {
          const body = document.querySelector('.dash-tbody');
          body.scrollTop = body.scrollHeight;
        });
      },
    },
    {
      name: 'editor (skill list)',
      hash: '#/editor',
      ready: '.ed-skill-link',
      did: 'search the skill names',
      use: (page) => search(page, 'Search skills', 'audit'),
    },
    {
      name: 'editor (one skill)',
      hash: `#/editor/${skill}`,
      ready: '.monaco-editor',
      did: 'Monaco open on SKILL.md; five keystrokes',
      async use(page) {
        await page.locator('.monaco-editor textarea').first().focus();
        await page.keyboard.type('hello', { delay: 60 });
      },
    },
    { name: 'install', hash: '#/install', ready: 'main', did: 'opened' },
    {
      name: 'install review',
      hash: '#/install',
      ready: 'form[aria-label="Install source"]',
      did: 'a real skill folder (bundled files and all) reviewed',
      async use(page) {
        await page
          .locator('[role="tablist"][aria-label="Kind of source"] [role="tab"]', { hasText: /^Folder$/ })
          .click();
        await page.fill('input[aria-label="Folder path"]', source);
        await page.locator('form[aria-label="Install source"] button[type="submit"]').click();
        await page.waitForSelector('.inst-dialog[data-review-id]', { timeout: 90_000 });
      },
    },
    { name: 'previews', hash: `#/previews/${skill}`, ready: '.pv-tab', did: `opened on ${skill}` },
    {
      name: 'matrix',
      hash: '#/matrix',
      ready: '.matrix-row[data-skill]',
      did: 'search, filter by status, jump to the last row with the keyboard',
      async use(page) {
        await search(page, 'Search skills', 'audit');
        const status = page.locator('[role="group"][aria-label="Filter by status"] button');
        await status.filter({ hasText: /^Degraded/ }).click();
        await status.filter({ hasText: /^All/ }).click();
        await page.locator('.matrix-cell[tabindex="0"]').focus();
        await page.keyboard.press('PageDown');
      },
    },
    {
      name: 'costs',
      hash: '#/costs',
      ready: '.cost-row',
      did: 'select a skill from the legend, sort the table by agentsmd, search',
      async use(page) {
        await page.locator('.cost-legend-item').first().click();
        await page.locator('.cost-table thead th', { hasText: 'agentsmd' }).locator('button').click();
        await search(page, 'Search skills', 'audit');
      },
    },
    { name: 'playground', hash: '#/playground', ready: 'main', did: 'opened' },
    { name: 'runs', hash: '#/runs', ready: 'main', did: 'opened' },
    { name: 'evals', hash: '#/evals', ready: 'main', did: 'opened' },
    { name: 'settings', hash: '#/settings', ready: '[data-testid="settings-view"]', did: 'opened' },
  ];
}

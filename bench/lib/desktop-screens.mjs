// The screens bench/desktop.mjs measures for long tasks, in tab order: the route, what
// shows it is there, and what is done on it once it has settled. `skill` is a skill folder
// of the generated project (the editor and previews open one).

/** Type into a search box and clear it again, as a user narrowing a list does. */
async function search(page, label, text) {
  const box = page.getByRole('searchbox', { name: label }).first();
  await box.fill(text);
  await page.waitForTimeout(300);
  await box.fill('');
}

export function screens(skill) {
  return [
    {
      name: 'dashboard',
      hash: '#/dashboard',
      ready: 'main.dashboard[data-scan="fresh"] .tbody [role="row"]',
      did: 'fresh scan shown; sort by lint, filter by text and by failing, scroll the table to the end',
      async use(page) {
        await page.getByRole('button', { name: /^Lint/ }).click();
        await page.fill('input[aria-label="Filter skills"]', 'audit');
        await page.fill('input[aria-label="Filter skills"]', '');
        await page.getByRole('button', { name: /^Failing/ }).click();
        await page.getByRole('button', { name: /^All/ }).first().click();
        await page.evaluate(() => {
          const body = document.querySelector('.tbody');
          body.scrollTop = body.scrollHeight;
        });
      },
    },
    {
      name: 'editor (skill list)',
      hash: '#/editor',
      ready: '.editor-skill-link',
      did: 'search the 1,000 names',
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
    { name: 'previews', hash: `#/previews/${skill}`, ready: '.target-tab', did: `opened on ${skill}` },
    {
      name: 'matrix',
      hash: '#/matrix',
      ready: '.mrow[data-skill]',
      did: 'search, filter by status, jump to the last row with the keyboard',
      async use(page) {
        await search(page, 'Search skills', 'audit');
        await page
          .getByRole('group', { name: 'Filter by status' })
          .getByRole('button', { name: /^Degraded/ })
          .click();
        await page.getByRole('group', { name: 'Filter by status' }).getByRole('button', { name: /^All/ }).click();
        await page.locator('.mcell[tabindex="0"]').focus();
        await page.keyboard.press('PageDown');
      },
    },
    {
      name: 'costs',
      hash: '#/costs',
      ready: '.cost-row',
      did: 'select a skill from the legend, sort the table by agentsmd, search',
      async use(page) {
        await page.locator('.legend-item').first().click();
        await page.locator('.cost-table thead th', { hasText: 'agentsmd' }).getByRole('button').click();
        await search(page, 'Search skills by name', 'audit');
      },
    },
    { name: 'playground', hash: '#/playground', ready: 'main', did: 'opened' },
    { name: 'runs', hash: '#/runs', ready: 'main', did: 'opened' },
    { name: 'evals', hash: '#/evals', ready: 'main', did: 'opened' },
    { name: 'settings', hash: '#/settings', ready: '[data-testid="settings-view"]', did: 'opened' },
  ];
}

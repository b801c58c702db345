/**
 * The SkillSpec playground end to end in Chromium over `skillsmith serve`: play inputs and
 * watch the route change with the matched phrase highlighted; run a spec's scenario tests
 * (the fixture's, one failing with expected against actual, and a corpus spec's, copied
 * into the temp project); save an input as a new scenario test through the editor.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveCorpusSpec, playProject, TRIAGE_SPEC, type PlayProject } from '../tests/play-runs/fixtures';
import { requireOrSkip } from '../tests/support/paths';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot } from './support/browser';
import type { Served } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium());
const corpus = requireOrSkip('the SkillSpec corpus at ../shared/corpus/skillspec', haveCorpusSpec());

async function flat(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();
}

describe.skipIf(!ok)('the SkillSpec playground in Chromium', () => {
  let app: App<PlayProject>;
  let p: PlayProject;
  let served: Served;
  const open = () => app.open();

  beforeAll(async () => {
    app = await openApp(playProject);
    ({ project: p, served } = app);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  }, 30_000);

  it('plays inputs: the route changes and the matched phrase is highlighted, with the decision and trace', async () => {
    const { page, errors, offHost } = await open();
    await page.goto(`${served.url}#/playground/triage`);
    const input = page.getByLabel('What the user says');
    await input.waitFor({ timeout: 20_000 });
    expect(await flat(page, '.play-file')).toMatch(
      /\.kitbash\/skills\/triage\/skill\.spec\.yml · 3 routes · 2 rules · 3 scenario tests/,
    );

    // Nothing typed: the default route by rank.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'investigate',
    );
    expect(await page.locator('[data-testid="route-basis"]').innerText()).toMatch(/default_route_order/);

    await input.fill('the build is Broken again');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'hotfix',
    );
    expect(await page.locator('[data-testid="highlighted-input"] mark').allInnerTexts()).toEqual(['Broken']);
    expect(await page.locator('[data-testid="highlighted-input"] mark').getAttribute('data-rule')).toBe(
      'broken_things',
    );
    expect(await page.locator('[data-field="matched-rules"]').innerText()).toMatch(
      /broken_things on broken\s+a defect is reported/,
    );
    expect(await page.locator('[data-field="forbid"]').innerText()).toMatch(/force_push/);
    expect(await page.locator('[data-testid="route-basis"]').innerText()).toMatch(/rule_prefer .* rule broken_things/);
    await screenshot(page, 'playground-hotfix');

    await input.fill('ship the fix today');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'release',
    );
    expect(await page.locator('[data-testid="highlighted-input"] mark').allInnerTexts()).toEqual(['ship', 'today']);
    expect(await page.locator('[data-field="route order"]').innerText()).toMatch(
      /1\. release\s*2\. hotfix\s*3\. investigate/,
    );
    expect(await page.locator('[data-field="allow"]').innerText()).toMatch(/tag = true/);
    const elicit = await page.locator('[data-elicit="release_channel"]').innerText();
    expect(elicit).toMatch(/Which channel should this release go to\?/);
    expect(elicit).toMatch(/Stable[\s\S]*Beta/);
    expect(await page.locator('[data-field="after success"]').innerText()).toMatch(/announce/);
    expect(await page.locator('[data-field="reason"]').innerText()).toMatch(/the user wants to ship now/);
    const trace = await page
      .locator('[data-testid="trace"] li')
      .evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.event));
    expect(trace).toEqual([
      'input_received',
      'spec_loaded',
      'rule_evaluated',
      'rule_matched',
      'route_selected',
      'route_order_set',
      'allow_added',
      'elicitation_requested',
      'after_success_scheduled',
      'outcome_recorded',
    ]);
    await screenshot(page, 'playground-release');

    // What was typed survives a reload of the tab.
    await page.reload();
    await page.getByLabel('What the user says').waitFor();
    expect(await page.getByLabel('What the user says').inputValue()).toBe('ship the fix today');
    expect(errors).toEqual([]);
    expect(offHost).toEqual([]);
  });

  it('follows the OS dark theme', async () => {
    const w = await app.open({ colorScheme: 'dark' });
    await w.page.goto(`${served.url}#/playground/triage`);
    await w.page.getByLabel('What the user says').fill('ship it now, the build is broken');
    await w.page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'release',
    );
    expect(
      await w.page.evaluate(() => getComputedStyle(document.querySelector('.play-decision')!).backgroundColor),
    ).toBe('rgb(23, 27, 34)');
    expect(await w.page.locator('[data-testid="highlighted-input"] mark').allInnerTexts()).toEqual([
      'ship',
      'now',
      'broken',
    ]);
    await screenshot(w.page, 'playground-dark');
    expect(w.errors).toEqual([]);
  });

  it('runs the scenario tests: pass/fail, and a failing test shows expected against actual', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/playground/triage`);
    await page.getByRole('button', { name: /Run all 3 tests/ }).click();
    await page.locator('[data-testid="tests-summary"]').waitFor();
    expect(await page.locator('[data-testid="tests-summary"]').innerText()).toBe('2/3 passed');
    const failing = page.locator('.play-test.fail');
    expect(await failing.count()).toBe(1);
    const text = await failing.innerText();
    expect(text).toMatch(/deliberately wrong/);
    expect(text).toMatch(/expected route hotfix, got investigate/);
    expect(await failing.locator('.play-vs tbody tr').first().innerText()).toMatch(/route\s+hotfix\s+investigate/);
    await screenshot(page, 'playground-tests');
    // A skill without a spec says so, naming the file.
    await page.goto(`${served.url}#/playground/hello`);
    await page.locator('.state-empty').waitFor();
    expect(await flat(page, '.state-empty')).toMatch(
      /No skill\.spec\.yml in hello .*\.kitbash\/skills\/hello\/skill\.spec\.yml: hello has no skill\.spec\.yml \(spec\.load\)/,
    );
    await page.goto(`${served.url}#/playground/triage`);
    await page.getByRole('button', { name: /Run all 3 tests/ }).click();
    await page.locator('[data-testid="tests-summary"]').waitFor();
    // "play" loads a test's input.
    await page.locator('[data-test="shipping today"] button', { hasText: 'play' }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'release',
    );
    expect(errors).toEqual([]);
  });

  it.skipIf(!corpus)(
    'runs the corpus scenario tests of a spec (rote-shell, with its deps.toml sidecar): all pass',
    async () => {
      const { page, errors } = await open();
      await page.goto(`${served.url}#/playground`);
      await page.getByLabel('Skill with a SkillSpec').selectOption('rote-shell');
      await page.locator('.play-file').waitFor({ timeout: 20_000 });
      expect(await flat(page, '.play-file')).toMatch(/20 scenario tests · valid/);
      await page.getByRole('button', { name: /Run all 20 tests/ }).click();
      await page.locator('[data-testid="tests-summary"]').waitFor();
      expect(await page.locator('[data-testid="tests-summary"]').innerText()).toBe('20/20 passed');
      expect(await page.locator('.play-test.pass').count()).toBe(20);
      await screenshot(page, 'playground-corpus-tests');
      expect(errors).toEqual([]);
    },
  );

  it('follows the spec on disk: a broken spec shows its one-line error with file and line, and the typed input is kept', async () => {
    const { page, errors } = await open();
    const path = join(p.project, '.kitbash/skills/scratch/skill.spec.yml');
    writeFileSync(path, TRIAGE_SPEC);
    await page.goto(`${served.url}#/playground/scratch`);
    await page.getByLabel('What the user says').fill('there is a bug');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'hotfix',
    );
    // Broken on disk (an unknown key): the banner names the file, line and column; the input stays.
    writeFileSync(path, TRIAGE_SPEC.replace('    rank: 2\n', '    rank: 2\n    colour: red\n'));
    await page.getByTestId('spec-error').waitFor({ timeout: 20_000 });
    expect(await flat(page, '[data-testid="spec-error"]')).toMatch(
      /^The spec does not load — \.kitbash\/skills\/scratch\/skill\.spec\.yml:13:5: .*colour/,
    );
    expect(await page.getByLabel('What the user says').inputValue()).toBe('there is a bug');
    await screenshot(page, 'playground-spec-error');
    // Fixed on disk: the playground comes back with what was typed.
    writeFileSync(path, TRIAGE_SPEC.replace('user_says_any: ["bug", "broken", "crash"]', 'user_says_any: ["crash"]'));
    await page.getByLabel('What the user says').waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('What the user says').inputValue()).toBe('there is a bug');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'investigate',
    );
    expect(errors).toEqual([]);
  });

  it('saves the current input as a new scenario test through the editor, unsaved and validated', async () => {
    const { page, errors } = await open();
    await page.goto(`${served.url}#/playground/triage`);
    await page.getByLabel('What the user says').fill('a crash in prod, release a fix now');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="route"] .play-route-id')?.textContent === 'release',
    );
    await page.getByLabel('Test name').fill('crash and release now');
    const beforeEditor = [...errors];
    await page.getByRole('button', { name: 'Open in editor as a new test' }).click();
    await page.waitForFunction(() => window.location.hash === '#/editor/triage', undefined, { timeout: 10_000 });
    // The draft the editor opens: the spec with the new test appended, nothing saved yet.
    const draft = await page.evaluate(() => {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i)!;
        if (k.endsWith('\u0000triage\u0000skill.spec.yml'))
          return JSON.parse(localStorage.getItem(k)!) as { text: string; base: string };
      }
      return null;
    });
    expect(draft).not.toBeNull();
    const disk = readFileSync(join(p.project, '.kitbash/skills/triage/skill.spec.yml'), 'utf8');
    expect(draft!.base).toBe(disk);
    expect(draft!.text.startsWith(disk)).toBe(true);
    expect(draft!.text.slice(disk.length)).toMatch(
      /^ {2}- name: crash and release now\n {4}input: a crash in prod, release a fix now\n {4}expect:\n {6}route: release\n {6}matched_rules_exact:\n {8}- broken_things\n {8}- shipping\n/,
    );
    // The editor (H8a's) shows the spec tab as unsaved; open it and let it validate.
    const tab = page.locator('[data-tab="skill.spec.yml"]');
    await tab.waitFor({ timeout: 20_000 });
    expect(await tab.getByLabel('unsaved').count()).toBe(1);
    await tab.click();
    await page.locator('.ed-host[data-file="skill.spec.yml"]').waitFor();
    await page.waitForTimeout(1500);
    expect(await tab.locator('.ed-tab-count.fail').count()).toBe(0);
    await screenshot(page, 'playground-save-to-editor');
    expect(beforeEditor, beforeEditor.join('\n')).toEqual([]);

    // Back in the playground, the unsaved draft can be played instead of the file on disk.
    await page.goto(`${served.url}#/playground/triage`);
    await page.getByLabel(/Play the unsaved draft from the editor/).check();
    await page.getByTestId('playing-draft').waitFor();
    await page.getByRole('button', { name: /Run all 4 tests/ }).click();
    await page.locator('[data-testid="tests-summary"]').waitFor();
    expect(await page.locator('[data-testid="tests-summary"]').innerText()).toBe('3/4 passed');
    expect(await page.locator('[data-test="crash and release now"]').getAttribute('class')).toMatch(/pass/);
    await screenshot(page, 'playground-draft');
  });
});

/**
 * The install review shows each skill's signature check (SPEC D210, D213) in Chromium over
 * the real `skillsmith serve`: a skill signed by the project's trusted key is verified and
 * may be approved; the same skill with a file changed after signing is invalid and blocked; an
 * unsigned skill refused by require_signed is accepted as a reviewed exception (SPEC D216).
 * Screenshots at 1400×900 and 900×700 go to e2e/artifacts/.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signFolder } from '../main/services/signing/folder';
import { requireOrSkip } from '../tests/support/paths';
import { cleanupTemps, gitAvailable, gitRepo, skillFiles } from '../tests/workspace/helpers';
import { openApp, type App } from './support/app';
import { haveChromium, screenshot, SIZES } from './support/browser';
import { scratchWorkspace } from './support/serve';

const ok = requireOrSkip('chromium at /usr/bin/chromium', haveChromium()) && requireOrSkip('git', gitAvailable());

async function review(page: Page, url: string, repoUrl: string): Promise<void> {
  await page.goto(`${url}#/install`);
  await page.getByRole('form', { name: 'Install source' }).waitFor({ timeout: 45_000 });
  await page.getByRole('tab', { name: 'Git URL' }).click();
  await page.getByLabel('Git URL').fill(repoUrl);
  await page.getByLabel('Git ref').fill('');
  await page.getByLabel('Path in repository').fill('');
  await page.getByRole('button', { name: 'Review', exact: true }).click();
  await page.locator('.inst-dialog[data-review-id]').waitFor({ timeout: 45_000 });
}

/** A git repository holding one skill signed with `keyFile`; `tamper` changes SKILL.md after signing. */
function signedRepo(name: string, keyFile: string, tamper: boolean): string {
  const repo = gitRepo(skillFiles('', name, { description: `The ${name} skill, signed.` }));
  const signed = signFolder(repo.work, name, keyFile);
  if (!signed.ok) throw new Error(signed.error.message);
  repo.commit(tamper ? { 'SKILL.md': `# ${name}\n\nChanged after it was signed.\n` } : {}, 'sign');
  return repo.url;
}

describe.skipIf(!ok)('signatures in the install review', () => {
  let app: App<ReturnType<typeof scratchWorkspace>>;
  let keyFile: string;

  beforeAll(async () => {
    app = await openApp(scratchWorkspace);
    const project = app.project.project;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    keyFile = join(app.project.root, 'team.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(project, 'team.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const toml = readFileSync(join(project, 'kitbash.toml'), 'utf8').replace(
      '[policy]\n',
      '[policy]\nrequire_signed = true\ntrusted_publishers = [{ key = "team.pub" }]\n',
    );
    writeFileSync(join(project, 'kitbash.toml'), toml);
  });

  afterAll(async () => {
    for (const w of app?.pages ?? []) await w.context.close().catch(() => undefined);
    await app?.close({ graceMs: 20_000 });
    cleanupTemps();
  }, 90_000);

  for (const { width, height } of SIZES) {
    it(`verified and invalid signatures, at ${width}×${height}`, async () => {
      const { page, errors } = await app.open({ width, height });
      await review(page, app.served.url, signedRepo(`good-${width}`, keyFile, false));
      let dialog = page.getByRole('dialog', { name: `Install review of good-${width}` });
      const sig = dialog.locator('[data-field="signature"]');
      expect(await sig.getAttribute('data-state')).toBe('verified');
      expect(await sig.innerText()).toBe('verified — signed by key team.pub');
      expect(await dialog.locator('[data-verdict]').getAttribute('data-verdict')).toBe('ready');
      await screenshot(page, `signature-verified-${width}`, false);

      await review(page, app.served.url, signedRepo(`bad-${width}`, keyFile, true));
      dialog = page.getByRole('dialog', { name: `Install review of bad-${width}` });
      expect(await dialog.locator('[data-field="signature"]').getAttribute('data-state')).toBe('invalid');
      expect(await dialog.locator('[data-field="signature"]').innerText()).toBe(
        'invalid — SKILL.md: changed since it was signed',
      );
      expect(await dialog.locator('[data-verdict]').getAttribute('data-verdict')).toBe('blocked');
      expect(await dialog.getByRole('button', { name: /approve/i }).count()).toBe(0);
      await screenshot(page, `signature-invalid-${width}`, false);

      // The approved one lands signed: the lock records who, and the dashboard shows it.
      await review(page, app.served.url, signedRepo(`kept-${width}`, keyFile, false));
      await page.getByRole('button', { name: `Approve and install kept-${width}@1.0.0` }).click();
      await page.locator('[data-verdict="installed"]').waitFor({ timeout: 45_000 });
      await page.goto(`${app.served.url}#/dashboard`);
      const row = page.locator(`[role="row"][data-skill="kept-${width}"]`);
      await row.waitFor({ timeout: 45_000 });
      expect(await row.locator('.dash-signed').getAttribute('data-signed-by')).toBe('key team.pub');
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `signature-dashboard-${width}`, false);
      expect(errors).toEqual([]);
    });

    it(`an unsigned skill refused by require_signed is accepted by exception, at ${width}×${height}`, async () => {
      const { page, errors } = await app.open({ width, height });
      const name = `plain-${width}`;
      await review(page, app.served.url, gitRepo(skillFiles('', name, { description: `The ${name} skill.` })).url);
      let dialog = page.getByRole('dialog', { name: `Install review of ${name}` });
      expect(await dialog.locator('[data-verdict]').getAttribute('data-verdict')).toBe('blocked');
      const refusal = dialog.locator('[data-kind="policy"] [data-check="policy"]');
      expect(await refusal.innerText()).toContain('signature unsigned — no skill.oms.sig, and require_signed = true');
      await refusal.getByTestId('accept-open').click();
      const form = refusal.getByTestId('accept-form');
      expect(await form.getByTestId('accept-signature').innerText()).toBe('signature unsigned — no skill.oms.sig');
      expect(await form.getByTestId('accept-submit').isDisabled()).toBe(true);
      await form.getByTestId('accept-read').check();
      await form.getByTestId('accept-by').fill('ana@example.com');
      await form.getByTestId('accept-reason').fill('our own repository, read at this commit');
      await screenshot(page, `signature-accept-form-${width}`, false);
      await form.getByTestId('accept-submit').click();
      await page.getByTestId('accepted-headline').waitFor({ timeout: 45_000 });
      dialog = page.getByRole('dialog', { name: `Install review of ${name}` });
      expect(await dialog.locator('[data-verdict]').getAttribute('data-verdict')).toBe('ready');
      expect(await dialog.locator('[data-accepted="true"]').innerText()).toMatch(
        /signature[\s\S]*signature unsigned — no skill\.oms\.sig — accepted by ana@example\.com: our own repository[\s\S]*skill\.oms\.sig:1/,
      );
      const toml = readFileSync(join(app.project.project, 'kitbash.toml'), 'utf8');
      expect(toml).toMatch(
        new RegExp(
          `\\[\\[policy\\.exceptions\\]\\]\\nskill = "${name}"\\nintegrity = "sha256-[0-9a-f]{64}"\\ncheck = "signature"\\nfile = "skill\\.oms\\.sig"\\nline = 1\\n`,
        ),
      );
      await screenshot(page, `signature-accepted-${width}`, false);
      expect(errors).toEqual([]);
    });
  }
});

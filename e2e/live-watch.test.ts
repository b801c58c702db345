/**
 * The header's "Live" is a claim that every change on disk reaches the window. Over the
 * system's inotify limit a folder cannot be watched; the app must then say it is not live,
 * name the folder and the limit, and the dashboard must say what to do. The limit is real:
 * serve runs in a user namespace of its own whose watch limit the test lowers.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchRoots } from '../shared/targets/registry';
import { requireOrSkip } from '../tests/support/paths';
import { openApp } from './support/app';
import { haveChromium, screenshot } from './support/browser';
import { openEditor } from './support/editor';
import { scratchWorkspace, type Served } from './support/serve';

const ok =
  requireOrSkip('chromium at /usr/bin/chromium', haveChromium()) &&
  requireOrSkip('user namespaces (unshare -Ur)', spawnSync('unshare', ['-Ur', 'true']).status === 0);

/** Folders the watch must cover: the project root and every folder under the roots it reads. */
function foldersToWatch(project: string): number {
  const count = (dir: string): number =>
    1 +
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== '.git' && e.name !== 'node_modules')
      .reduce((n, e) => n + count(join(dir, e.name)), 0);
  let n = 1;
  for (const name of ['.kitbash', ...watchRoots()]) {
    const top = join(project, name);
    if (statSync(top, { throwIfNoEntry: false })?.isDirectory()) n += count(top);
  }
  return n;
}

/** serve in its own user namespace, allowed `limit` inotify watches. */
const limited = (limit: number) => [
  'unshare',
  '-Ur',
  'sh',
  '-c',
  `echo ${limit} > /proc/sys/user/max_inotify_watches && exec "$@"`,
  'sh',
];

/** `channel` answered by serve's RPC for the project it has open. */
async function ask(served: Served, channel: string, body: unknown = {}): Promise<unknown> {
  const headers = {
    'content-type': 'application/json',
    'x-skillsmith-token': served.token,
    'x-skillsmith-session': 'e2e-watch-status',
  };
  const call = async (channel: string, body: unknown) => {
    const r = await fetch(`${served.origin}/rpc/${channel}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const envelope = (await r.json()) as { ok: boolean; value?: unknown; error?: unknown };
    if (!envelope.ok) throw new Error(`${channel}: ${JSON.stringify(envelope.error)}`);
    return envelope.value;
  };
  const { project } = (await call('project.current', {})) as { project: { root: string } | null };
  if (!project) throw new Error('serve has no project open');
  await call('project.open', { path: project.root });
  return call(channel, body);
}

describe.skipIf(!ok)('"Live" only when every folder is watched', () => {
  it('says Live, with the folder count, when the whole project is watched', async () => {
    const app = await openApp(scratchWorkspace);
    try {
      const total = foldersToWatch(app.project.project);
      expect(await ask(app.served, 'project.watchStatus')).toEqual({
        state: 'live',
        watched: total,
        unwatched: 0,
        reason: null,
      });
      const { page, errors } = await app.open();
      await page.goto(app.served.url);
      const badge = page.getByTestId('live-badge');
      await expect.poll(() => badge.innerText()).toBe('Live');
      expect(await badge.getAttribute('title')).toBe(`watching all ${total} folders of the project for changes`);
      expect(await page.getByTestId('watch-notice').count()).toBe(0);

      expect(await ask(app.served, 'project.watchGap', { path: '.kitbash/skills/prereview' })).toEqual({ gap: null });
      await openEditor(page, 'prereview');
      expect(await page.getByTestId('editor-watch-gap').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('over the inotify limit, says Partly live, names the folder and the limit, and the dashboard says what to do', async () => {
    // The root, .kitbash and .kitbash/skills fit; no skill folder does.
    const app = await openApp(scratchWorkspace, { wrap: limited(3) });
    try {
      const total = foldersToWatch(app.project.project);
      const status = (await ask(app.served, 'project.watchStatus')) as { reason: string };
      expect(status).toEqual({
        state: 'partial',
        watched: 3,
        unwatched: total - 3,
        reason: expect.stringMatching(
          /^\.kitbash\/skills\/[\w-]+: not watched — the system's limit on file watches is reached \(raise fs\.inotify\.max_user_watches\)$/,
        ),
      });

      const { page, errors } = await app.open();
      await page.goto(app.served.url);
      const badge = page.getByTestId('live-badge');
      await expect.poll(() => badge.innerText()).toBe('Partly live');
      expect(await badge.getAttribute('title')).toBe(
        `${total - 3} of ${total} folders are not watched: changes there show only after Rescan. ${status.reason}`,
      );
      const notice = page.getByTestId('watch-notice');
      await notice.waitFor();
      expect((await notice.innerText()).replace(/\s+/g, ' ')).toBe(
        `Not every folder is watched. ${total - 3} of ${total} folders of this project are not watched, so changes ` +
          `made there (by an editor, git, or an agent) appear only after Rescan. Reopen the project once the ` +
          `cause below is fixed. ${status.reason}`,
      );
      await screenshot(page, 'dashboard-partly-live');

      // The editor of a skill whose folder is missed says so, and reads the files again
      // when the window gets the focus back.
      const gap =
        ".kitbash/skills/prereview: not watched — the system's limit on file watches is reached (raise fs.inotify.max_user_watches)";
      expect(await ask(app.served, 'project.watchGap', { path: '.kitbash/skills/prereview' })).toEqual({ gap });
      await openEditor(page, 'prereview');
      const banner = page.getByTestId('editor-watch-gap');
      await banner.waitFor();
      expect((await banner.innerText()).replace(/\s+/g, ' ')).toBe(
        "Changes on disk may not show here as they happen. This skill's files are read again whenever you come " +
          `back to this window, and a save never overwrites a file that changed on disk. ${gap}`,
      );
      await screenshot(page, 'editor-watch-gap');
      const file = join(app.project.project, '.kitbash', 'skills', 'prereview', 'SKILL.md');
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nA line written by another program.\n`);
      const shown = () => page.evaluate(() => window.__skillsmithEditor!.value('SKILL.md') ?? '');
      // The watch really misses it: nothing reaches the page by itself.
      await page.waitForTimeout(1500);
      expect(await shown()).not.toContain('A line written by another program.');
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await expect.poll(shown).toContain('A line written by another program.');
      expect(errors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

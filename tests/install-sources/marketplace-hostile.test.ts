/**
 * Hostile marketplaces: each is refused with one line naming the problem, and nothing is
 * written to the project. Served on 127.0.0.1; a redirect off the host is refused before
 * any connection to it is made.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from '../../main/services/net/http-get';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, gitAvailable, temp, write } from '../workspace/helpers';
import { loopback, project, runBuilt, skillMd, type Loopback } from './marketplace-helpers';

const hasGit = requireOrSkip('git', gitAvailable());
let net: Loopback;

beforeAll(async () => {
  net = await loopback();
  net.route('/broken/marketplace.json', '{"name": "x", "plugins": [ {"name": "a", ');
  net.route('/not-a-market/marketplace.json', '{"name": "x", "plugins": "all of them"}');
  const redirect = (to: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
    res.writeHead(302, { location: to }).end();
  net.route('/off/marketplace.json', redirect('http://skills.example.invalid/marketplace.json'));
  net.route('/file/marketplace.json', redirect('file:///etc/passwd'));
  net.route('/big/marketplace.json', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    // No Content-Length: the cap holds while the body streams.
    res.write('{"name": "big", "plugins": [');
    res.end(`${'{"name": "p", "source": "./p"},'.repeat(40_000)}]}`);
  });
  net.route(
    '/escape/marketplace.json',
    JSON.stringify({ name: 'escape', plugins: [{ name: 'evil', source: { source: 'url', url: 'file:///etc' } }] }),
  );
});

afterAll(async () => {
  await net?.close();
  cleanupTemps();
});

/** The project is as it was: no skill folder, no lock, no generated file. */
function untouched(p: string): void {
  expect(readdirSync(p).sort()).toEqual(['.claude', 'kitbash.toml']);
  expect(readdirSync(join(p, '.claude'))).toEqual(['.keep']);
}

/** One line on stderr, nothing on stdout, exit 1. */
async function refused(source: string, ...extra: string[]): Promise<string> {
  const p = project();
  const r = await runBuilt(p, ['install', source, '--all', '--yes', ...extra]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  untouched(p);
  return r.stderr;
}

describe('hostile marketplaces are refused with one line, and nothing is written', () => {
  it('malformed JSON, and a file that is not a marketplace', async () => {
    expect(await refused(`${net.base}/broken/marketplace.json`)).toMatch(
      /^skillsmith install: http:\/\/127\.0\.0\.1:\d+\/broken\/marketplace\.json: not valid JSON \(/,
    );
    expect(await refused(`${net.base}/not-a-market/marketplace.json`)).toContain(
      'not-a-market/marketplace.json: not a marketplace — "plugins" is missing or not a list',
    );
  });

  it('a redirect to another host or to file: is not followed', async () => {
    expect(await refused(`${net.base}/off/marketplace.json`)).toContain(
      'redirected to another host (skills.example.invalid) — not followed',
    );
    expect(await refused(`${net.base}/file/marketplace.json`)).toContain(
      'redirected to file: (file:///etc/passwd) — only https: and http: are followed',
    );
  });

  it('an oversized manifest, served or on disk, is not read past the cap', async () => {
    expect(await refused(`${net.base}/big/marketplace.json`)).toContain(
      'more than the 1 MiB allowed — stopped reading',
    );
    const dir = temp();
    write(dir, { '.claude-plugin/marketplace.json': '' });
    writeFileSync(join(dir, '.claude-plugin', 'marketplace.json'), ' '.repeat(2 * 1024 * 1024));
    expect(await refused(join(dir, '.claude-plugin', 'marketplace.json'))).toContain(
      'marketplace.json: 2 MiB, more than the 1 MiB a marketplace may be — not read',
    );
  });

  it("a plugin path with '..', and a plugin URL on this machine", async () => {
    const dir = temp();
    write(dir, {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'm',
        plugins: [
          { name: 'ok', source: './plugins/ok' },
          { name: 'evil', source: './plugins/../../outside' },
        ],
      }),
      'plugins/ok/skills/fine/SKILL.md': skillMd('fine'),
    });
    const file = join(dir, '.claude-plugin', 'marketplace.json');
    expect(await refused(file)).toContain(
      `${file}: plugin "evil": source "./plugins/../../outside" leaves the marketplace's folder — only paths inside it are read`,
    );
    expect(await refused(`${net.base}/escape/marketplace.json`)).toContain(
      'plugin "evil": url "file:///etc" is not a remote git URL (https, ssh or git)',
    );
  });
});

describe('the bounded GET behind a marketplace URL', () => {
  it('follows a redirect on the same host, and stops after the redirect limit', async () => {
    net.route('/moved.json', (_req, res) => res.writeHead(301, { location: '/here.json' }).end());
    net.route('/here.json', '{"ok": true}');
    const got = await httpGet({ url: `${net.base}/moved.json`, maxBytes: 1024 });
    expect(got.ok && new TextDecoder().decode(got.value.body)).toBe('{"ok": true}');
    expect(got.ok && got.value.url).toBe(`${net.base}/here.json`);
    net.route('/loop.json', (_req, res) => res.writeHead(302, { location: '/loop.json' }).end());
    const loop = await httpGet({ url: `${net.base}/loop.json`, maxBytes: 1024, redirects: 3 });
    expect(!loop.ok && loop.error.message).toBe(`${net.base}/loop.json: more than 3 redirects — stopped`);
    const scheme = await httpGet({ url: 'file:///etc/passwd', maxBytes: 1024 });
    expect(!scheme.ok && scheme.error.message).toBe('file:///etc/passwd: only https: and http: URLs are fetched');
  });
});

describe.skipIf(!hasGit)('a marketplace in a repository', () => {
  it('whose marketplace.json does not parse still lists its skills by the walk, with a note', async () => {
    const dir = temp();
    write(dir, {
      '.claude-plugin/marketplace.json': '{ nope',
      'plugins/a/skills/walked/SKILL.md': skillMd('walked'),
    });
    const r = await runBuilt(project(), ['install', `file:${dir}`, '--list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('walked');
    expect(r.stderr).toContain('note: .claude-plugin/marketplace.json: not valid JSON');
    expect(existsSync(join(dir, '.kitbash'))).toBe(false);
  });
});

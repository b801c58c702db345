/**
 * `install wellknown:<https URL>`: an Agent Skills discovery index served over HTTPS on
 * 127.0.0.1 (a certificate made here, trusted by the spawned built CLI), listed, installed
 * through the batch (one review, one lock write, one compile), digests checked before
 * anything is unpacked, and the index re-read by `outdated` and `update`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireOrSkip, skillsmithBin } from '../support/paths';
import {
  digestOf,
  INDEX_PATH,
  opensslAvailable,
  SCHEMA,
  skillMd,
  siteForFile,
  skillsmith,
  tarGz,
  tempDir,
  zip,
} from './wellknown-helpers';

const ready = requireOrSkip('the built CLI and openssl', existsSync(skillsmithBin) && opensslAvailable());

const site = siteForFile(ready);

function project(): string {
  const p = tempDir('skillsmith-wk-project-');
  writeFileSync(join(p, 'kitbash.toml'), '[project]\ntargets = ["claude-code"]\n');
  mkdirSync(join(p, '.claude'));
  return p;
}

interface Served {
  readonly name: string;
  readonly type: 'skill-md' | 'archive';
  readonly path: string;
  readonly bytes: Buffer;
  readonly contentType?: string;
  readonly digest?: string;
  readonly url?: string;
}

/** Serve these artifacts and an index of them under `/<base>`; the source string for the index. */
function publish(base: string, items: readonly Served[], extra: readonly object[] = []): string {
  for (const s of items)
    site().route(`/${base}${s.path}`, { body: s.bytes, ...(s.contentType ? { type: s.contentType } : {}) });
  const index = {
    $schema: SCHEMA,
    skills: [
      ...items.map((s) => ({
        name: s.name,
        type: s.type,
        description: `Use when working on ${s.name}.`,
        url: s.url ?? `/${base}${s.path}`,
        digest: s.digest ?? digestOf(s.bytes),
      })),
      ...extra,
    ],
  };
  site().route(`/${base}${INDEX_PATH}`, { body: JSON.stringify(index), type: 'application/json' });
  return `wellknown:${site().origin}/${base}${INDEX_PATH}`;
}

const md = (name: string, body = skillMd(name)): Served => ({
  name,
  type: 'skill-md',
  path: `/.well-known/agent-skills/${name}/SKILL.md`,
  bytes: Buffer.from(body),
  contentType: 'text/markdown',
});

const lockOf = (p: string): string => readFileSync(join(p, 'kitbash.lock'), 'utf8');
const installedFile = (p: string, name: string, file = 'SKILL.md') => join(p, '.kitbash', 'skills', name, file);

describe.runIf(ready)('a discovery index over HTTPS', () => {
  it('lists name, type and description, and says which entries it skipped', async () => {
    const src = publish(
      'list',
      [md('code-review'), { ...md('wrangler'), type: 'archive', path: '/w.tar.gz', bytes: tarGz([]) }],
      [{ name: 'future', type: 'plugin', description: 'x', url: '/f', digest: digestOf('x') }],
    );
    const r = await skillsmith(project(), site().ca, 'install', src, '--list');
    expect(r.stderr).toContain('note: future: type "plugin" is not skill-md or archive — skipped');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${src} holds 2 skills:\n`);
    expect(r.stdout).toMatch(/\n {2}code-review +skill-md +Use when working on code-review\.\n/);
    expect(r.stdout).toMatch(/\n {2}wrangler +archive +Use when working on wrangler\.\n/);
    // Listing fetches the index only.
    expect(site().asked.filter((a) => a.startsWith('/list/'))).toEqual([`/list${INDEX_PATH}`]);
  });

  it('installs a SKILL.md, a .tar.gz and a .zip in one batch, pinning index, entry and digest', async () => {
    const tar = tarGz([
      { name: './', type: '5' },
      { name: './SKILL.md', body: skillMd('wrangler', '\nRun scripts/deploy.sh to deploy.\n') },
      { name: './scripts/', type: '5' },
      { name: './scripts/deploy.sh', body: '#!/bin/sh\necho deploy\n', mode: 0o755 },
    ]);
    // A zip of the skill's folder rather than of its contents: the one folder is the skill.
    const z = zip([
      { name: 'zipped/' },
      { name: 'zipped/SKILL.md', body: skillMd('zipped', '\nSee references/NOTES.md.\n') },
      { name: 'zipped/references/NOTES.md', body: '# Notes\n' },
    ]);
    const items: Served[] = [
      md('code-review'),
      { name: 'wrangler', type: 'archive', path: '/a/wrangler.tar.gz', bytes: tar, contentType: 'application/gzip' },
      { name: 'zipped', type: 'archive', path: '/a/zipped.zip', bytes: z, url: '../../a/zipped.zip' },
    ];
    const src = publish('install', items);
    const p = project();
    const r = await skillsmith(p, site().ca, 'install', src, '--all', '--yes');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect([...r.stdout.matchAll(/^== (\S+) /gm)].map((m) => m[1])).toEqual(['code-review', 'wrangler', 'zipped']);
    expect(r.stdout.match(/^compiled for /gm)).toHaveLength(1);
    expect(r.stdout).toContain('\ninstalled 3 skills: code-review, wrangler, zipped\n');
    expect(readFileSync(installedFile(p, 'code-review'), 'utf8')).toBe(skillMd('code-review'));
    expect(readFileSync(installedFile(p, 'wrangler', 'scripts/deploy.sh'), 'utf8')).toContain('echo deploy');
    expect(readFileSync(installedFile(p, 'zipped', 'references/NOTES.md'), 'utf8')).toBe('# Notes\n');
    const lock = lockOf(p);
    const index = `${site().origin}/install${INDEX_PATH}`;
    for (const s of items) {
      expect(lock).toContain(`source = "wellknown:${index}#${s.name}"`);
      expect(lock).toContain(`digest = "${digestOf(s.bytes)}"`);
    }
    expect(lock).toContain('executable = ["scripts/deploy.sh"]');
  });

  it('refuses an artifact whose digest does not match, naming both digests, and writes nothing', async () => {
    const good = md('good-one');
    const bad = { ...md('tampered'), digest: digestOf('what the publisher signed off') };
    const src = publish('digest', [good, bad]);
    const p = project();
    const one = await skillsmith(p, site().ca, 'install', `${src}#tampered`, '--yes');
    expect(one.code).toBe(1);
    expect(one.stderr).toContain(
      `tampered: digest mismatch — the index says ${bad.digest}, ${site().origin}/digest/.well-known/agent-skills/tampered/SKILL.md hashes to ${digestOf(bad.bytes)}; nothing unpacked or installed`,
    );
    expect(existsSync(join(p, '.kitbash'))).toBe(false);
    expect(existsSync(join(p, 'kitbash.lock'))).toBe(false);
    // In a batch it is refused alone; the other pick installs.
    const both = await skillsmith(p, site().ca, 'install', src, '--all', '--yes');
    expect(both.code).toBe(1);
    expect(both.stdout).toContain(
      'installed 1 skill: good-one\nrefused 1 skill:\n  tampered — tampered: digest mismatch',
    );
    expect(existsSync(installedFile(p, 'tampered'))).toBe(false);
  });

  it('matches [policy].allow_sources against wellknown:<index URL>#<name>', async () => {
    const src = publish('policy', [md('gated')]);
    const p = project();
    writeFileSync(
      join(p, 'kitbash.toml'),
      '[project]\ntargets = ["claude-code"]\n\n[policy]\nallow_sources = ["gh:acme/*"]\n',
    );
    const r = await skillsmith(p, site().ca, 'install', src, '--skill', 'gated', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `✗ gated: policy: source "wellknown:${site().origin}/policy${INDEX_PATH}#gated" is not in allow_sources (gh:acme/*)`,
    );
    expect(existsSync(installedFile(p, 'gated'))).toBe(false);
  });

  it('refuses http://, a redirect to http://, an index over its cap and an unknown $schema', async () => {
    const p = project();
    const plain = await skillsmith(p, site().ca, 'install', 'wellknown:http://127.0.0.1:9/', '--list');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(
      'wellknown:http://127.0.0.1:9/: a well-known skills index is fetched over HTTPS only — use https://127.0.0.1:9/',
    );
    site().route(`/down${INDEX_PATH}`, {
      body: '',
      status: 302,
      headers: { location: `http://127.0.0.1:9${INDEX_PATH}` },
    });
    const down = await skillsmith(p, site().ca, 'install', `wellknown:${site().origin}/down${INDEX_PATH}`, '--list');
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(
      `skills index: ${site().origin}/down${INDEX_PATH}: redirected to http: (http://127.0.0.1:9${INDEX_PATH}) — only https: are followed`,
    );
    site().route(`/loop${INDEX_PATH}`, { body: '', status: 307, headers: { location: `/loop${INDEX_PATH}` } });
    const loop = await skillsmith(p, site().ca, 'install', `wellknown:${site().origin}/loop${INDEX_PATH}`, '--list');
    expect(loop.code).toBe(1);
    expect(loop.stderr).toContain(`skills index: ${site().origin}/loop${INDEX_PATH}: more than 5 redirects — stopped`);
    site().route(`/big${INDEX_PATH}`, { body: Buffer.alloc(5 * 1024 * 1024, 0x20), type: 'application/json' });
    const big = await skillsmith(p, site().ca, 'install', `wellknown:${site().origin}/big${INDEX_PATH}`, '--list');
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(
      new RegExp(
        `${site().origin}/big${INDEX_PATH}: (5 MiB, )?more than the 4 MiB allowed — (not read|stopped reading)`,
      ),
    );
    site().route(`/old${INDEX_PATH}`, { body: JSON.stringify({ skills: [] }), type: 'application/json' });
    const old = await skillsmith(p, site().ca, 'install', `wellknown:${site().origin}/old${INDEX_PATH}`, '--list');
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('has no "$schema", so it is a v0.1.0 index');
    expect(existsSync(join(p, '.kitbash'))).toBe(false);
  });

  it('re-reads the index for outdated and update: a new digest is a newer version', async () => {
    const first = md('evolving');
    const src = publish('update', [first]);
    const p = project();
    expect((await skillsmith(p, site().ca, 'install', src, '--skill', 'evolving', '--yes')).code).toBe(0);
    expect((await skillsmith(p, site().ca, 'outdated')).code).toBe(0);
    const next = md('evolving', skillMd('evolving', '\nAlso check the changelog.\n'));
    publish('update', [next]);
    const out = await skillsmith(p, site().ca, 'outdated');
    expect(out.code).toBe(1);
    const short = (b: Buffer) => digestOf(b).slice(0, 'sha256:'.length + 12);
    expect(out.stdout).toContain(`evolving: 0.0.0 (${short(first.bytes)}) → 0.0.0 (${short(next.bytes)})\n`);
    expect(out.stdout).toContain('    ~ SKILL.md\n');
    const up = await skillsmith(p, site().ca, 'update', 'evolving', '--yes');
    expect(up.code).toBe(0);
    expect(readFileSync(installedFile(p, 'evolving'), 'utf8')).toContain('Also check the changelog.');
    expect(lockOf(p)).toContain(`digest = "${digestOf(next.bytes)}"`);
    expect(lockOf(p)).not.toContain(digestOf(first.bytes));
    expect((await skillsmith(p, site().ca, 'outdated')).code).toBe(0);
    // Over local edits there is no base to merge on (the index keeps no earlier version):
    // nothing changes until --theirs or --ours settles it.
    writeFileSync(installedFile(p, 'evolving'), `${readFileSync(installedFile(p, 'evolving'), 'utf8')}\nMine.\n`);
    const third = md('evolving', skillMd('evolving', '\nThird.\n'));
    publish('update', [third]);
    const stuck = await skillsmith(p, site().ca, 'update', 'evolving', '--yes');
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain(
      'evolving has local edits, and the version they were made on cannot be recovered: a discovery index serves only its current version — nothing changed',
    );
    expect(readFileSync(installedFile(p, 'evolving'), 'utf8')).toContain('Mine.');
    const theirs = await skillsmith(p, site().ca, 'update', 'evolving', '--yes', '--theirs');
    expect(theirs.code).toBe(0);
    expect(readFileSync(installedFile(p, 'evolving'), 'utf8')).toBe(third.bytes.toString());
    expect(lockOf(p)).toContain(`digest = "${digestOf(third.bytes)}"`);
  });
});

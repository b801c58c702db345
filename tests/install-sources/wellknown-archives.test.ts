/**
 * Hostile archives from a discovery index: each is refused on its own, with one line naming
 * the entry at fault, before anything of it is written — traversal, absolute paths, links
 * (wherever they point), devices, decompression bombs, too many entries, a lying zip header.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

const MB = 1024 * 1024;
const absTarget = join(tmpdir(), `skillsmith-wk-absolute-${process.pid}.txt`);

/** name → archive bytes and the line its refusal must carry. */
function hostile(): { name: string; file: string; bytes: Buffer; why: string }[] {
  const md = (name: string) => ({ name: './SKILL.md', body: skillMd(name) });
  const zmd = (name: string) => ({ name: 'SKILL.md', body: skillMd(name) });
  const many = Array.from({ length: 100_000 }, (_, i) => ({ name: `f/${i}` }));
  return [
    {
      name: 'dotdot',
      file: 'dotdot.tar.gz',
      bytes: tarGz([md('dotdot'), { name: '../escape.txt', body: 'x' }]),
      why: 'archive entry "../escape.txt" refused — a ".." segment (path traversal)',
    },
    {
      name: 'absolute',
      file: 'absolute.tar.gz',
      bytes: tarGz([md('absolute'), { name: absTarget, body: 'x' }]),
      why: `archive entry "${absTarget}" refused — an absolute path`,
    },
    {
      name: 'symlink',
      file: 'symlink.tar.gz',
      bytes: tarGz([md('symlink'), { name: './etc', type: '2', link: '/etc' }]),
      why: 'archive entry "./etc" refused — a symbolic link (links are refused, wherever they point)',
    },
    {
      name: 'hardlink',
      file: 'hardlink.tar.gz',
      bytes: tarGz([md('hardlink'), { name: './passwd', type: '1', link: '/etc/passwd' }]),
      why: 'archive entry "./passwd" refused — a hard link (links are refused, wherever they point)',
    },
    {
      name: 'device',
      file: 'device.tar.gz',
      bytes: tarGz([md('device'), { name: './tty', type: '3' }]),
      why: 'archive entry "./tty" refused — a device file',
    },
    {
      name: 'tar-bomb',
      file: 'tar-bomb.tar.gz',
      bytes: tarGz([md('tar-bomb'), { name: './zeros', body: Buffer.alloc(60 * MB) }]),
      why: 'archive entry "./zeros" refused — the archive unpacks to more than 50 MiB',
    },
    {
      name: 'many',
      file: 'many.tar.gz',
      bytes: tarGz([md('many'), ...many]),
      why: 'archive entry "f/4999" refused — the archive holds more than 5000 entries',
    },
    {
      name: 'zip-symlink',
      file: 'zip-symlink.zip',
      bytes: zip([zmd('zip-symlink'), { name: 'etc', body: '/etc', mode: 0o120777 }]),
      why: 'archive entry "etc" refused — a symbolic link (links are refused, wherever they point)',
    },
    {
      name: 'zip-dotdot',
      file: 'zip-dotdot.zip',
      bytes: zip([zmd('zip-dotdot'), { name: 'a/../../x', body: 'x' }]),
      why: 'archive entry "a/../../x" refused — a ".." segment (path traversal)',
    },
    {
      name: 'zip-bomb',
      file: 'zip-bomb.zip',
      bytes: zip([zmd('zip-bomb'), { name: 'zeros', body: Buffer.alloc(60 * MB), claim: 1 }]),
      why: 'archive entry "zeros" refused — the archive unpacks to more than 50 MiB',
    },
    {
      name: 'zip-liar',
      file: 'zip-liar.zip',
      bytes: zip([zmd('zip-liar'), { name: 'notes.md', body: 'a'.repeat(100), claim: 10 }]),
      why: 'archive entry "notes.md" refused — it unpacks to 100 bytes where its header says 10',
    },
  ];
}

describe.runIf(ready)('hostile archives from a discovery index', () => {
  it('refuses each with one line naming the entry, and writes none of it', async () => {
    const cases = hostile();
    for (const c of cases) site().route(`/h/${c.file}`, { body: c.bytes });
    site().route(`/h${INDEX_PATH}`, {
      type: 'application/json',
      body: JSON.stringify({
        $schema: SCHEMA,
        skills: [
          ...cases.map((c) => ({
            name: c.name,
            type: 'archive',
            description: `Use when testing ${c.name}.`,
            url: `/h/${c.file}`,
            digest: digestOf(c.bytes),
          })),
          // One good archive: the batch goes on around the refusals.
          { name: 'fine', type: 'archive', description: 'Fine.', url: '/h/fine.zip', digest: digestOf(fine) },
        ],
      }),
    });
    site().route('/h/fine.zip', { body: fine });
    const p = tempDir('skillsmith-wk-hostile-');
    writeFileSync(join(p, 'kitbash.toml'), '[project]\ntargets = ["claude-code"]\n');
    mkdirSync(join(p, '.claude'));
    const r = await skillsmith(p, site().ca, 'install', `wellknown:${site().origin}/h${INDEX_PATH}`, '--all', '--yes');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`installed 1 skill: fine\nrefused ${cases.length} skills:\n`);
    for (const c of cases) expect(r.stdout).toContain(`\n  ${c.name} — ${c.name}: ${c.why}\n`);
    expect(readdirSync(join(p, '.kitbash', 'skills'))).toEqual(['fine']);
    expect(existsSync(absTarget)).toBe(false);
  }, 120_000);
});

const fine = zip([{ name: 'SKILL.md', body: skillMd('fine') }]);

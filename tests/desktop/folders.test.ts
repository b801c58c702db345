/** The browser picker's folder listing (main/services/folders): confined to the home folder. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolders } from '../../main/services/folders';

let base: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'skillsmith-folders-')));
  home = join(base, 'home');
  mkdirSync(join(home, 'code', 'repo', '.kitbash'), { recursive: true });
  mkdirSync(join(home, 'code', 'plain'), { recursive: true });
  mkdirSync(join(home, '.secret'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(home, 'notes.txt'), '');
  writeFileSync(join(home, 'code', 'kitbash.toml'), '');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('listFolders', () => {
  it('lists the home folder by default: folders only, hidden ones left out, projects marked', () => {
    symlinkSync(join(home, 'code'), join(home, 'link-in'));
    const r = listFolders(undefined, home);
    expect(r).toEqual({
      ok: true,
      value: {
        path: home,
        parent: null,
        project: false,
        truncated: false,
        folders: [
          { name: 'code', path: join(home, 'code'), project: true },
          { name: 'link-in', path: join(home, 'link-in'), project: true },
        ],
      },
    });
  });

  it('lists a sub-folder with its parent', () => {
    const r = listFolders(join(home, 'code'), home);
    expect(r.ok && r.value.parent).toBe(home);
    expect(r.ok && r.value.folders.map((f) => [f.name, f.project])).toEqual([
      ['plain', false],
      ['repo', true],
    ]);
  });

  it('refuses anything outside the home folder, also through .. and symlinks', () => {
    symlinkSync(join(base, 'outside'), join(home, 'escape'));
    for (const p of [base, join(home, '..', 'outside'), join(home, 'escape'), '/']) {
      const r = listFolders(p, home);
      expect(r.ok, p).toBe(false);
      expect(!r.ok && r.error.code, p).toBe('forbidden');
    }
    // A symlink leading out is not even listed.
    const r = listFolders(undefined, home);
    expect(r.ok && r.value.folders.map((f) => f.name)).toEqual(['code']);
  });

  it('names a missing folder in one line', () => {
    const r = listFolders(join(home, 'nope'), home);
    expect(r).toEqual({ ok: false, error: { code: 'not-found', message: `${join(home, 'nope')}: does not exist` } });
  });
});

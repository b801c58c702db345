import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { treeIntegrity } from '../../shared/lock/integrity';
import { parseLock, serializeLock, type LockEntry } from '../../shared/lock/lockfile';
import { Sha256 } from '../../shared/lock/sha256';
import { readLock, skillIntegrity, verifySkill, writeLock } from '../../main/services/lock';
import { readSkillTree } from '../../main/services/skills/reader';
import { kitbashEntry, requireOrSkip } from '../support/paths';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';

const temps: string[] = [];
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'skillsmith-lock-'));
  temps.push(d);
  return d;
}
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder that exercises every rule of the walk and the content normalisation. */
function trickyFolder(): string {
  const d = temp();
  const w = (rel: string, data: string | Uint8Array) => {
    mkdirSync(dirname(join(d, rel)), { recursive: true });
    writeFileSync(join(d, rel), data);
  };
  w('SKILL.md', '# t\r\nline two\r\n');
  w('a/b', 'nested b\n');
  w('a-c/d', 'sorted after a/ per directory\n');
  w('bin.dat', new Uint8Array([0, 1, 2, 13, 10, 255]));
  w('bad-utf8.txt', new Uint8Array([0x61, 0xff, 0xfe, 0x0d, 0x0a, 0x62]));
  w('bom.md', '\uFEFFwith a bom\r\n');
  w('caf\u00e9.md', 'NFC name (kitbash cannot read NFD names back on Linux, see the next test)\n');
  w('.git/HEAD', 'top-level git is skipped\n');
  w('sub/.git/HEAD', 'nested git is hashed by the reference\n');
  w('Z.md', 'upper case sorts first\n');
  w('emoji-😀.md', 'astral 😀\n');
  mkdirSync(join(d, 'empty-dir'));
  symlinkSync('SKILL.md', join(d, 'link-in'));
  symlinkSync('../../etc/passwd', join(d, 'link-out'));
  return d;
}

describe('sha256', () => {
  it('matches node:crypto at every length around the block boundaries and when fed in pieces', () => {
    for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000, 4097]) {
      const data = randomBytes(n);
      const h = new Sha256();
      h.update(data.subarray(0, Math.floor(n / 3)));
      h.update(data.subarray(Math.floor(n / 3)));
      expect(h.hex(), `length ${n}`).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });
});

const kitbashOk = requireOrSkip('kitbash (node_modules/kitbash)', existsSync(kitbashEntry));

describe.skipIf(!kitbashOk)('integrity is the reference algorithm', () => {
  it('hashes a tricky folder exactly as kitbash integrityOf does, with both hashers', async () => {
    const kb = (await import(join(dirname(kitbashEntry), 'lock.js'))) as { integrityOf(dir: string): string };
    const d = trickyFolder();
    const expected = kb.integrityOf(d);
    expect(skillIntegrity(d)).toEqual({ ok: true, value: expected });
    const tree = readSkillTree(d, d);
    if (!tree.ok) throw new Error(tree.error.message);
    expect(treeIntegrity(tree.value)).toBe(expected);
  });

  it('hashes an NFD name as its NFC form (and still reads the file)', () => {
    const nfc = temp();
    const nfd = temp();
    writeFileSync(join(nfc, 'caf\u00e9.md'), 'x\n');
    writeFileSync(join(nfd, 'cafe\u0301.md'), 'x\n');
    expect(skillIntegrity(nfd)).toEqual(skillIntegrity(nfc));
  });

  it('changes when a symlink target, a byte, or a name changes; not on CRLF vs LF', async () => {
    const d = trickyFolder();
    const before = skillIntegrity(d);
    writeFileSync(join(d, 'SKILL.md'), '# t\nline two\n');
    expect(skillIntegrity(d)).toEqual(before);
    rmSync(join(d, 'link-in'));
    symlinkSync('Z.md', join(d, 'link-in'));
    expect(skillIntegrity(d)).not.toEqual(before);
  });

  it('serialises byte for byte as kitbash writeLock does, and each reads the other', async () => {
    const kb = (await import(join(dirname(kitbashEntry), 'lock.js'))) as {
      writeLock(root: string, e: unknown[]): void;
      readLock(root: string): unknown[];
    };
    const entries: LockEntry[] = [
      { name: 'zeta', version: '1.0.0', source: 'file:./z "quoted"\\', integrity: `sha256-${'a'.repeat(64)}` },
      { name: 'alpha', version: '0.1.0', source: 'gh:o/r/p@v1', integrity: `sha256-${'b'.repeat(64)}` },
    ];
    const d = temp();
    kb.writeLock(d, entries);
    expect(serializeLock(entries)).toBe(readFileSync(join(d, 'kitbash.lock'), 'utf8'));
    kb.writeLock(d, []);
    expect(serializeLock([])).toBe(readFileSync(join(d, 'kitbash.lock'), 'utf8'));
    // Additive keys: kitbash reads the four it knows and ignores the rest.
    const rich: LockEntry[] = [
      {
        ...entries[0]!,
        resolved: 'file:/abs/z',
        commit: 'c'.repeat(40),
        dependencies: ['alpha@^0.1.0'],
        direct: false,
        executable: ['scripts/a.sh'],
      },
      { ...entries[1]!, requested: ['zeta: ^0.1.0'], executable: [] },
    ];
    writeLock(d, rich);
    expect(kb.readLock(d)).toEqual([entries[1], entries[0]]);
    expect(readLock(d)).toEqual({ ok: true, value: { present: true, entries: [rich[1], rich[0]] } });
  });
});

describe('lockfile parse', () => {
  it('round-trips every key', () => {
    const e: LockEntry[] = [
      {
        name: 'a',
        version: '1.0.0',
        source: 's',
        integrity: 'i',
        resolved: 'r',
        commit: 'c',
        dependencies: ['b@^1'],
        requested: ['x: ^1'],
        direct: false,
        executable: ['scripts/x.sh'],
      },
    ];
    expect(parseLock(serializeLock(e))).toEqual({ ok: true, value: e });
  });
  it('writes strings every TOML reader accepts (control characters and DEL escaped)', () => {
    const e: LockEntry[] = [{ name: 'a', version: '1.0.0', source: 'odd\u0001\u007f\t"\\src', integrity: 'i' }];
    expect(parseLock(serializeLock(e))).toEqual({ ok: true, value: e });
  });

  it('names a merge-conflict marker with its line', () => {
    const text =
      '# generated by kitbash — do not edit\n\n<<<<<<< HEAD\n[[skill]]\nname = "a"\n=======\n>>>>>>> other\n';
    const r = parseLock(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.line).toBe(3);
      expect(r.error.message).toMatch(/merge-conflict marker/);
    }
  });
  it('reports invalid TOML, a non-array skill key and duplicate pins in one line each', () => {
    for (const [text, re] of [
      ['[[skill]\nname = "a"\n', /invalid TOML/],
      ['skill = "x"\n', /array of \[\[skill\]\] tables/],
      ['[[skill]]\nname = "a"\n[[skill]]\nname = "a"\n', /pinned twice/],
    ] as const) {
      const r = parseLock(text);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.message).toMatch(re);
        expect(r.error.message).not.toContain('\n');
      }
    }
  });
  it('drops nameless entries and reads missing fields as empty, like the reference', () => {
    expect(parseLock('[[skill]]\nversion = "1"\n[[skill]]\nname = "b"\n')).toEqual({
      ok: true,
      value: [{ name: 'b', version: '', source: '', integrity: '' }],
    });
  });
});

describe('verifySkill', () => {
  it('reports no-lock, unpinned, drift, missing and ok', () => {
    const root = temp();
    const dir = join(root, '.kitbash', 'skills', 'demo');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), '# demo\n');
    expect(verifySkill(root, 'demo')).toMatchObject({ ok: false, error: { code: 'forbidden', reason: 'no-lock' } });
    writeLock(root, []);
    expect(verifySkill(root, 'demo')).toMatchObject({ ok: false, error: { code: 'forbidden', reason: 'unpinned' } });
    const h = skillIntegrity(dir);
    if (!h.ok) throw new Error('hash');
    writeLock(root, [
      { name: 'demo', version: '0.0.0', source: 'x', integrity: h.value },
      { name: 'gone', version: '1.0.0', source: 'y', integrity: h.value },
    ]);
    expect(verifySkill(root, 'demo')).toMatchObject({ ok: true });
    expect(verifySkill(root, 'gone')).toMatchObject({ ok: false, error: { code: 'forbidden', reason: 'missing' } });
    writeFileSync(join(dir, 'SKILL.md'), '# demo edited\n');
    expect(verifySkill(root, 'demo')).toMatchObject({ ok: false, error: { code: 'forbidden', reason: 'drift' } });
  });
});

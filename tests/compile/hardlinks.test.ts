/**
 * Hard links never carry a compile's write out of the project (issue 38, item 5). Compile
 * reads a skill file's bytes and writes each delivered file as a new temp file
 * (O_CREAT|O_EXCL) renamed over the target (batch-write.ts): a rename replaces the name,
 * never the contents of the inode the old name shared with another path. So a hand-placed
 * skill file hard-linked to a file outside the project is delivered as a copy, and a
 * delivered file swapped for a hard link to an outside file is replaced, not written into.
 */
import { linkSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileProject } from '../../main/services/compile';
import { writeTree, type Files } from './fixtures';
import { manifest } from './helpers';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Both folders under one temp folder: a hard link needs one file system. */
function tmp(files: Files = {}): string {
  const d = mkdtempSync(join(tmpdir(), 'skillsmith-hardlink-'));
  made.push(d);
  writeTree(d, files);
  return d;
}

describe('compile and hard links', () => {
  it('a skill file hard-linked to a file outside the project is delivered as a separate file', async () => {
    const outside = tmp({ 'notes.md': 'outside text\n' });
    const outsideFile = join(outside, 'notes.md');
    const root = tmp({
      '.kitbash/skills/hl/skill.toml': manifest('hl'),
      '.kitbash/skills/hl/SKILL.md': '# hl\n\nRead notes.md.\n',
      '.claude/.keep': '',
    });
    linkSync(outsideFile, join(root, '.kitbash/skills/hl/notes.md'));
    const before = statSync(outsideFile);
    expect(before.nlink).toBe(2);

    const first = await compileProject(root, { durable: false });
    expect(first.applied!.written).toContain('.claude/skills/hl/notes.md');
    const delivered = join(root, '.claude/skills/hl/notes.md');
    expect(readFileSync(delivered, 'utf8')).toBe('outside text\n');
    const d = statSync(delivered);
    expect([d.ino === before.ino, d.nlink]).toEqual([false, 1]);
    expect(statSync(outsideFile)).toMatchObject({ ino: before.ino, nlink: 2, mtimeMs: before.mtimeMs });

    // A delivered file swapped for a hard link to an outside file with the same bytes (so compile
    // takes it for its own output), then the skill changes: the rewrite replaces the name.
    const victim = join(outside, 'victim.md');
    const deliveredSkill = join(root, '.claude/skills/hl/SKILL.md');
    writeFileSync(victim, readFileSync(deliveredSkill));
    rmSync(deliveredSkill);
    linkSync(victim, deliveredSkill);
    const victimText = readFileSync(victim, 'utf8');
    const victimBefore = statSync(victim);
    writeFileSync(join(root, '.kitbash/skills/hl/SKILL.md'), '# hl\n\nRead notes.md, then more.\n');

    const second = await compileProject(root, { durable: false });
    expect(second.applied!.written).toContain('.claude/skills/hl/SKILL.md');
    expect(readFileSync(deliveredSkill, 'utf8')).toContain('then more.');
    expect(statSync(deliveredSkill).ino).not.toBe(victimBefore.ino);
    expect(readFileSync(victim, 'utf8')).toBe(victimText);
    expect(statSync(victim)).toMatchObject({ nlink: 1, mtimeMs: victimBefore.mtimeMs });

    // control: a write in place through the link would have reached the outside file.
    linkSync(victim, join(root, 'in-place.md'));
    writeFileSync(join(root, 'in-place.md'), 'changed\n');
    expect(readFileSync(victim, 'utf8')).toBe('changed\n');
  });
});

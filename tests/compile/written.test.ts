/**
 * The recompile after install, update and remove plans in full only the skills the change
 * touched (SPEC D274): a skill whose own files the record of the last applied plan holds
 * exactly is taken as in step — not read, not checked, not walked for pruning. Merged files
 * are joined from every skill as before. A hand edit of such a file is left for `compile`;
 * without a record, or with one that does not hold a skill, that skill is planned in full.
 * (That the recompile still writes exactly what a full compile writes, merged, bounded and
 * withheld skills included, is tests/compile/incremental.test.ts.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { dropWritten } from '../../main/services/compile/written-record';
import { planChange } from '../../main/services/workspace/recompile';
import { MARKERS, SKILLS, USER_FILES } from './fixtures';
import { cleanupTemps, cli, skillFiles, temp, write } from '../workspace/helpers';

afterAll(cleanupTemps);
beforeEach(() => {
  process.env.SKILLSMITH_CACHE_DIR = temp('skillsmith-written-cache-');
});

const ALPHA = '.claude/skills/alpha/SKILL.md';
const RECORD = '.kitbash/cache/written.json';

/** Every fixture skill, every target's marker, user text in the merged files; compiled once. */
async function compiled(): Promise<string> {
  const p = temp('skillsmith-written-');
  write(p, { ...SKILLS, ...USER_FILES, '.aider.conf.yml': 'read: CONVENTIONS.md\n' });
  for (const m of Object.values(MARKERS)) write(p, m);
  write(p, skillFiles('v/late', 'late'));
  expect((await cli(p, 'compile')).code).toBe(0);
  return p;
}

/** A hand edit that keeps the generated header: compile rewrites it (D45). */
function editAlpha(p: string): string {
  const text = `${readFileSync(join(p, ALPHA), 'utf8')}\nEdited by hand.\n`;
  writeFileSync(join(p, ALPHA), text);
  return text;
}

/** What a full compile would still change: paths to write or merge, and prunes. */
async function outOfStep(p: string): Promise<string[]> {
  const r = await cli(p, 'compile', '--dry-run', '--json');
  const plan = JSON.parse(r.stdout) as {
    write: { path: string; changed: boolean }[];
    merge: { path: string; changed: boolean }[];
    prune: { path: string }[];
  };
  return [...[...plan.write, ...plan.merge].filter((f) => f.changed), ...plan.prune].map((f) => f.path);
}

describe('the plan of a change, from the record of what was written', () => {
  it('reads no file of a skill it holds, and every output without the record', async () => {
    const p = await compiled();
    const planned = await planChange(p, { remove: ['beta'] });
    const read = planned.view.readSet().map(([path]) => path);
    expect(read.some((path) => path.startsWith('.claude/skills/alpha'))).toBe(false);
    expect(read).toContain('AGENTS.md');
    dropWritten(p);
    const full = await planChange(p, { remove: ['beta'] });
    expect(full.view.readSet().map(([path]) => path)).toContain(ALPHA);
  });

  it('install, update and remove leave a hand edit of an untouched skill for compile, which fixes it', async () => {
    const p = await compiled();
    const edited = editAlpha(p);
    expect((await cli(p, 'install', 'file:./v/late', '--yes')).code).toBe(0);
    expect(readFileSync(join(p, ALPHA), 'utf8')).toBe(edited);
    expect(await outOfStep(p)).toEqual([ALPHA]);
    write(p, skillFiles('v/late', 'late', { version: '1.1.0', body: '# late\n\nA new version.\n' }));
    expect((await cli(p, 'update', 'late', '--yes')).code).toBe(0);
    expect(readFileSync(join(p, '.claude/skills/late/SKILL.md'), 'utf8')).toContain('A new version.');
    expect((await cli(p, 'remove', 'beta', '--yes')).code).toBe(0);
    expect(readFileSync(join(p, ALPHA), 'utf8')).toBe(edited);
    expect(await outOfStep(p)).toEqual([ALPHA]);
    expect((await cli(p, 'compile')).code).toBe(0);
    expect(readFileSync(join(p, ALPHA), 'utf8')).not.toBe(edited);
    expect(await outOfStep(p)).toEqual([]);
  });

  it('without a record, or with one that is corrupt or does not hold the skill, plans the skill in full', async () => {
    for (const spoil of [
      (p: string) => dropWritten(p),
      (p: string) => writeFileSync(join(p, RECORD), '{"format":1,'),
      (p: string) => {
        const rec = JSON.parse(readFileSync(join(p, RECORD), 'utf8')) as { files: Record<string, [string, string]> };
        rec.files[ALPHA] = ['alpha', 'not-the-hash'];
        writeFileSync(join(p, RECORD), JSON.stringify(rec));
      },
    ]) {
      const p = await compiled();
      editAlpha(p);
      spoil(p);
      expect((await cli(p, 'install', 'file:./v/late', '--yes')).code).toBe(0);
      expect(await outOfStep(p)).toEqual([]);
    }
  });

  it('is rewritten after each applied plan with the skills it wrote, and kept out of git', async () => {
    const p = await compiled();
    const before = readFileSync(join(p, RECORD), 'utf8');
    expect(readFileSync(join(p, '.kitbash/cache/.gitignore'), 'utf8')).toBe('*\n');
    expect((await cli(p, 'install', 'file:./v/late', '--yes')).code).toBe(0);
    const after = JSON.parse(readFileSync(join(p, RECORD), 'utf8')) as { files: Record<string, [string, string]> };
    expect(after.files['.claude/skills/late/SKILL.md']?.[0]).toBe('late');
    expect(JSON.stringify(after)).not.toBe(before.trim());
  });
});

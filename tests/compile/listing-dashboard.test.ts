/** The dashboard's target problems name the skills an agent's listing cuts or leaves out (issue 13 item 8). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../main/services/dashboard/adapters';
import { EMPTY_CONFIG } from '../../shared/project/config';
import { writeTree, type Files } from './fixtures';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('dashboard: context budget per agent', () => {
  it('lists, per active agent, the skills whose descriptions are cut or named only in the listing', () => {
    const root = mkdtempSync(join(tmpdir(), 'skillsmith-listing-'));
    made.push(root);
    const files: Files = { '.claude/.keep': '' };
    for (let i = 0; i < 100; i++) {
      const n = `s-${String(i).padStart(2, '0')}`;
      files[`.kitbash/skills/${n}/SKILL.md`] =
        `---\nname: ${n}\ndescription: ${'d'.repeat(i === 0 ? 1600 : 300)}\n---\nBody.\n`;
    }
    writeTree(root, files);
    const { problems } = ENGINES(root, EMPTY_CONFIG).targets();
    const mine = problems.filter((p) => p.message.startsWith('claude-code: '));
    expect(mine.map((p) => p.severity)).toEqual(['warning', 'warning']);
    expect(mine[0]!.message).toMatch(/^claude-code: 1 description cut at 1536 characters in the skills listing — s-00/);
    expect(mine[1]!.message).toMatch(/^claude-code: 22 skills listed by name only at session start/);
    expect(problems.filter((p) => p.message.startsWith('cursor: '))).toEqual([]);
  });
});

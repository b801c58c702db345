import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeLock } from '../../shared/lock/lockfile';
import { parseSkillsLock, skillsLockSource } from '../../shared/lock/skills-lock';
import { cleanupTemps, cli, temp, write } from './helpers';

afterAll(cleanupTemps);

const HASH = `sha256-${'0'.repeat(64)}`;
const SOURCES = {
  pdf: 'gh:anthropics/skills/skills/pdf@abc123',
  mine: 'https://git.example.com/me/s.git#:tools/mine',
  own: 'import:local',
};

function project(): string {
  const p = temp();
  write(p, {
    'kitbash.toml': '[project]\ntargets = ["claude-code"]\n',
    'kitbash.lock': serializeLock(
      Object.entries(SOURCES).map(([name, source]) => ({ name, version: '1.0.0', source, integrity: HASH })),
    ),
  });
  return p;
}

const skillsLock = (p: string) => readFileSync(join(p, 'skills-lock.json'), 'utf8');

describe('lock export skills-lock', () => {
  it("writes kitbash.lock's sources so the skills CLI reads back the same ones", async () => {
    const p = project();
    const r = await cli(p, 'lock', 'export', 'skills-lock');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'wrote skills-lock.json: 2 skills from kitbash.lock\n  not written (a source the skills CLI cannot fetch, e.g. import:local): own\n',
    );
    const parsed = parseSkillsLock(skillsLock(p));
    expect(parsed.ok && parsed.value.map((e) => [e.name, skillsLockSource(e)])).toEqual([
      ['mine', SOURCES.mine],
      ['pdf', SOURCES.pdf],
    ]);
    // Its own file may be rewritten; one the skills CLI (or anyone) changed since may not.
    expect((await cli(p, 'lock', 'export', 'skills-lock')).code).toBe(0);
    writeFileSync(join(p, 'skills-lock.json'), skillsLock(p).replace('"version": 1', '"version": 1 '));
    const changed = skillsLock(p);
    const refused = await cli(p, 'lock', 'export', 'skills-lock');
    expect(refused.code).toBe(1);
    expect(skillsLock(p)).toBe(changed);
  });

  it('replaces a file it did not write only when asked for exactly that file, keeping its other entries', async () => {
    const p = project();
    const theirs = `${JSON.stringify({
      version: 1,
      skills: {
        pdf: {
          source: 'anthropics/skills',
          sourceType: 'github',
          ref: 'abc123',
          skillPath: 'skills/pdf/SKILL.md',
          computedHash: 'h1',
        },
        mine: {
          source: 'https://git.example.com/me/s.git',
          sourceType: 'git',
          skillPath: 'SKILL.md',
          computedHash: 'h2',
        },
        other: { source: 'someone/else', sourceType: 'github', computedHash: 'h3' },
      },
    })}\n`;
    write(p, { 'skills-lock.json': theirs });
    const r = await cli(p, 'lock', 'export', 'skills-lock');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'skills-lock.json was not written by Skillsmith (or was changed since) — nothing written; rerun with --overwrite skills-lock.json',
    );
    expect(skillsLock(p)).toBe(theirs);
    expect((await cli(p, 'lock', 'export', 'skills-lock', '--overwrite', 'kitbash.lock')).code).toBe(2);
    expect(skillsLock(p)).toBe(theirs);

    expect((await cli(p, 'lock', 'export', 'skills-lock', '--overwrite', 'skills-lock.json')).code).toBe(0);
    expect(JSON.parse(skillsLock(p))).toEqual({
      version: 1,
      skills: {
        // Moved to another folder: the skills CLI's hash no longer applies, so it is left for it to compute.
        mine: { source: 'https://git.example.com/me/s.git', sourceType: 'git', skillPath: 'tools/mine/SKILL.md' },
        other: { source: 'someone/else', sourceType: 'github', computedHash: 'h3' },
        pdf: {
          source: 'anthropics/skills',
          sourceType: 'github',
          ref: 'abc123',
          skillPath: 'skills/pdf/SKILL.md',
          computedHash: 'h1',
        },
      },
    });
  });
});

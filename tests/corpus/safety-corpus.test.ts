/**
 * The blocking safety checks measured on real skills (issue 14).
 *
 * Every skill of ../shared/corpus/real-skills is linted; every blocking finding (skill,
 * check, file, line) must be one the checked-in verdict list expects to block. A new false
 * alarm fails, and so does a lost true finding or a fixed false alarm that comes back. The
 * list says, for each finding, whether it is real (read by hand) and why.
 *
 * The corpus holds no real threat, so recall is also measured on it by planting: each real
 * skill gets one hostile spelling (rotating through every bypass class) in one kind of file
 * (SKILL.md, a script, a reference, a Dockerfile), and the check must find it there among
 * that skill's own text.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillDirs } from '../support/corpus';
import { corpusDir, requireOrSkip } from '../support/paths';
import { blockingKeys, lintTree, plantedMiss, readTree, verdictKey as key, verdicts } from '../support/safety-lint';

const realSkills = resolve(corpusDir, 'real-skills');
const haveCorpus = requireOrSkip('the real-skills corpus (../shared/corpus/real-skills)', existsSync(realSkills));

describe.skipIf(!haveCorpus)('safety verdicts on real skills (tests/corpus/safety-verdicts.json)', () => {
  const dirs = haveCorpus ? skillDirs(realSkills) : [];

  it('walks the whole corpus', () => {
    expect(dirs.length).toBeGreaterThanOrEqual(185);
  });

  it('every verdict has a reason, and names a file that exists', () => {
    for (const v of verdicts) {
      expect(v.why.length, key(v)).toBeGreaterThan(20);
      expect(existsSync(join(realSkills, v.skill, v.file)), key(v)).toBe(true);
    }
  });

  it('reports exactly the blocking findings the verdict list expects', () => {
    const found: string[] = [];
    for (const dir of dirs) {
      const skill = relative(realSkills, dir);
      found.push(...blockingKeys(skill, lintTree(readTree(dir, realSkills))));
    }
    const expected = verdicts.filter((v) => v.blocks).map(key);
    const unexplained = [...new Set(found)].filter((k) => !expected.includes(k));
    const lost = expected.filter((k) => !found.includes(k));
    expect(
      { unexplained, lost },
      'add each new finding to tests/corpus/safety-verdicts.json after reading the file',
    ).toEqual({ unexplained: [], lost: [] });
  });
});

describe.skipIf(!haveCorpus)('recall on real skills: a planted spelling of each bypass class is found', () => {
  const dirs = haveCorpus ? skillDirs(realSkills) : [];

  it('every planted line blocks with its check, in its file, whatever the skill around it says', () => {
    const missed: string[] = [];
    dirs.forEach((dir, i) => {
      const miss = plantedMiss(readTree(dir, realSkills), i, relative(realSkills, dir));
      if (miss) missed.push(miss);
    });
    expect(missed).toEqual([]);
  });
});

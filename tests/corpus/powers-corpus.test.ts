/**
 * Smoke check on the real-skills corpus: reading every skill's powers, for every agent
 * Skillsmith compiles for, never throws, and what is found is what the files say.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../shared/ksf/load';
import { nodePowers } from '../../shared/lock/powers';
import { TARGETS } from '../../shared/targets/registry';
import { readSkillTree } from '../../main/services/skills/reader';
import { skillDirs } from '../support/corpus';
import { corpusDir, requireOrSkip } from '../support/paths';

const realSkills = resolve(corpusDir, 'real-skills');
const haveCorpus = requireOrSkip('the real-skills corpus (../shared/corpus/real-skills)', existsSync(realSkills));

describe.skipIf(!haveCorpus)('powers of the real skills', () => {
  it('are read for all of them, in every target, without throwing', () => {
    const dirs = skillDirs(realSkills);
    expect(dirs.length).toBeGreaterThanOrEqual(185);
    let withPowers = 0;
    for (const dir of dirs) {
      const tree = readSkillTree(dir, relative(realSkills, dir));
      if (!tree.ok) throw new Error(`${dir}: ${tree.error.message}`);
      const skill = loadSkill(tree.value);
      if (!skill.ok) throw new Error(`${dir}: ${skill.error.message}`);
      const p = nodePowers(skill.value, TARGETS);
      expect(p.agents).toHaveLength(TARGETS.length);
      // Every power an agent acts on is one the skill's own files carry or compile lowers.
      for (const a of p.agents) for (const x of a.powers) expect(x.value, `${dir} ${a.target}`).not.toBe('');
      if (p.carried.length) withPowers++;
    }
    // Some real skills do carry tool grants or executables.
    expect(withPowers).toBeGreaterThan(0);
  });
});

/**
 * D127: the KSF name rule and the Agent Skills name rule, each defined once. The IPC schema
 * for a skill name must accept exactly the names install can produce — a name it refuses
 * would make an installed skill unreachable from the app, a name it accepts beyond those
 * widens the surface for nothing.
 */
import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../shared/ksf/load';
import { SkillName } from '../../shared/ipc/schemas';
import { AGENT_SKILLS_NAME_MAX, isAgentSkillsName, isKsfName } from '../../shared/names';
import { nameConventionCheck } from '../../shared/lint/rules/identity';
import { zedConstraints } from '../../shared/targets/zed';
import { loaded, manifestToml, manifested, tree } from './helpers';

/** Every name install can give a skill's folder from `candidate`, by each way it names one. */
function producedNames(candidate: string): string[] {
  const out: string[] = [];
  const toml = ['[skill]', `name = ${JSON.stringify(candidate)}`, 'version = "1.0.0"', 'description = "d"'];
  const viaManifest = loadSkill(tree('skills/x', { 'SKILL.md': 'Body', 'skill.toml': `${toml.join('\n')}\n` }));
  if (viaManifest.ok) out.push(viaManifest.value.manifest.skill.name);
  const md = `---\nname: ${candidate}\ndescription: d\n---\nBody\n`;
  const viaFrontmatter = loadSkill(tree('skills/fallback-name', { 'SKILL.md': md }));
  if (viaFrontmatter.ok) out.push(viaFrontmatter.value.manifest.skill.name);
  const viaFolder = loadSkill(tree('skills/x', { 'SKILL.md': 'Body' }), { nameHint: candidate });
  if (viaFolder.ok) out.push(viaFolder.value.manifest.skill.name);
  return out;
}

const installable = (candidate: string): boolean => producedNames(candidate).includes(candidate);

const EDGES: readonly string[] = [
  '',
  'a',
  'ab',
  '0day',
  '9',
  '-tidy',
  'tidy-',
  'tidy--x',
  'a-',
  'Tidy',
  'TIDY',
  'tidy_x',
  'tidy.x',
  'tidy x',
  'tïdy',
  'ｔidy',
  'tidy\u200b',
  'a/b',
  '../x',
  'x\0',
  'a'.repeat(40),
  'a'.repeat(41),
  'a'.repeat(42),
  'a'.repeat(64),
  'a'.repeat(65),
  'tidy-commits',
];

/**
 * A fixed pseudo-random walk, so the check is repeatable: names of the allowed characters
 * (so both sides of the rule are reached), a quarter of them with one foreign character.
 */
function* randomNames(count: number): Generator<string> {
  const allowed = 'abz09-';
  const foreign = 'A_.é/ ';
  let seed = 19;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  for (let i = 0; i < count; i++) {
    const len = next() % 70;
    let s = '';
    for (let j = 0; j < len; j++) s += allowed[next() % allowed.length];
    if (s && next() % 4 === 0) {
      const at = next() % s.length;
      s = s.slice(0, at) + foreign[next() % foreign.length] + s.slice(at + 1);
    }
    yield s;
  }
}

describe('the IPC skill name is exactly what install produces', () => {
  it.each(EDGES.map((n) => [n]))('%j', (name) => {
    expect(SkillName.safeParse(name).success).toBe(installable(name));
    expect(isKsfName(name)).toBe(installable(name));
  });

  it('agrees on 2,000 generated names', () => {
    const disagree = [...randomNames(2000)].filter((n) => SkillName.safeParse(n).success !== installable(n));
    expect(disagree).toEqual([]);
  });

  it('the generated names reach both sides', () => {
    const names = [...randomNames(2000)];
    expect(names.filter(installable).length).toBeGreaterThan(100);
    expect(names.filter((n) => !installable(n)).length).toBeGreaterThan(100);
  });

  it('a folder name is made into a KSF name, not taken as it is', () => {
    expect(producedNames('Tidy Commits')).toContain('tidy-commits');
    expect(producedNames('Tidy Commits')).not.toContain('Tidy Commits');
  });
});

describe('the Agent Skills rule', () => {
  it.each([
    ['tidy-commits', true],
    ['0day', true],
    ['a', true],
    ['a'.repeat(AGENT_SKILLS_NAME_MAX), true],
    ['a'.repeat(AGENT_SKILLS_NAME_MAX + 1), false],
    ['tidy--x', false],
    ['-tidy', false],
    ['tidy-', false],
    ['Tidy', false],
    ['tïdy', false],
    ['', false],
  ])('%j → %s', (name, ok) => {
    expect(isAgentSkillsName(name)).toBe(ok);
  });

  it('is what the name-convention lint and the Zed target apply to a KSF name', () => {
    for (const name of ['tidy-commits', 'tidy--x', 'tidy-', 'a1-b2']) {
      const skill = loaded(manifested('Body', {}, manifestToml({ name })));
      expect(nameConventionCheck(skill) === undefined, name).toBe(isAgentSkillsName(name));
      expect(
        zedConstraints(skill).some((v) => v.code === 'zed-name'),
        name,
      ).toBe(!isAgentSkillsName(name));
    }
  });
});

/**
 * The labeled skill sets of ../shared/corpus/labeled (Cisco skill-scanner evals, NVIDIA
 * SkillSpector fixtures): each skill is known-good or a positive of one class, read from
 * where it sits and from Cisco's `_expected.json`, never from what Skillsmith reports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import type { CheckId } from '../../shared/lint/types';
import { skillDirs } from './corpus';
import { corpusDir, repoRoot } from './paths';

export const labeledDir = resolve(corpusDir, 'labeled');

export interface LabeledSkill {
  readonly dir: string;
  /** Relative to labeledDir, with forward slashes. */
  readonly name: string;
  readonly good: boolean;
  /** The class key of labeled-scope.json; undefined for a known-good skill. */
  readonly cls?: string;
}

export interface ScopeClass {
  readonly checks: readonly CheckId[];
  readonly why: string;
}

export interface KnownMiss {
  readonly skill: string;
  readonly check: CheckId;
  readonly why: string;
}

export const scope = JSON.parse(readFileSync(resolve(repoRoot, 'tests/corpus/labeled-scope.json'), 'utf8')) as {
  classes: Record<string, ScopeClass>;
  knownMisses: KnownMiss[];
};

const NVIDIA_GOOD = /^(?:safe_skill|mcp_clean_skill|.*_clean)$/;

/** Cisco's own label: `_expected.json` when there is one, else the malicious/ or safe/ folder. */
function ciscoGood(dir: string, parts: readonly string[]): boolean {
  const expected = join(dir, '_expected.json');
  if (existsSync(expected)) {
    const e = JSON.parse(readFileSync(expected, 'utf8')) as { expected_safe?: boolean; is_malicious?: boolean };
    if (typeof e.expected_safe === 'boolean') return e.expected_safe;
    if (typeof e.is_malicious === 'boolean') return !e.is_malicious;
  }
  if (parts.includes('safe')) return true;
  if (parts.includes('malicious')) return false;
  throw new Error(`${dir}: no _expected.json and no malicious/ or safe/ folder to label it`);
}

function classify(dir: string): LabeledSkill {
  const name = relative(labeledDir, dir).split(sep).join('/');
  const parts = name.split('/');
  const skill = basename(dir);
  if (parts[0] === 'cisco-skill-scanner') {
    const good = ciscoGood(dir, parts);
    if (good) return { dir, name, good };
    // evals/skills/<category>/<skill>, or evals/test_skills/malicious/<skill> (one class each)
    const cls = parts[2] === 'skills' ? `cisco/${parts[3]}` : `cisco/test_skills/${skill}`;
    return { dir, name, good, cls };
  }
  if (parts[0] === 'nvidia-skillspector') {
    if (NVIDIA_GOOD.test(skill)) return { dir, name, good: true };
    const sub = parts.slice(3);
    return { dir, name, good: false, cls: `nvidia/${sub.length > 1 ? sub[0] : skill}` };
  }
  throw new Error(`${dir}: not in a known labeled set`);
}

export function labeledSkills(): LabeledSkill[] {
  return skillDirs(labeledDir).map(classify);
}

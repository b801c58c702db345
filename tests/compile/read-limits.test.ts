/**
 * Merged always-loaded files are bounded by their readers' limit (spec D221): AGENTS.md at
 * Codex's 32 KiB, CONVENTIONS.md at the 32 KiB Skillsmith chose for aider; the index form
 * keeps every skill when a skill folder serves AGENTS.md's readers.
 */
import { describe, expect, it } from 'vitest';
import { planCompile, type CompilePlan } from '../../shared/compile/plan';
import { parseProjectConfig, type ProjectConfig } from '../../shared/project/config';
import { compatibilityMatrix } from '../../shared/targets/matrix';
import { TARGETS } from '../../shared/targets/registry';
import type { Skill } from '../../shared/ksf/model';
import { bareSkill, memProject, utf8 } from './helpers';

function config(text: string): ProjectConfig {
  const r = parseProjectConfig(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** 150 skills of about 4 KB each: 600 KB merged, as the Claude-only project. */
const MANY: Skill[] = Array.from({ length: 150 }, (_, i) => {
  const name = `s-${String(i).padStart(3, '0')}`;
  const body = 'Follow the house style for this part of the code. '.repeat(80);
  return bareSkill(name, `---\nname: ${name}\ndescription: House style, part ${i}.\n---\n# Skill ${i}\n\n${body}\n`);
});

function plan(targets: string, files: Record<string, string> = {}): CompilePlan {
  return planCompile({
    skills: MANY,
    failures: [],
    config: config(`[project]\ntargets = [${targets}]\n`),
    project: memProject(files),
  });
}

const merged = (p: CompilePlan, path: string): string => {
  const f = p.merge.find((x) => x.path === path) ?? p.write.find((x) => x.path === path);
  if (!f) throw new Error(`${path} not planned`);
  return f.content as string;
};

describe('a merged file at its readers limit', () => {
  it('AGENTS.md keeps the sections that fit under 32 KiB and names the skills left out', () => {
    const p = plan('"agentsmd"');
    const text = merged(p, 'AGENTS.md');
    expect(utf8(text).length).toBeLessThanOrEqual(32 * 1024);
    expect(utf8(text).length).toBeGreaterThan(28 * 1024);
    const kept = [...text.matchAll(/## Skill: (s-\d{3})/g)].map((m) => m[1]);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(150);
    const w = p.warnings.find((x) => x.startsWith('AGENTS.md would be'));
    expect(w).toMatch(
      new RegExp(
        `^AGENTS\\.md would be \\d{6} bytes, over the 32768-byte limit .* — not written there: s-${String(kept.length).padStart(3, '0')}, .*\\(${150 - kept.length} in all\\)`,
      ),
    );
  });

  it('the user text in AGENTS.md counts toward the limit and is kept', () => {
    const mine = `# Team notes\n\n${'Keep it short. '.repeat(1000)}\n`;
    const p = plan('"agentsmd"', { 'AGENTS.md': mine });
    const text = merged(p, 'AGENTS.md');
    expect(text.startsWith('# Team notes')).toBe(true);
    expect(utf8(text).length).toBeLessThanOrEqual(32 * 1024);
  });

  it('CONVENTIONS.md for aider is bounded the same way', () => {
    const p = plan('"aider"');
    expect(utf8(merged(p, 'CONVENTIONS.md')).length).toBeLessThanOrEqual(32 * 1024);
    expect(p.warnings.find((x) => x.startsWith('CONVENTIONS.md would be'))).toMatch(
      /over the 32768-byte limit of its readers \(no documented aider limit; Skillsmith bounds it at 32 KiB/,
    );
  });

  it('with .agents/skills/ serving its readers, AGENTS.md is an index of every skill, under the limit', () => {
    const p = plan('"agents", "agentsmd"');
    const text = merged(p, 'AGENTS.md');
    expect([...text.matchAll(/^- \*\*s-\d{3}\*\* \(`\.agents\/skills\/s-\d{3}\/SKILL\.md`\)/gm)]).toHaveLength(150);
    expect(utf8(text).length).toBeLessThanOrEqual(32 * 1024);
    expect(p.warnings.filter((x) => x.startsWith('AGENTS.md'))).toEqual([]);
  });

  it('a file already at its bounded form is not rewritten', () => {
    const first = plan('"agentsmd"');
    const again = plan('"agentsmd"', { 'AGENTS.md': merged(first, 'AGENTS.md') });
    expect(again.merge.find((f) => f.path === 'AGENTS.md')?.changed).toBe(false);
    expect(first.merge.find((f) => f.path === 'AGENTS.md')?.changed).toBe(true);
  });

  it('the matrix marks each left-out skill unsupported with the size the file would reach', () => {
    const m = compatibilityMatrix(
      MANY,
      TARGETS.filter((t) => t.id === 'aider'),
      memProject(),
    );
    const left = m.cells.filter((c) => c.reasons.some((r) => r.code === 'always-loaded-budget'));
    expect(left.length).toBeGreaterThan(100);
    expect(left.every((c) => c.status === 'unsupported')).toBe(true);
    expect(left[0]!.reasons.find((r) => r.code === 'always-loaded-budget')!.message).toMatch(
      /^not written to CONVENTIONS\.md: with every skill it would be \d{6} bytes, over the 32768-byte limit/,
    );
    const kept = m.cells.filter((c) => !left.includes(c));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((c) => !c.reasons.some((r) => r.code === 'always-loaded-budget'))).toBe(true);
  });
});

/** Issue 13's rules, one by one, on in-memory skills and projects (pure planner and matrix). */
import { describe, expect, it } from 'vitest';
import { planCompile, type CompilePlan } from '../../shared/compile/plan';
import { memoryView } from '../../shared/compile/view';
import { loadSkill } from '../../shared/ksf/load';
import type { Skill } from '../../shared/ksf/model';
import { EMPTY_CONFIG } from '../../shared/project/config';
import { GENERATED_MARK, readDeliveryRecord, sourceFrontmatter } from '../../shared/targets/common';
import { listingReport, listingWarnings } from '../../shared/targets/listing';
import { standingCost } from '../../shared/targets/cost';
import { compatibilityMatrix } from '../../shared/targets/matrix';
import { prepareSkill } from '../../shared/targets/prepare';
import { TARGETS } from '../../shared/targets/registry';
import { parse } from 'yaml';
import { memProject, skill, tree, utf8 } from './helpers';

function bare(name: string, md: string, files: Record<string, string | Uint8Array> = {}): Skill {
  const r = loadSkill(tree(`.kitbash/skills/${name}`, { 'SKILL.md': md, ...files }));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function plan(skills: Skill[], files: Record<string, string> = {}): CompilePlan {
  return planCompile({ skills, config: EMPTY_CONFIG, project: memoryView(files) });
}
const content = (p: CompilePlan, path: string): string | Uint8Array => {
  const f = [...p.write, ...p.merge].find((x) => x.path === path);
  if (!f) throw new Error(`${path} not planned: ${[...p.write, ...p.merge].map((x) => x.path).join(', ')}`);
  return f.content;
};

const FM = `---
name: forms
description: >-
  Fill PDF forms.
  Use when a form is given.
license: Apache-2.0
allowed-tools: Read Bash(python:*)
disable-model-invocation: false
metadata:
  author: someone
  tags: [pdf, forms]
# a comment the author kept
argument-hint: "[file]"
---
`;
const BODY = '# Forms\n\nRead FORMS.md, then run `scripts/fill.py`. Braces {{ are }} literal here.\n';

describe('whole-folder delivery (D50)', () => {
  it('copies every file (binary too) beside SKILL.md with execute bits and a delivery record', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    const s = bare('forms', FM + BODY, {
      'FORMS.md': '# Forms ref\n',
      'scripts/fill.py': '#!/usr/bin/env python3\n',
      'assets/logo.png': png,
    });
    const exec = {
      ...s,
      tree: {
        ...s.tree,
        entries: s.tree.entries.map((e) =>
          e.kind === 'file' && e.path === 'scripts/fill.py' ? { ...e, executable: true } : e,
        ),
      },
    };
    const p = plan([exec], { '.claude/': '' });
    expect(content(p, '.claude/skills/forms/assets/logo.png')).toEqual(png);
    expect(p.write.find((f) => f.path === '.claude/skills/forms/scripts/fill.py')!.executable).toBe(true);
    expect(p.write.find((f) => f.path === '.claude/skills/forms/FORMS.md')!.executable).toBeUndefined();
    const record = content(p, '.claude/skills/forms/.skillsmith-delivered') as string;
    expect(record.split('\n')[0]).toContain(GENERATED_MARK);
    expect([...readDeliveryRecord(record, '').keys()]).toEqual(['FORMS.md', 'assets/logo.png', 'scripts/fill.py']);
  });

  it('prunes a delivered file that left the skill only while it holds the delivered bytes; the record goes with the skill', () => {
    const s = bare('forms', FM + BODY, { 'FORMS.md': 'A\n', 'OLD.md': 'old\n' });
    const first = plan([s], { '.claude/': '' });
    const disk: Record<string, string> = { '.claude/': '' };
    for (const f of first.write)
      disk[f.path] = typeof f.content === 'string' ? f.content : new TextDecoder().decode(f.content);
    const without = bare('forms', FM + BODY, { 'FORMS.md': 'A\n' });
    expect(plan([without], disk).prune.map((x) => x.path)).toEqual(['.claude/skills/forms/OLD.md']);
    expect(plan([without], { ...disk, '.claude/skills/forms/OLD.md': 'edited\n' }).prune).toEqual([]);
    expect(plan([], disk).prune.map((x) => x.path)).toEqual([
      '.claude/skills/forms/FORMS.md',
      '.claude/skills/forms/OLD.md',
      '.claude/skills/forms/.skillsmith-delivered',
      '.claude/skills/forms/SKILL.md',
    ]);
  });
});

describe('frontmatter fidelity (D51)', () => {
  it('a bare skill keeps its frontmatter block byte for byte, and its body verbatim', () => {
    const md = content(plan([bare('forms', FM + BODY)], { '.claude/': '' }), '.claude/skills/forms/SKILL.md') as string;
    expect(md.startsWith(FM)).toBe(true);
    expect(md.endsWith(`-->\n\n${BODY}`)).toBe(true);
  });

  it('a name that is not the folder name is set through the YAML document: other keys, styles and comments stay', () => {
    const s = bare('forms', FM.replace('name: forms', 'name: PDF Forms') + BODY);
    const p = prepareSkill(s);
    if (!p.ok) throw new Error(p.error.message);
    const fm = sourceFrontmatter(p.value);
    expect(fm).toContain('name: forms\n');
    expect(fm).toContain('description: >-\n');
    const inner = (t: string) => parse(t.replace(/^---\n/, '').replace(/---\n$/, '')) as Record<string, unknown>;
    expect(inner(fm)).toEqual({ ...inner(FM), name: 'forms' });
    expect(fm).toContain('# a comment the author kept');
    expect(fm).toContain('  tags: [ pdf, forms ]');
  });

  it('no frontmatter at all: name and description are written', () => {
    expect(content(plan([bare('plain', '# Plain\n')], { '.claude/': '' }), '.claude/skills/plain/SKILL.md')).toMatch(
      /^---\nname: plain\ndescription: "Imported skill \(no manifest\)"\n---\n/,
    );
  });
});

describe('disable-model-invocation', () => {
  const userOnly = bare(
    'deploy',
    '---\nname: deploy\ndescription: Deploy the app.\ndisable-model-invocation: true\n---\nDeploy.\n',
  );
  it('is never pasted into an always-loaded file; rule targets write a manual rule', () => {
    const p = plan([userOnly], { '.cursor/': '', '.windsurf/': '', 'CONVENTIONS.md': '# c\n' });
    expect([...p.write, ...p.merge].map((f) => f.path)).toEqual([
      '.cursor/rules/deploy.mdc',
      '.windsurf/rules/deploy.md',
    ]);
    expect(content(p, '.cursor/rules/deploy.mdc')).toMatch(/^---\nalwaysApply: false\n---\n/);
    expect(content(p, '.windsurf/rules/deploy.md')).toMatch(/^---\ntrigger: manual\n/);
    expect(p.notes).toContain(
      'deploy → agentsmd: disable-model-invocation is set — not pasted into AGENTS.md, which is always loaded',
    );
  });
  it('the matrix: unsupported on always-loaded targets, degraded where the agent ignores the key, full where it honours it', () => {
    const m = compatibilityMatrix([userOnly]);
    const cell = (id: string) => m.cells.find((c) => c.target === id)!;
    expect(cell('claude-code').status).toBe('full');
    expect(cell('agentsmd')).toMatchObject({ status: 'unsupported', reasons: [{ code: 'user-only-unsupported' }] });
    expect(cell('agents')).toMatchObject({ status: 'degraded', reasons: [{ code: 'user-only-unsupported' }] });
  });
});

describe('templates only where KSF applies (D52) and failures (D53)', () => {
  it('a bare skill with non-template braces compiles verbatim beside a manifested skill that fails', () => {
    const p = plan([bare('forms', FM + BODY), skill('broken', { body: 'x {{prompt.none}}\n' })], { '.claude/': '' });
    expect(p.errors).toEqual([]);
    expect(p.failures.map((f) => f.name)).toEqual(['broken']);
    expect(content(p, '.claude/skills/forms/SKILL.md')).toContain('Braces {{ are }} literal here.');
  });
});

describe('hand-written files (D54)', () => {
  it('a hand-written skill folder, rule file or a user file where a bundled file goes is left alone', () => {
    const s = bare('forms', FM + BODY, { 'FORMS.md': 'ours\n' });
    const p = plan([s], {
      '.claude/skills/forms/SKILL.md': '# mine\n',
      '.cursor/rules/forms.mdc': 'mine\n',
      '.agents/skills/forms/FORMS.md': 'user file\n',
    });
    expect(p.conflicts).toEqual([
      { skill: 'forms', path: '.claude/skills/forms', targets: ['claude-code'] },
      { skill: 'forms', path: '.cursor/rules/forms.mdc', targets: ['cursor'] },
      { skill: 'forms', path: '.agents/skills/forms', targets: ['agents'] },
    ]);
    expect(p.write.map((f) => f.path)).toEqual([]);
    expect(p.warnings.filter((w) => w.includes('was not written by Skillsmith')).length).toBe(3);
    const m = compatibilityMatrix([s], TARGETS, memProject({ '.claude/skills/forms/SKILL.md': '# mine\n' }));
    expect(m.cells.find((c) => c.target === 'claude-code')).toMatchObject({
      status: 'unsupported',
      reasons: [{ code: 'hand-written' }],
    });
  });
});

describe('always-loaded files stay small (D55)', () => {
  const lazy = bare('forms', FM + BODY);
  it('AGENTS.md carries an index line when .agents/skills serves the same agents; bodies otherwise', () => {
    const withFolder = content(plan([lazy], { '.agents/': '' }), 'AGENTS.md') as string;
    expect(withFolder).toBe(
      '<!-- kitbash:begin forms -->\n- **forms** (`.agents/skills/forms/SKILL.md`): Fill PDF forms. Use when a form is given.\n<!-- kitbash:end forms -->\n',
    );
    expect(content(plan([lazy], {}), 'AGENTS.md')).toContain('## Skill: forms');
  });
  it('a KSF skill with disclosure = "eager" keeps its body in AGENTS.md', () => {
    const s = skill('keeps', { body: '# Keeps\n\nWhole body.\n' });
    const eagerSkill = {
      ...s,
      manifest: { ...s.manifest, context: { ...s.manifest.context, disclosure: 'eager' as const } },
    };
    expect(content(plan([eagerSkill], { '.agents/': '' }), 'AGENTS.md')).toContain('Whole body.');
  });
  it('over the 32 KiB Codex limit: the sections that fit are written, the rest named, in compile and the matrix', () => {
    const big = Array.from({ length: 8 }, (_, i) =>
      bare(`big-${'abcdefgh'[i]}`, `---\nname: big-${'abcdefgh'[i]}\ndescription: d\n---\n${'x '.repeat(2500)}\n`),
    );
    const p = plan(big, {});
    expect(p.warnings.find((w) => w.startsWith('AGENTS.md '))).toMatch(
      /^AGENTS\.md would be \d+ bytes, over the 32768-byte limit of its readers \(Codex project_doc_max_bytes.*\) — not written there: big-g, big-h\./,
    );
    const agentsMd = content(p, 'AGENTS.md') as string;
    expect(utf8(agentsMd).length).toBeLessThanOrEqual(32768);
    expect(agentsMd).toContain('## Skill: big-f');
    expect(agentsMd).not.toContain('big-g');
    const m = compatibilityMatrix(
      big,
      TARGETS.filter((t) => t.id === 'agentsmd'),
      memProject(),
    );
    const left = m.cells.filter((c) => c.reasons.some((r) => r.code === 'always-loaded-budget'));
    expect(left.map((c) => [c.skill, c.status])).toEqual([
      ['big-g', 'unsupported'],
      ['big-h', 'unsupported'],
    ]);
    expect(left[0]!.reasons.find((r) => r.code === 'always-loaded-budget')!.message).toMatch(
      /^not written to AGENTS\.md: with every skill it would be \d{5} bytes, over the 32768-byte limit/,
    );
  });
});

describe('an honest matrix', () => {
  it('bundled files not delivered on rule-file targets; descriptions over each agent limit', () => {
    const long = 'word '.repeat(330).trim();
    const s = bare('forms', `---\nname: forms\ndescription: ${long}\n---\nSee FORMS.md.\n`, { 'FORMS.md': 'x\n' });
    const m = compatibilityMatrix([s], TARGETS, memProject());
    const codes = (id: string) => m.cells.find((c) => c.target === id)!.reasons.map((r) => r.code);
    expect(codes('cursor')).toContain('bundled-not-delivered');
    expect(codes('claude-code')).toEqual(['description-over-limit']);
    expect(codes('agents')).toContain('description-over-limit');
    expect(m.cells.find((c) => c.target === 'claude-code')!.reasons[0]!.message).toMatch(
      /^description is 1649 chars, over 1536/,
    );
    // Gemini CLI lists a description whole however long (measured: shared/targets/gemini.ts).
    expect(m.cells.filter((c) => c.status === 'full').map((c) => c.target)).toEqual(['gemini']);
    void utf8;
  });
});

describe('standing cost as compile writes it', () => {
  it('prices AGENTS.md as an index line when a skill folder serves its readers, as the body otherwise', () => {
    const body = `# long\n\n${'Step with many words in it. '.repeat(200)}\n`;
    const p = prepareSkill(bare('long', `---\nname: long\ndescription: A long skill.\n---\n${body}`));
    if (!p.ok) throw new Error(p.error.message);
    const agentsmd = TARGETS.find((t) => t.id === 'agentsmd')!;
    const alone = standingCost(p.value, agentsmd, memProject(), { active: [agentsmd] });
    const indexed = standingCost(p.value, agentsmd, memProject(), {
      active: TARGETS.filter((t) => t.id === 'agentsmd' || t.id === 'agents'),
    });
    expect(alone.tokens).toBeGreaterThan(1000);
    expect(indexed.tokens).toBeLessThan(100);
  });
});

describe('bundled files a rule-file agent misses', () => {
  const codes = (s: Skill, id: string) =>
    compatibilityMatrix([s], TARGETS, memProject())
      .cells.find((c) => c.target === id)!
      .reasons.map((r) => r.code);

  it("a KSF skill's prompts, evals and fixtures are not the agent's to read; its scripts are", () => {
    const authoring = {
      'prompts/p.md': 'inlined\n',
      'evals/a.eval.yaml': 'tier: static\n',
      'fixtures/repo/x.js': 'x\n',
    };
    expect(codes(skill('authoring', { files: authoring }), 'cursor')).not.toContain('bundled-not-delivered');
    expect(codes(skill('scripted', { files: { ...authoring, 'scripts/check.sh': 'true\n' } }), 'cursor')).toContain(
      'bundled-not-delivered',
    );
  });

  it('a bare skill has no such convention: every bundled file counts', () => {
    expect(
      codes(
        bare('bare-evals', '---\nname: bare-evals\ndescription: d\n---\nBody.\n', { 'evals/a.md': 'x\n' }),
        'cursor',
      ),
    ).toContain('bundled-not-delivered');
  });
});

describe('context budget per agent (listing)', () => {
  const many = Array.from({ length: 100 }, (_, i) =>
    bare(
      `s-${String(i).padStart(2, '0')}`,
      `---\nname: s-${String(i).padStart(2, '0')}\ndescription: ${'d'.repeat(i === 0 ? 1600 : 300)}\n---\nBody.\n`,
    ),
  );
  const ready = many.map((s) => {
    const p = prepareSkill(s);
    if (!p.ok) throw new Error(p.error.message);
    return p.value;
  });
  it('Claude Code cuts descriptions past 1,536 characters and names skills past its ~30,000-character listing without one', () => {
    const r = listingReport(
      ready,
      TARGETS.find((t) => t.id === 'claude-code')!,
    )!;
    expect(r.truncated).toEqual(['s-00']);
    expect(r.usedChars).toBeLessThanOrEqual(30_000);
    // 4,284 reserved + 100 name lines (700) + s-00's 1,538 leave room for 77 descriptions of 302.
    expect(r.dropped).toEqual([]);
    expect(r.nameOnly).toEqual(many.slice(78).map((s) => s.manifest.skill.name));
    expect(listingWarnings(r)[1]).toMatch(
      /^claude-code: 22 skills listed by name only at session start, past its ~30000-character budget: the model sees no description to choose them by — s-78, s-79/,
    );
  });
  it('compile warns per agent; a user-only skill is not in the listing where the agent honours the key; targets without a documented budget report nothing', () => {
    const p = plan(many, { '.claude/': '' });
    expect(p.warnings.filter((w) => w.startsWith('claude-code: '))).toHaveLength(2);
    const only = bare(
      'only',
      `---\nname: only\ndescription: ${'x'.repeat(9000)}\ndisable-model-invocation: true\n---\nB.\n`,
    );
    const po = prepareSkill(only);
    if (!po.ok) throw new Error(po.error.message);
    expect(
      listingReport(
        [po.value],
        TARGETS.find((t) => t.id === 'claude-code')!,
      )!.dropped,
    ).toEqual([]);
    expect(
      listingReport(
        ready,
        TARGETS.find((t) => t.id === 'cursor')!,
      ),
    ).toBeUndefined();
  });
});

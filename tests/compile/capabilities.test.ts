/**
 * Every capability a target claims is delivered by its emitter: the test emits a skill that
 * requires it and looks for the files that deliver it. Targets that do not claim it degrade.
 */
import { describe, expect, it } from 'vitest';
import { compatibilityMatrix } from '../../shared/targets/matrix';
import { prepareSkill, TARGETS, type PreparedSkill } from '../../shared/targets';
import { DELIVERY_RECORD, readDeliveryRecord, fingerprint } from '../../shared/targets/common';
import { bareSkill, memProject, skill, utf8 } from './helpers';

const script = '#!/bin/sh\necho delivered\n';
const scripted = skill('scripted', {
  extra: '[targets]\nrequires = ["scripts"]\n',
  files: { 'scripts/run.sh': script, 'scripts/lib/x.py': 'print(1)\n', 'prompts/p.md': 'not copied' },
});

function prep(): PreparedSkill {
  const p = prepareSkill(scripted);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
}

describe('capability delivery', () => {
  it('the claimed capability sets are exactly what the emitters deliver', () => {
    const claims = Object.fromEntries(TARGETS.map((t) => [t.id, [...t.capabilities]]));
    expect(claims).toEqual({
      'claude-code': ['scripts'],
      cursor: [],
      agents: ['scripts'],
      zed: ['scripts'],
      copilot: ['scripts'],
      cline: ['scripts'],
      windsurf: [],
      gemini: ['scripts'],
      aider: [],
      agentsmd: [],
      'agent-plugins': ['scripts'],
    });
  });

  for (const t of TARGETS) {
    it(`${t.id}: ${t.capabilities.includes('scripts') ? 'copies the skill folder beside SKILL.md, byte for byte, with a delivery record' : 'degrades "scripts" with a warning'}`, () => {
      const out = t.emit(prep(), memProject({ '.devin/': '' }));
      if (t.capabilities.includes('scripts')) {
        const md = out.files.find((f) => f.path.endsWith('/scripted/SKILL.md'))!;
        const dir = md.path.slice(0, -'SKILL.md'.length);
        const run = out.files.find((f) => f.path === `${dir}scripts/run.sh`);
        expect(run?.content).toEqual(utf8(script));
        expect(out.files.some((f) => f.path === `${dir}scripts/lib/x.py`)).toBe(true);
        expect(out.files.find((f) => f.path === `${dir}prompts/p.md`)?.content).toEqual(utf8('not copied'));
        expect(
          out.files.some((f) => f.path === `${dir}skill.toml`),
          'the manifest is lowered, not copied',
        ).toBe(false);
        const record = out.files.find((f) => f.path === `${dir}${DELIVERY_RECORD}`)!.content as string;
        expect(readDeliveryRecord(record, md.content as string).get('scripts/run.sh')).toBe(fingerprint(utf8(script)));
        expect([...readDeliveryRecord(record, md.content as string).keys()].sort()).toEqual([
          'prompts/p.md',
          'scripts/lib/x.py',
          'scripts/run.sh',
        ]);
        expect(out.warnings.filter((w) => w.includes('target lacks "scripts"'))).toEqual([]);
      } else {
        expect(out.files.some((f) => f.path.includes('scripts/'))).toBe(false);
        expect(out.warnings).toContain(
          `scripted → ${t.id}: target lacks "scripts"; compiled instruction-only (degraded)`,
        );
      }
    });
  }

  it('a skill folder arrives whole even when scripts are not required (D50); a skill with SKILL.md only gets no record', () => {
    const plain = skill('plain', { files: { 'scripts/run.sh': script } });
    const p = prepareSkill(plain);
    if (!p.ok) throw new Error(p.error.message);
    const out = TARGETS[0]!.emit(p.value, memProject());
    expect(out.files.map((f) => f.path)).toEqual([
      '.claude/skills/plain/SKILL.md',
      '.claude/skills/plain/scripts/run.sh',
      `.claude/skills/plain/${DELIVERY_RECORD}`,
    ]);
    const only = prepareSkill(skill('only'));
    if (!only.ok) throw new Error(only.error.message);
    expect(TARGETS[0]!.emit(only.value, memProject()).files.map((f) => f.path)).toEqual([
      '.claude/skills/only/SKILL.md',
    ]);
  });

  it('allowed-tools is lowered only where the field is documented (Claude Code, Copilot)', () => {
    const s = skill('tooled', { extra: '[permissions]\ntools = ["read", "frobnicate"]\n' });
    const p = prepareSkill(s);
    if (!p.ok) throw new Error(p.error.message);
    for (const t of TARGETS) {
      const md = t.emit(p.value, memProject()).files[0]!.content as string;
      const has = md.includes('\nallowed-tools: Read\n');
      expect(has, t.id).toBe(t.id === 'claude-code' || t.id === 'copilot');
    }
    const notes = TARGETS[0]!.emit(p.value, memProject()).notes;
    expect(notes).toContain(
      'tooled → claude-code: tool frobnicate has no Claude Code equivalent — kept in the prose permissions block only',
    );
  });
});

describe('compatibility matrix', () => {
  it('marks unsupported where the reference silently degrades: Zed drops an invalid name', () => {
    const m = compatibilityMatrix([skill('tidy--x')]);
    const zed = m.cells.find((c) => c.target === 'zed')!;
    expect(zed.status).toBe('unsupported');
    expect(zed.reasons[0]).toMatchObject({ code: 'zed-name' });
    expect(m.cells.find((c) => c.target === 'claude-code')!.status).toBe('full');
  });

  it('aider without "read:" ignores CONVENTIONS.md → unsupported; wired → degraded (eager)', () => {
    const s = skill('conv');
    expect(
      compatibilityMatrix(
        [s],
        TARGETS.filter((t) => t.id === 'aider'),
        memProject(),
      ).cells[0],
    ).toMatchObject({ status: 'unsupported', reasons: [{ code: 'aider-not-wired' }, { code: 'eager-only' }] });
    const wired = memProject({ '.aider.conf.yml': 'read: CONVENTIONS.md\n' });
    expect(
      compatibilityMatrix(
        [s],
        TARGETS.filter((t) => t.id === 'aider'),
        wired,
      ).cells[0],
    ).toMatchObject({ status: 'degraded', reasons: [{ code: 'eager-only' }] });
  });

  it('an empty description makes the cursor and windsurf rules inert → unsupported there only', () => {
    const s = bareSkill('quiet', '---\nname: quiet\ndescription: ""\n---\nBody.\n');
    const m = compatibilityMatrix([s]);
    const unsupported = m.cells.filter((c) => c.status === 'unsupported').map((c) => c.target);
    expect(unsupported).toEqual(['cursor', 'zed', 'windsurf', 'aider']);
    expect(m.cells.find((c) => c.target === 'cursor')!.reasons[0]!.code).toBe('empty-description');
  });

  it('a missing capability degrades; a delivered one does not; MCP without a surface degrades', () => {
    const s = skill('needs', {
      extra: '[targets]\nrequires = ["scripts", "subagents"]\n\n[mcp.servers.srv]\ncommand = "x"\ntools = ["t"]\n',
    });
    const m = compatibilityMatrix([s]);
    const cell = (id: string) => m.cells.find((c) => c.target === id)!;
    expect(cell('claude-code').reasons.map((r) => r.code)).toEqual(['missing-capability']);
    expect(cell('claude-code').reasons[0]!.message).toContain('"subagents"');
    expect(cell('cursor').reasons.map((r) => r.code)).toEqual(['missing-capability', 'missing-capability']);
    expect(cell('cline').reasons.map((r) => r.code)).toEqual(['missing-capability', 'mcp-no-surface']);
    expect(m.cells.every((c) => c.status !== 'full')).toBe(true);
  });
});

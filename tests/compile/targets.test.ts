import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  TARGETS,
  TARGET_IDS,
  detectTargets,
  resolveTargets,
  standingCost,
  standingTotals,
  prepareSkill,
  zedConstraints,
  lowerTools,
  type PreparedSkill,
} from '../../shared/targets';
import { sha256Hex } from '../../shared/lock/sha256';
import { utf8Length } from '../../shared/text/utf8';
import { memProject, skill, bareSkill, utf8 } from './helpers';

function prep(s: Parameters<typeof prepareSkill>[0]): PreparedSkill {
  const p = prepareSkill(s);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
}

describe('target registry', () => {
  it('lists the eleven targets in the reference emit order, each fully described', () => {
    expect(TARGETS.map((t) => t.id)).toEqual([...TARGET_IDS]);
    expect(TARGET_IDS).toEqual([
      'claude-code',
      'cursor',
      'agents',
      'zed',
      'copilot',
      'cline',
      'windsurf',
      'gemini',
      'aider',
      'agentsmd',
      'agent-plugins',
    ]);
    for (const t of TARGETS) {
      expect(t.agent.length, t.id).toBeGreaterThan(0);
      expect(t.outputs.length, t.id).toBeGreaterThan(0);
      expect(t.vendorDoc.url, t.id).toMatch(/^https:\/\//);
      expect(t.vendorDoc.checked, t.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('detects by markers; the AGENTS.md floor is always present', () => {
    expect(detectTargets(memProject()).map((t) => t.id)).toEqual(['agentsmd']);
    const p = memProject({
      '.claude/': '',
      '.codex/': '',
      'GEMINI.md': '',
      '.aider.conf.yml': 'x',
      '.clinerules/': '',
    });
    expect(detectTargets(p).map((t) => t.id)).toEqual([
      'claude-code',
      'agents',
      'cline',
      'gemini',
      'aider',
      'agentsmd',
    ]);
  });

  it('[project].targets bypasses detection, keeps emit order, and names unknown ids', () => {
    const r = resolveTargets(memProject(), ['agentsmd', 'zed']);
    expect(r.ok && r.value.targets.map((t) => t.id)).toEqual(['zed', 'agentsmd']);
    const bad = resolveTargets(memProject(), ['zed', 'vim']);
    expect(bad).toEqual({
      ok: false,
      error: {
        code: 'invalid-input',
        message: expect.stringContaining('unknown target(s) in kitbash.toml: vim (known: claude-code, cursor,'),
      },
    });
  });
});

describe('standing cost', () => {
  const s = prep(skill('cost-demo', { description: 'Sixteen chars!!!' }));

  it('lazy targets keep only the description resident', () => {
    const c = standingCost(s, 'claude-code');
    expect(c).toMatchObject({ loading: 'lazy', basis: 'description', tokens: 4 });
    expect(c.loadedTokens).toBeGreaterThan(c.tokens);
  });

  it('eager targets pay the whole emitted section, with the eager note', () => {
    const c = standingCost(s, 'agentsmd');
    const section = TARGETS.find((t) => t.id === 'agentsmd')!.emit(s, memProject()).files[0]!.content as string;
    expect(c).toMatchObject({ loading: 'eager', basis: 'emitted', tokens: Math.ceil(section.length / 4) });
    expect(c.notes[0]).toBe(
      `cost-demo → agentsmd: agentsmd is eager and cannot lazy-load, so this skill adds ~${c.tokens} tokens standing every session (a lazy target pays 0; declared limit 100)`,
    );
  });

  it('aider carries the wiring note unless .aider.conf.yml reads CONVENTIONS.md', () => {
    expect(
      standingCost(s, 'aider').notes.some((n) =>
        n.startsWith('aider: CONVENTIONS.md is written, but aider does not read it'),
      ),
    ).toBe(true);
    const wired = memProject({ '.aider.conf.yml': 'read: CONVENTIONS.md\n' });
    expect(standingCost(s, 'aider', wired).notes.some((n) => n.startsWith('aider:'))).toBe(false);
  });

  it('totals per target sum the skills', () => {
    const t = prep(skill('other', { description: 'abcdefghijkl' }));
    const totals = standingTotals([s, t], ['claude-code', 'agentsmd']);
    expect(totals[0]).toEqual({ target: 'claude-code', loading: 'lazy', tokens: 4 + 3, skills: 2 });
    expect(totals[1]!.tokens).toBe(standingCost(s, 'agentsmd').tokens + standingCost(t, 'agentsmd').tokens);
  });
});

describe('constraints and lowering', () => {
  it("Zed's name rule and byte limit", () => {
    expect(zedConstraints(skill('tidy--commits')).map((v) => v.code)).toEqual(['zed-name']);
    const long = bareSkill('wide', `---\nname: wide\ndescription: ${'é'.repeat(600)}\n---\nbody\n`);
    expect(zedConstraints(long)[0]!.message).toBe(
      "wide → zed: description is 1200 bytes, over Zed's 1024-byte limit (the limit is bytes, not characters); Zed drops the skill at load with no diagnostic",
    );
    expect(zedConstraints(bareSkill('empty-d', `---\nname: empty-d\ndescription: "  "\n---\nbody\n`))[0]!.code).toBe(
      'zed-description-empty',
    );
  });

  it('lowers KSF tools to the Claude Code tool syntax', () => {
    expect(lowerTools(['read', 'grep', 'bash:git diff *', 'bash', 'frobnicate', 'read:x'])).toEqual({
      lowered: ['Read', 'Grep', 'Bash(git diff *)', 'Bash'],
      unlowered: ['frobnicate', 'read:x'],
    });
  });

  it('sha256 matches node:crypto', () => {
    for (const text of ['', 'abc', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é'.repeat(1000)]) {
      expect(sha256Hex(utf8(text))).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });
});

describe('utf8Length', () => {
  it('is the number of bytes UTF-8 encodes, for every kind of code unit and where the runs outside ASCII meet', () => {
    const cases = [
      '',
      'plain ascii\n',
      'é',
      '€ — ©',
      '𝄞',
      '\ud800',
      '\udc00',
      'a\ud800b',
      '\udc00\ud800',
      'x\ud83d',
      '\ude00x',
      '\ud83d\ude00\ud83d',
      'mixed 𝄞 runs € and é\ud83d then ascii',
    ];
    for (const s of cases) expect(utf8Length(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
    // Every code unit class, in random order, many times over (seeded, so a failure repeats).
    const units = [0x41, 0x0a, 0x7f, 0x80, 0x7ff, 0x800, 0x2014, 0xd83d, 0xde00, 0xdbff, 0xdc00, 0xfffd, 0xffff];
    let seed = 12345;
    for (let round = 0; round < 200; round++) {
      let s = '';
      for (let i = 0; i < 64; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        s += String.fromCharCode(units[seed % units.length]!);
      }
      expect(utf8Length(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
    }
  });
});

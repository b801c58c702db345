/**
 * The cost chart at project sizes where one segment per skill is a barcode: the costliest
 * skills per target, the rest as one "others" segment that keeps the total, and a colour
 * per skill that depends on its name only.
 */
import { describe, expect, it } from 'vitest';
import type { SkillCost } from '../../shared/ipc/channels/reports';
import { chartRows, legendSkills, othersCount, skillColor, TOP_SKILLS } from '../../renderer/src/views/costs/chart';

const skill = (name: string, perTarget: Record<string, number | null>): SkillCost => ({
  skill: name,
  disclosure: 'lazy',
  perTarget,
  loadedPerTarget: perTarget,
});

/** 300 skills: lazy costs 1…300 in name order, eager ones in the reverse order. */
const many = Array.from({ length: 300 }, (_, i) =>
  skill(`s-${String(i).padStart(3, '0')}`, { lazy: i + 1, eager: (300 - i) * 10, none: 0 }),
);

describe('chartRows', () => {
  it('draws the costliest skills of each target and groups the rest, keeping the total', () => {
    const [lazy, eager, none] = chartRows(many, ['lazy', 'eager', 'none']);
    expect(lazy!.segments.map((s) => s.skill)).toEqual(
      Array.from({ length: TOP_SKILLS }, (_, i) => `s-${String(299 - i)}`),
    );
    expect(eager!.segments[0]).toEqual({ skill: 's-000', tokens: 3000 });
    for (const r of [lazy!, eager!]) {
      expect(r.segments).toHaveLength(TOP_SKILLS);
      expect(r.others.count).toBe(300 - TOP_SKILLS);
      expect(r.segments.reduce((n, s) => n + s.tokens, 0) + r.others.tokens).toBe(r.total);
    }
    expect(lazy!.total).toBe((300 * 301) / 2);
    // A target no skill costs anything on has no segment at all.
    expect(none).toEqual({ target: 'none', total: 0, segments: [], others: { count: 0, tokens: 0 } });
  });

  it('draws the skill being looked at on its own, even when it is small', () => {
    const [lazy] = chartRows(many, ['lazy'], { pin: 's-005' });
    expect(lazy!.segments.map((s) => s.skill)).toContain('s-005');
    expect(lazy!.segments).toHaveLength(TOP_SKILLS + 1);
    expect(lazy!.others.count).toBe(300 - TOP_SKILLS - 1);
  });

  it('counts a skill that does not compile as nothing, and breaks ties by name', () => {
    const rows = chartRows([skill('b', { t: 5 }), skill('a', { t: 5 }), skill('c', { t: null })], ['t']);
    expect(rows[0]!.segments.map((s) => s.skill)).toEqual(['a', 'b']);
    expect(rows[0]!.total).toBe(10);
  });

  it('lists in the legend each skill drawn anywhere, costliest first, and counts the others', () => {
    const rows = chartRows(many, ['lazy', 'eager']);
    const legend = legendSkills(rows);
    expect(legend).toHaveLength(2 * TOP_SKILLS);
    expect(legend[0]).toBe('s-000');
    expect(othersCount(many, rows)).toBe(300 - 2 * TOP_SKILLS);
  });
});

describe('skillColor', () => {
  it('depends on the name only: the same in any project and install order', () => {
    const names = many.map((s) => s.skill);
    const first = new Map(names.map((n) => [n, skillColor(n)]));
    for (const n of [...names].reverse()) expect(skillColor(n)).toBe(first.get(n));
    expect(skillColor('prereview')).toBe(skillColor('prereview'));
    expect(skillColor('prereview')).toMatch(/^hsl\(\d+ \d+% \d+%\)$/);
  });

  it('spreads names over many colours', () => {
    const distinct = new Set(many.map((s) => skillColor(s.skill)));
    expect(distinct.size).toBeGreaterThan(200);
  });
});

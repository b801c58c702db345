/**
 * The Costs and Matrix views' figures come from main (the dashboard's worker): they must be
 * the figures shared/ gives for the project on disk — computed here afresh from the skills
 * as `skillsmith compile` loads them, and checked against what compile plans — and what
 * the CLI's `matrix` / `explain` print; a hub answers each once per state of the files.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostsReport, MatrixReport } from '../../shared/ipc/channels/reports';
import type { Skill } from '../../shared/ksf/model';
import { standingCost } from '../../shared/targets/cost';
import { listingReport } from '../../shared/targets/listing';
import { compatibilityMatrix, matrixCell, notDelivered } from '../../shared/targets/matrix';
import { prepareSkill } from '../../shared/targets/prepare';
import { resolveTargets, TARGETS } from '../../shared/targets/registry';
import type { PreparedSkill } from '../../shared/targets/types';
import { diskProject, loadInstalled, planProject } from '../../main/services/compile';
import { ProjectHub } from '../../main/services/dashboard/hub';
import { costsOf, explainOf, loadProject, matrixOf } from '../../main/services/dashboard/report';
import { scratch, until, type Scratch } from './helpers';

const ACTIVE = ['claude-code', 'cursor', 'agentsmd'] as const;

/** The project as compile reads it, with shared/'s answers for each skill, by name. */
function fromShared(root: string) {
  const view = diskProject(root);
  const sel = resolveTargets(view, [...ACTIVE]);
  if (!sel.ok) throw new Error(sel.error.message);
  const context = { active: sel.value.targets };
  const installed = loadInstalled(root);
  const skills = [...installed.skills].sort((a: Skill, b: Skill) =>
    a.manifest.skill.name < b.manifest.skill.name ? -1 : 1,
  );
  const prepared = skills.flatMap((s): PreparedSkill[] => {
    const p = prepareSkill(s);
    return p.ok ? [p.value] : [];
  });
  // Compile does not deliver the example's dependency-audit (its curl | sh blocks): no agent pays for it.
  const withheld = installed.withheld;
  const delivered = prepared.filter((p) => !withheld.some((w) => w.name === p.name));
  return { view, context, skills, prepared, delivered, withheld };
}

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

describe('the reports', () => {
  it('price every skill on every target as shared/ prices it, and add up to what compile plans', () => {
    const report = costsOf(loadProject(s.project));
    expect(CostsReport.safeParse(report).success).toBe(true);
    const { view, context, skills, prepared, delivered, withheld } = fromShared(s.project);
    expect(withheld.map((w) => w.name)).toEqual(['dependency-audit']);
    expect(report.skills.map((r) => r.skill)).toEqual([
      'api-style',
      'dependency-audit',
      'prereview',
      'release-notes',
      'tidy-commits',
    ]);
    expect(report.skills.map((r) => r.skill)).toEqual(skills.map((x) => x.manifest.skill.name));
    for (const p of prepared) {
      const row = report.skills.find((r) => r.skill === p.name)!;
      expect(row.disclosure).toBe(p.skill.manifest.context.disclosure);
      if (p.name === 'dependency-audit') {
        expect(row.error).toMatch(/^not delivered: fails a blocking check: remote-exec/);
        expect(Object.values(row.perTarget).every((v) => v === null)).toBe(true);
        continue;
      }
      for (const t of TARGETS) {
        const c = standingCost(p, t, view, context);
        expect([row.perTarget[t.id], row.loadedPerTarget[t.id]], `${p.name} on ${t.id}`).toEqual([
          c.tokens,
          c.loadedTokens,
        ]);
      }
    }
    expect(report.listings).toEqual(
      JSON.parse(JSON.stringify(TARGETS.flatMap((t) => listingReport(delivered, t) ?? []))),
    );
    expect(report.active).toEqual({ targets: [...ACTIVE], explicit: true });
    // Each active target's column adds up to the standing tokens compile's plan counts for it.
    const plan = planProject(s.project);
    for (const st of plan.standing)
      expect(
        report.skills.reduce((n, r) => n + (r.perTarget[st.target] ?? 0), 0),
        st.target,
      ).toBe(st.tokens);
    // Eager AGENTS.md pays the whole text; lazy Claude Code the description.
    const pre = report.skills.find((r) => r.skill === 'prereview')!;
    expect(pre.perTarget.agentsmd!).toBeGreaterThan(pre.perTarget['claude-code']! * 5);
  });

  it('grade the matrix as `skillsmith matrix` does, and explain a cell as shared/ grades and prices it', () => {
    const p = loadProject(s.project);
    const m = matrixOf(p);
    expect(MatrixReport.safeParse(m).success).toBe(true);
    const { view, context, skills, withheld } = fromShared(s.project);
    const cli = compatibilityMatrix(skills, TARGETS, view, context.active, withheld);
    expect(m.cells).toEqual(JSON.parse(JSON.stringify(cli.cells)));
    expect(m.targets).toEqual(TARGETS.map((t) => t.id));
    expect(m.dirs).toMatchObject({ prereview: 'prereview', 'tidy-commits': 'tidy-commits' });

    const x = explainOf(p, 'dependency-audit', 'cursor')!;
    const skill = skills.find((k) => k.manifest.skill.name === 'dependency-audit')!;
    const prepared = prepareSkill(skill);
    if (!prepared.ok) throw new Error(prepared.error.message);
    const cursor = TARGETS.find((t) => t.id === 'cursor')!;
    const cost = standingCost(prepared.value, cursor, view);
    // Not delivered (a blocking finding): unsupported, that reason first, the cell's own grading after it.
    expect(x.cell).toEqual(
      JSON.parse(JSON.stringify(notDelivered(matrixCell(skill, prepared.value, cursor, view), withheld[0]!))),
    );
    expect(x.cell.status).toBe('unsupported');
    expect(x.cell.reasons[0]!.code).toBe('not-delivered');
    expect(x.cell.status).toBe(m.cells.find((c) => c.skill === 'dependency-audit' && c.target === 'cursor')!.status);
    expect([x.standingTokens, x.loadedTokens, x.notes]).toEqual([cost.tokens, cost.loadedTokens, cost.notes]);
    expect(x.target).toMatchObject({ id: 'cursor', agent: cursor.agent, loading: 'lazy' });
    expect(explainOf(p, 'no-such-skill', 'cursor')).toBeNull();
  });

  it('say why there are no active targets when kitbash.toml is broken, and still price the skills', () => {
    writeFileSync(join(s.project, 'kitbash.toml'), '[project\n');
    const r = costsOf(loadProject(s.project));
    expect(r.active.targets).toEqual([]);
    expect(r.active.error).toMatch(/kitbash\.toml/);
    expect(r.skills).toHaveLength(5);
  });
});

describe('the hub answers each report once per state of the files', () => {
  it('keeps the answer until a change, then computes it again', async () => {
    const hub = new ProjectHub(undefined, 40);
    let changes = 0;
    const h = hub.acquire(s.project, () => changes++);
    try {
      const first = h.costs();
      expect(h.costs()).toBe(first);
      const m = await h.matrix();
      expect(m.skills).toContain('tidy-commits');
      appendFileSync(join(s.project, '.kitbash/skills/tidy-commits/SKILL.md'), '\nOne more line of guidance.\n');
      await until(() => changes > 0);
      const again = h.costs();
      expect(again).not.toBe(first);
      const before = (await first).skills.find((x) => x.skill === 'tidy-commits')!;
      const after = (await again).skills.find((x) => x.skill === 'tidy-commits')!;
      expect(after.loadedPerTarget.agentsmd!).toBeGreaterThan(before.loadedPerTarget.agentsmd!);
      expect((await h.explain('tidy-commits', 'agentsmd'))!.loadedTokens).toBe(after.loadedPerTarget.agentsmd);
    } finally {
      h.release();
      hub.closeAll();
    }
  });
});

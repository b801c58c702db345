/**
 * The Costs and Matrix views' figures come from main (the dashboard's worker), not from the
 * renderer's copy of every file: they must be the figures the renderer computes from a
 * compile snapshot and the CLI's `matrix` / `explain` print, and a hub answers each once
 * per state of the files.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostsReport, MatrixReport } from '../../shared/ipc/channels/reports';
import { compatibilityMatrix } from '../../shared/targets/matrix';
import { resolveTargets, TARGETS } from '../../shared/targets/registry';
import { diskProject, loadInstalled } from '../../main/services/compile';
import { compileSnapshot } from '../../main/services/compile/snapshot';
import { ProjectHub } from '../../main/services/dashboard/hub';
import { costsOf, explainOf, loadProject, matrixOf } from '../../main/services/dashboard/report';
import { explainCell, snapshotCosts, snapshotListings } from '../../renderer/src/views/previews/live';
import { scratch, until, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

describe('the reports', () => {
  it('price every skill on every target exactly as the renderer does from a snapshot', () => {
    const report = costsOf(loadProject(s.project));
    expect(CostsReport.safeParse(report).success).toBe(true);
    const snap = compileSnapshot(s.project);
    const live = snapshotCosts(snap);
    expect(report.skills).toEqual(JSON.parse(JSON.stringify(live.skills)));
    expect(report.listings).toEqual(JSON.parse(JSON.stringify(snapshotListings(snap))));
    expect(report.active).toEqual({ targets: ['claude-code', 'cursor', 'agentsmd'], explicit: true });
    expect(report.skills.map((r) => r.skill)).toEqual([
      'api-style',
      'dependency-audit',
      'prereview',
      'release-notes',
      'tidy-commits',
    ]);
    // Eager AGENTS.md pays the whole text; lazy Claude Code the description.
    const pre = report.skills.find((r) => r.skill === 'prereview')!;
    expect(pre.perTarget.agentsmd!).toBeGreaterThan(pre.perTarget['claude-code']! * 5);
  });

  it('grade the matrix as `skillsmith matrix` does, and explain a cell as the renderer did', () => {
    const p = loadProject(s.project);
    const m = matrixOf(p);
    expect(MatrixReport.safeParse(m).success).toBe(true);
    const config = diskProject(s.project);
    const sel = resolveTargets(config, ['claude-code', 'cursor', 'agentsmd']);
    const cli = compatibilityMatrix(loadInstalled(s.project).skills, TARGETS, config, sel.ok ? sel.value.targets : []);
    expect(m.cells).toEqual(JSON.parse(JSON.stringify(cli.cells)));
    expect(m.targets).toEqual(TARGETS.map((t) => t.id));
    expect(m.dirs).toMatchObject({ prereview: 'prereview', 'tidy-commits': 'tidy-commits' });

    const x = explainOf(p, 'dependency-audit', 'cursor')!;
    const before = explainCell(compileSnapshot(s.project), 'dependency-audit', 'cursor')!;
    expect(x.cell).toEqual(JSON.parse(JSON.stringify(before.cell)));
    expect([x.standingTokens, x.loadedTokens, x.notes]).toEqual([
      before.standingTokens,
      before.loadedTokens,
      before.notes,
    ]);
    expect(x.target).toMatchObject({ id: 'cursor', agent: before.target.agent, loading: 'lazy' });
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

import type { CostsReport, Explanation, MatrixReport } from '../../../shared/ipc/channels/reports';
import type { Skill } from '../../../shared/ksf/model';
import { EMPTY_CONFIG, enforceInAgent } from '../../../shared/project/config';
import { enforcementCells } from '../../../shared/targets/enforcement';
import { formatError } from '../../../shared/result';
import { standingCost } from '../../../shared/targets/cost';
import { emitOnce } from '../../../shared/targets/emit-once';
import { listingReport } from '../../../shared/targets/listing';
import { alwaysLoadedLeftOut, compatibilityMatrix, matrixCell, notDelivered } from '../../../shared/targets/matrix';
import { prepareSkill } from '../../../shared/targets/prepare';
import { resolveTargets, TARGETS, targetById } from '../../../shared/targets/registry';
import type { PreparedSkill, TargetDef } from '../../../shared/targets/types';
import { diskProject, loadInstalled } from '../compile';
import { lockPins } from '../compile/load';
import { openDeliveryChecks } from '../compile/checks-cache';
import type { PreviewProject } from '../previews/live';
import { readProjectConfig } from '../project/config';

/**
 * A project as the reports and the live previews read it: every installed skill loaded, the
 * config, the files view, the active targets.
 */
export interface LoadedProject extends PreviewProject {
  readonly active: CostsReport['active'];
  readonly activeDefs: readonly TargetDef[];
}

export function loadProject(root: string): LoadedProject {
  const read = readProjectConfig(root);
  const config = read.ok ? read.value : EMPTY_CONFIG;
  const { skills, failures, withheld } = loadInstalled(root, undefined, undefined, config, openDeliveryChecks());
  const pins = lockPins(root);
  const view = diskProject(root);
  const sel = resolveTargets(view, config.targets);
  const bySkill = [...skills].sort((a, b) => (a.manifest.skill.name < b.manifest.skill.name ? -1 : 1));
  if (!read.ok)
    return {
      skills: bySkill,
      failures,
      config,
      configError: formatError(read.error),
      view,
      active: { targets: [], explicit: false, error: formatError(read.error) },
      activeDefs: [],
      withheld,
      pins,
    };
  return {
    skills: bySkill,
    failures,
    config,
    view,
    active: sel.ok
      ? { targets: sel.value.targets.map((t) => t.id), explicit: sel.value.explicit }
      : { targets: [], explicit: false, error: sel.error.message },
    activeDefs: sel.ok ? sel.value.targets : [],
    withheld,
    pins,
  };
}

/** Standing and loaded tokens per skill per target, priced as compile writes for the active targets. */
export function costsOf(p: LoadedProject): CostsReport {
  const context = { active: p.activeDefs };
  const emit = emitOnce(p.view, context);
  const ready: PreparedSkill[] = [];
  const held = new Map(p.withheld.map((w) => [w.name, w]));
  const skills = p.skills.map((s) => {
    const prepared = prepareSkill(s);
    // A skill compile does not deliver costs no agent anything: priced like one that does not compile.
    const w = held.get(s.manifest.skill.name);
    const error = w ? `not delivered: ${w.message}` : prepared.ok ? undefined : prepared.error.message;
    const perTarget: Record<string, number | null> = {};
    const loadedPerTarget: Record<string, number | null> = {};
    if (prepared.ok && !w) ready.push(prepared.value);
    for (const t of TARGETS) {
      const c = prepared.ok && !w ? standingCost(prepared.value, t, p.view, context, emit) : null;
      perTarget[t.id] = c ? c.tokens : null;
      loadedPerTarget[t.id] = c ? c.loadedTokens : null;
    }
    const row: CostsReport['skills'][number] = {
      skill: s.manifest.skill.name,
      disclosure: s.manifest.context.disclosure,
      perTarget,
      loadedPerTarget,
      ...(error === undefined ? {} : { error }),
    };
    return row;
  });
  // Priced as compile writes: a skill a bounded always-loaded file has no room for is not in it.
  for (const t of TARGETS) {
    const left = alwaysLoadedLeftOut(t, ready, p.view, context, emit);
    for (const row of skills) {
      const why = left.get(row.skill);
      if (!why) continue;
      row.perTarget[t.id] = 0;
      row.notWritten = { ...row.notWritten, [t.id]: why.map((r) => r.message).join('; ') };
    }
  }
  const listings = TARGETS.flatMap((t) => listingReport(ready, t) ?? []).map((r) => ({
    ...r,
    truncated: [...r.truncated],
    dropped: [...r.dropped],
    nameOnly: [...r.nameOnly],
  }));
  return { skills, failures: [...p.failures], listings, active: p.active };
}

/** The compatibility matrix, graded with the active targets as compile would write them. */
export function matrixOf(p: LoadedProject): MatrixReport {
  const m = compatibilityMatrix(p.skills, TARGETS, p.view, p.activeDefs, p.withheld);
  const dirs: Record<string, string> = {};
  for (const s of p.skills) dirs[s.manifest.skill.name] = folderOf(s);
  return {
    skills: [...m.skills],
    targets: [...m.targets],
    cells: m.cells.map((c) => ({ ...c, reasons: c.reasons.map((r) => ({ code: r.code, message: r.message })) })),
    failures: [...p.failures],
    dirs,
    active: p.active,
    enforcement: enforcementCells(TARGETS, enforceInAgent(p.config)),
  };
}

/** One cell, as `skillsmith explain <skill> <target>` reports it; null when there is no such skill or target. */
export function explainOf(p: LoadedProject, skillName: string, targetId: string): Explanation | null {
  const t = targetById(targetId);
  const skill = p.skills.find((s) => s.manifest.skill.name === skillName);
  if (!t || !skill) return null;
  const prepared = prepareSkill(skill);
  const graded = matrixCell(skill, prepared.ok ? prepared.value : undefined, t, p.view, {
    why: prepared.ok ? undefined : prepared.error.message,
  });
  const held = p.withheld.find((w) => w.name === skillName);
  const cell = held ? notDelivered(graded, held) : graded;
  const cost = prepared.ok ? standingCost(prepared.value, t, p.view) : undefined;
  return {
    cell: { ...cell, reasons: cell.reasons.map((r) => ({ code: r.code, message: r.message })) },
    target: {
      id: t.id,
      agent: t.agent,
      loading: t.loading,
      outputs: [...t.outputs],
      capabilities: [...t.capabilities],
      vendorDoc: { title: t.vendorDoc.title, checked: t.vendorDoc.checked },
    },
    requires: [...skill.manifest.targets.requires],
    disclosure: skill.manifest.context.disclosure,
    standingTokens: cost?.tokens ?? null,
    loadedTokens: cost?.loadedTokens ?? null,
    notes: [...(cost?.notes ?? [])],
  };
}

/** The folder a loaded skill was read from (`.kitbash/skills/<dir>`). */
function folderOf(s: Skill): string {
  return s.tree.root.split('/').pop() ?? s.manifest.skill.name;
}

import type { ReviewView } from '../../../shared/ipc/channels/install';
import { planCompile, type FailedSkill } from '../../../shared/compile/plan';
import type { Skill } from '../../../shared/ksf/model';
import { lintSkill } from '../../../shared/lint/checks';
import type { Location } from '../../../shared/lint/types';
import type { InstallReview } from '../../../shared/lock/review';
import { loadedOf } from '../skills/installed';
import { planChange } from '../workspace/recompile';
import { compileSummary } from './stage-review';
import type { StagedInstall } from './stage';

/**
 * The install dialog's view of a review: the service's object field for field, plus the
 * finding locations from the staged copy and the standing cost per target before and after.
 */

/** Locations of each failing or warning check, by check id, from the staged copy. */
function locationsOf(skill: Skill | undefined): Map<string, Location[]> {
  const out = new Map<string, Location[]>();
  if (!skill) return out;
  for (const c of lintSkill(skill))
    if (c.status !== 'pass' && c.locations?.length)
      out.set(
        c.id,
        c.locations.map((l) => ({ ...l })),
      );
  return out;
}

/**
 * Standing tokens per session per target, with the project as it is and with the staged
 * skills installed. "After" is the review's compile plan. For an install, "before" is
 * derived from it by taking out what the incoming skills add — each skill's share of a
 * target's standing cost depends on that skill alone, and a plan the installed skills
 * alone would refuse is refused with the new ones too — so the rest of the project is not
 * planned a second time. An update plans "before" in full (the old version may be what
 * made the project's plan refuse).
 */
export async function standingDelta(staged: StagedInstall | undefined): Promise<ReviewView['standing']> {
  const planned = staged?.planned;
  if (!planned) return [];
  const plan = (skills: readonly Skill[], failures: FailedSkill[] = []) =>
    planned.view.settle((project) => planCompile({ skills, failures, config: planned.config, project }).standing);
  try {
    let before: Map<string, number>;
    if (planned.replaced.length) {
      const kept = planned.folders.filter((f) => !planned.put.has(f.name));
      const { skills, failures } = loadedOf([...kept, ...planned.replaced].sort((a, b) => (a.name < b.name ? -1 : 1)));
      before = new Map((await plan(skills, failures)).map((t) => [t.target, t.tokens]));
    } else {
      before = new Map(planned.plan.standing.map((t) => [t.target, t.tokens]));
      for (const f of planned.folders) {
        if (!planned.put.has(f.name) || !('skill' in f.outcome)) continue;
        for (const t of await plan([f.outcome.skill])) before.set(t.target, (before.get(t.target) ?? 0) - t.tokens);
      }
    }
    return planned.plan.standing.map((a) => ({
      target: a.target,
      loading: a.loading,
      before: before.get(a.target) ?? 0,
      after: a.tokens,
    }));
  } catch {
    return [];
  }
}

/** The review as the dialog gets it: the service's object field for field, plus locations and standing per target. */
export function toView(
  id: string,
  review: InstallReview,
  staged: StagedInstall | undefined,
  standing: ReviewView['standing'],
  diffs?: ReviewView['diffs'],
): ReviewView {
  const skills = new Map((staged?.nodes ?? []).map((n) => [n.name, n]));
  return {
    id,
    kind: review.kind,
    root: review.root,
    source: { ...review.source },
    nodes: review.nodes.map(({ scanners, ...n }) => {
      const node = skills.get(n.name);
      const locs = locationsOf(node?.stagedDir !== undefined ? node.skill : undefined);
      const finding = (f: (typeof n.lint)[number]) => ({ ...f, locations: locs.get(f.id) ?? [] });
      return {
        ...n,
        source: { ...n.source },
        manifest: {
          ...n.manifest,
          commands: [...n.manifest.commands],
          events: [...n.manifest.events],
          produces: [...n.manifest.produces],
          consumes: [...n.manifest.consumes],
          scripts: [...n.manifest.scripts],
          mcpServers: n.manifest.mcpServers.map((s) => ({ ...s, tools: [...s.tools] })),
        },
        permissions: n.permissions.map((p) => ({
          ...p,
          ...(p.enforcement ? { enforcement: { ...p.enforcement } } : {}),
        })),
        requires: [...n.requires],
        lint: n.lint.map(finding),
        safety: n.safety.map(finding),
        accepted: n.accepted.map((a) => ({ ...a })),
        verdict: { ...n.verdict },
        policy: [...n.policy],
        dependencies: n.dependencies.map((d) => ({ ...d })),
        consumes: n.consumes.map((c) => ({ ...c })),
        files: [...n.files],
        powers: {
          carried: n.powers.carried.map((x) => ({ ...x })),
          agents: n.powers.agents.map((a) => ({ ...a, powers: a.powers.map((x) => ({ ...x })) })),
          ...(n.powers.note !== undefined ? { note: n.powers.note } : {}),
        },
        ...(scanners ? { scanners: scanners.map((f) => ({ ...f })) } : {}),
      };
    }),
    writes: [...review.writes],
    blockers: [...review.blockers],
    notices: [...review.notices],
    ...(review.changes ? { changes: review.changes.map((c) => ({ ...c })) } : {}),
    ...(review.fileChanges ? { fileChanges: review.fileChanges.map((c) => ({ ...c })) } : {}),
    ...(diffs ? { diffs } : {}),
    ...(review.compile
      ? {
          compile: {
            writes: [...review.compile.writes],
            prunes: [...review.compile.prunes],
            errors: [...review.compile.errors],
          },
        }
      : {}),
    agents: (review.agents ?? []).map((a) => ({ ...a })),
    ...(review.scanners ? { scanners: review.scanners.map((r) => ({ ...r })) } : {}),
    standing,
    integrity: review.integrity,
  };
}

/** The compile plan once the installed folders `names` are gone. */
export async function compileWithout(
  project: string,
  names: readonly string[],
): Promise<{ writes: string[]; prunes: string[]; errors: string[] }> {
  try {
    const c = compileSummary((await planChange(project, { remove: names })).plan);
    return { writes: [...c.writes], prunes: [...c.prunes], errors: [...c.errors] };
  } catch (e) {
    return { writes: [], prunes: [], errors: [(e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim()] };
  }
}

import type { ReviewView } from '../../../shared/ipc/channels/install';
import { planCompile } from '../../../shared/compile/plan';
import type { Skill } from '../../../shared/ksf/model';
import { lintSkill } from '../../../shared/lint/checks';
import type { Location } from '../../../shared/lint/types';
import type { InstallReview } from '../../../shared/lock/review';
import { diskProject, loadInstalled } from '../compile';
import { projectConfigOrThrow, type StagedInstall } from './stage';

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

/** Standing tokens per session per target, with the project as it is and with `incoming` installed. */
function standingDelta(project: string, incoming: readonly Skill[]): ReviewView['standing'] {
  try {
    const config = projectConfigOrThrow(project);
    const { skills, failures } = loadInstalled(project);
    const view = diskProject(project);
    const names = new Set(incoming.map((s) => s.manifest.skill.name));
    const before = planCompile({ skills, failures, config, project: view }).standing;
    const after = planCompile({
      skills: [...skills.filter((s) => !names.has(s.manifest.skill.name)), ...incoming],
      failures,
      config,
      project: view,
    }).standing;
    return after.map((a) => ({
      target: a.target,
      loading: a.loading,
      before: before.find((b) => b.target === a.target)?.tokens ?? 0,
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
  project: string,
  diffs?: ReviewView['diffs'],
): ReviewView {
  const skills = new Map((staged?.nodes ?? []).map((n) => [n.name, n]));
  const incoming = (staged?.nodes ?? []).filter((n) => n.stagedDir !== undefined).map((n) => n.skill);
  return {
    id,
    kind: review.kind,
    root: review.root,
    source: { ...review.source },
    nodes: review.nodes.map((n) => {
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
    standing: standingDelta(project, incoming),
    integrity: review.integrity,
  };
}

/** The compile plan once `names` are gone. */
export function compileWithout(
  project: string,
  names: readonly string[],
): { writes: string[]; prunes: string[]; errors: string[] } {
  try {
    const config = projectConfigOrThrow(project);
    const { skills, failures } = loadInstalled(project);
    const plan = planCompile({
      skills: skills.filter((s) => !names.includes(s.manifest.skill.name)),
      failures,
      config,
      project: diskProject(project),
    });
    return {
      writes: [...plan.write, ...plan.merge].filter((f) => f.changed).map((f) => f.path),
      prunes: plan.prune.map((p) => p.path),
      errors: [...plan.errors],
    };
  } catch (e) {
    return { writes: [], prunes: [], errors: [(e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim()] };
  }
}

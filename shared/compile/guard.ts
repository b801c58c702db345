/**
 * The compile step that keeps each agent's script guard (SPEC D200) in step with what is
 * delivered: the hook is merged into the agent's settings while a delivered skill there
 * carries files besides its SKILL.md, and taken out again when the last one goes or the
 * project turns `[policy] enforce_in_agent` off. A guard that cannot be written stops the
 * compile: delivering scripts the review says are held, without the hook, would make that
 * claim false.
 */
import { DELIVERY_RECORD, fingerprint } from '../targets/common';
import { TARGETS } from '../targets/registry';
import type { ProjectFiles, TargetDef } from '../targets/types';
import type { PlannedPrune } from './prune';

export interface GuardPlan {
  readonly merge: readonly { readonly path: string; readonly content: string }[];
  readonly prune: readonly PlannedPrune[];
  readonly errors: readonly string[];
  readonly notes: readonly string[];
}

/**
 * Skill names under `skillDir` with a planned file besides SKILL.md and the delivery record.
 * Any bundled file, not only scripts/: an agent can run a file of any name with an
 * interpreter, and the review's "held" must not depend on how a file is named.
 */
export function guardedSkills(skillDir: string, planned: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const p of planned) {
    if (!p.startsWith(`${skillDir}/`)) continue;
    const [name, ...rest] = p.slice(skillDir.length + 1).split('/');
    const file = rest.join('/');
    if (name && file && file !== 'SKILL.md' && file !== DELIVERY_RECORD) out.add(name);
  }
  return [...out].sort();
}

export function planScriptGuards(
  active: readonly TargetDef[],
  planned: Iterable<string>,
  project: ProjectFiles,
  enabled: boolean,
): GuardPlan {
  const paths = [...planned];
  const merge: { path: string; content: string }[] = [];
  const prune: PlannedPrune[] = [];
  const errors: string[] = [];
  const notes: string[] = [];
  for (const t of TARGETS) {
    const g = t.scriptGuard;
    if (!g || !t.skillDir) continue;
    const guarded = enabled && active.includes(t) ? guardedSkills(t.skillDir, paths) : [];
    const current = project.read(g.settings);
    const r = g.merge(current, guarded);
    if ('error' in r) {
      if (guarded.length)
        errors.push(
          `${t.id}: ${r.error} — Skillsmith cannot add the hook that holds the scripts of ${guarded.join(', ')} to their declared permissions in ${t.agent}. Nothing was written: fix the file, or set [policy] enforce_in_agent = false to deliver the scripts unguarded.`,
        );
      continue;
    }
    if (!guarded.length && !r.had) continue;
    if (r.content !== undefined) {
      if (guarded.length) {
        merge.push({ path: g.settings, content: r.content });
        notes.push(
          `${t.id}: ${g.settings} holds Skillsmith's script guard — ${t.agent} runs the scripts of ${guarded.join(', ')} only through skillsmith run, in the sandbox with their declared permissions`,
        );
      } else if (r.content !== current)
        prune.push({
          path: g.settings,
          action: 'rewrite',
          content: r.content,
          reason: 'script guard no longer needed',
        });
    } else if (current !== undefined) {
      const bytes = project.readBytes?.(g.settings);
      if (bytes)
        prune.push({
          path: g.settings,
          action: 'delete',
          reason: 'script guard no longer needed',
          fingerprint: fingerprint(bytes),
        });
    }
  }
  return { merge, prune, errors, notes };
}

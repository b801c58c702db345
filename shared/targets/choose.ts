/**
 * Choosing a project's targets at set-up (`init`, the app's set-up, `import --write`): the
 * agents whose markers are here are proposed, each choice is priced for the skills at hand,
 * and the choice is written into `[project].targets` — never left to the AGENTS.md floor.
 */
import { fail, ok, type Result } from '../result';
import { standingCost } from './cost';
import { TARGETS, isTargetId } from './registry';
import type { Loading, PreparedSkill, ProjectFiles, TargetId } from './types';
import { TARGET_IDS } from './types';

/** One target offered at set-up, with what it would cost every session. */
export interface TargetChoice {
  readonly id: TargetId;
  readonly agent: string;
  readonly loading: Loading;
  /** A marker of this agent is in the folder. */
  readonly detected: boolean;
  /** Σ standing tokens per session of the skills at hand on this target. */
  readonly tokens: number;
}

/**
 * Targets whose agent left a marker here. The floor (no markers: detected everywhere) is not
 * evidence of an agent, so it is never proposed on its own account.
 */
export function detectedAgents(project: ProjectFiles): TargetId[] {
  return TARGETS.filter((t) => t.markers.length > 0 && t.detect(project)).map((t) => t.id);
}

/** Every target, in emit order, priced for `skills` (each the whole set, as compile would write it). */
export function targetChoices(skills: readonly PreparedSkill[], project: ProjectFiles): TargetChoice[] {
  const detected = new Set(detectedAgents(project));
  return TARGETS.map((t) => {
    const context = { active: [t] };
    let tokens = 0;
    for (const s of skills) tokens += standingCost(s, t, project, context).tokens;
    return { id: t.id, agent: t.agent, loading: t.loading, detected: detected.has(t.id), tokens };
  });
}

/** `a,b` from `--targets` (or the app's picker): known ids, in emit order, at least one. */
export function parseTargetList(text: string, flag = '--targets'): Result<TargetId[]> {
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !isTargetId(id));
  if (unknown.length)
    return fail('invalid-request', `${flag}: unknown target ${unknown.join(', ')} (known: ${TARGET_IDS.join(', ')})`);
  if (!ids.length)
    return fail('invalid-request', `${flag}: name at least one target (known: ${TARGET_IDS.join(', ')})`);
  return ok(TARGET_IDS.filter((id) => ids.includes(id)));
}

/** The one line refusing a set-up with no choice and no agent detected (the CLI prefixes the verb). */
export function noChoiceMessage(): string {
  return `no agent detected here (no .claude/, .cursor/, CONVENTIONS.md, …) — choose with --targets <a,b> (choices: ${TARGET_IDS.join(', ')})`;
}

const TARGETS_LINE = /^# targets = \[.*\]$/m;

/** The set-up template with `[project].targets` set (the commented example line replaced). */
export function templateWithTargets(template: string, targets: readonly TargetId[]): string {
  const line = `targets = [${targets.map((t) => JSON.stringify(t)).join(', ')}]`;
  if (!TARGETS_LINE.test(template)) throw new Error('set-up template has no targets line');
  return template.replace(TARGETS_LINE, line);
}

/** The choices as aligned text lines (CLI): id, per-session tokens, loading, whether detected. */
export function choiceLines(choices: readonly TargetChoice[], skillCount: number): string[] {
  const width = Math.max(...choices.map((c) => c.id.length));
  const what = skillCount === 1 ? 'the 1 skill here' : `the ${skillCount} skills here`;
  return [
    skillCount
      ? `standing cost per session of ${what}, per target:`
      : "targets (no skills here yet: an eager target charges each skill's whole body every session, a lazy one its description):",
    ...choices.map(
      (c) =>
        `  ${c.id.padEnd(width)}  ${skillCount ? `~${c.tokens} tok  ` : ''}${c.loading === 'eager' ? 'eager: every body, every session' : 'lazy: descriptions only'}${c.detected ? '  (detected)' : ''}`,
    ),
  ];
}

/**
 * Where a skill's declared permissions hold when the agent, not Skillsmith, runs its scripts
 * (SPEC D200): one cell per permission and agent. "enforced" only where the agent runs the
 * script through a hook Skillsmith installs and a real-agent test proves it
 * (tests/agents/claude-guard.test.ts); everywhere else the declaration is advisory, and the
 * cell says why.
 */
import type { TargetDef, TargetId } from './types';

export const HELD_PERMISSIONS = ['network', 'write', 'outside reads', 'tools'] as const;
export type HeldPermission = (typeof HELD_PERMISSIONS)[number];

export interface EnforcementCell {
  readonly target: TargetId;
  readonly permission: HeldPermission;
  readonly status: 'enforced' | 'advisory';
  readonly why: string;
}

/** The words a cell's status is shown with, everywhere. */
export const HELD_LABEL = { enforced: 'enforced in the agent', advisory: 'advisory' } as const;

const TOOLS_WHY = "a skill's tool list pre-approves tools at most; no agent restricts a skill to the tools it declares";

/** `enabled`: the project's `[policy] enforce_in_agent`. */
export function enforcementCells(targets: readonly TargetDef[], enabled: boolean): EnforcementCell[] {
  const out: EnforcementCell[] = [];
  for (const t of targets) {
    for (const permission of HELD_PERMISSIONS) {
      const cell = (status: EnforcementCell['status'], why: string): EnforcementCell => ({
        target: t.id,
        permission,
        status,
        why,
      });
      if (permission === 'tools') out.push(cell('advisory', TOOLS_WHY));
      else if (t.scriptGuard && enabled)
        out.push(
          cell(
            'enforced',
            `its runs of a delivered script go through skillsmith run, by a hook in ${t.scriptGuard.settings}; a script copied elsewhere or fed to an interpreter as text is not caught`,
          ),
        );
      else if (t.scriptGuard)
        out.push(
          cell('advisory', `[policy] enforce_in_agent = false: ${t.agent} runs the scripts with its own rights`),
        );
      else
        out.push(
          cell(
            'advisory',
            `${t.guardAbsence ?? `${t.agent} offers no hook before its shell commands`}; it runs the scripts with its own rights`,
          ),
        );
    }
  }
  return out;
}

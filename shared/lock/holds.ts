/**
 * What each declared (or undeclared) permission means where the skill will actually run:
 * in Skillsmith's own runner on this machine, and in each coding agent the project
 * compiles for. The runner can hold a script to "no network" with an OS sandbox; an agent
 * receives only what compile lowers into its format (tool lists), and everything else is
 * text the agent may or may not follow with its own rights. The review says so instead of
 * showing the runner's ENFORCED badges as if they travelled with the skill.
 */
import { lowerTools } from '../targets/common';
import type { PermissionEntry } from './review';
import { carriesGrants, isGrant, powerLabel, type NodePowers } from './powers';

/** An active compile target as the review needs it. */
export interface ReviewAgent {
  readonly target: string;
  readonly agent: string;
  /**
   * How compile writes `[permissions].tools` into the agent's own allowed-tools (TargetDef.nativeTools); `prose`: it
   * does not.
   */
  readonly tools: 'comma' | 'space' | 'prose';
  /** True when compile adds this agent's script guard (SPEC D200): its runs of the scripts go through the sandbox. */
  readonly guard?: boolean;
}

export interface AgentHold {
  readonly target: string;
  readonly agent: string;
  /**
   * `native`: the agent receives it in its own format; `held`: the agent's runs of the scripts
   * go through the sandbox (script guard); `advisory`: it is text, the agent's own rights apply.
   */
  readonly hold: 'native' | 'held' | 'advisory';
  readonly text: string;
}

export interface PermissionHold {
  readonly permission: string;
  readonly declared: boolean;
  /** Skillsmith's runner on this machine, one line. */
  readonly runner: string;
  readonly agents: readonly AgentHold[];
}

function runnerText(p: PermissionEntry): string {
  const label = p.enforcement?.label;
  const how =
    label === 'enforced'
      ? 'enforced on this machine'
      : label === 'advisory'
        ? 'advisory on this machine — the sandbox cannot hold it here'
        : 'not probed on this machine';
  if (p.permission === 'network')
    return p.declared
      ? 'allowed: its scripts may reach the network when Skillsmith runs them'
      : `no network for its scripts (${how})`;
  if (p.permission === 'write')
    return p.declared
      ? 'allowed: its scripts may write the project when Skillsmith runs them'
      : `project read-only for its scripts (${how})`;
  return "advisory: Skillsmith's runner runs scripts; it does not mediate an agent's tools";
}

function agentHold(p: PermissionEntry, a: ReviewAgent, powers?: NodePowers): AgentHold {
  const base = { target: a.target, agent: a.agent };
  if (p.permission.startsWith('tool:')) {
    const tool = p.permission.slice(5);
    if (p.declaredIn !== undefined) {
      // A bare skill's frontmatter is delivered as written where the format keeps it; what
      // compile wrote for this agent decides (shared/lock/powers.ts).
      const row = powers?.agents
        .find((x) => x.target === a.target)
        ?.powers.find((x) => x.kind === 'allowed-tools' && x.value === tool);
      if (row?.status === 'acts')
        return {
          ...base,
          hold: 'native',
          text: 'compile delivers the SKILL.md allowed-tools as written; the agent pre-approves the tool, and its own permission settings still apply',
        };
      return {
        ...base,
        hold: 'advisory',
        text:
          row?.status === 'inert'
            ? "compile writes the SKILL.md allowed-tools into its files, but the agent is not documented to act on it; the agent's own rights apply"
            : "compile does not write the SKILL.md allowed-tools for this agent; the agent's own rights apply",
      };
    }
    const lowered = lowerTools([tool]).lowered;
    if (a.tools !== 'prose' && lowered.length === 1 && !(a.tools === 'space' && /\s/.test(lowered[0]!))) {
      return {
        ...base,
        hold: 'native',
        text: "compile writes it into the agent's allowed-tools; the agent applies it, and its own permission settings still apply",
      };
    }
    return { ...base, hold: 'advisory', text: "only text in the compiled skill; the agent's own rights apply" };
  }
  const what = p.permission === 'network' ? 'network access' : 'file writes';
  if (a.guard)
    return {
      ...base,
      hold: 'held',
      text: p.declared
        ? `its runs of the scripts go through Skillsmith's sandbox, which allows the declared ${what}; its own tools keep the agent's rights`
        : `its runs of the scripts go through Skillsmith's sandbox (no ${what}), by a hook compile adds; its own tools, and a script it copies elsewhere or feeds to an interpreter as text, keep the agent's rights`,
    };
  return {
    ...base,
    hold: 'advisory',
    text: p.declared
      ? `not restricted by the skill: the agent has whatever ${what} it has`
      : `not enforced: compile cannot pass "no ${what}" to the agent; the skill's instructions and scripts run with the agent's own rights`,
  };
}

/** Every permission row of a node, with where it holds. */
export function permissionHolds(
  permissions: readonly PermissionEntry[],
  agents: readonly ReviewAgent[],
  powers?: NodePowers,
): PermissionHold[] {
  return permissions.map((p) => ({
    permission: p.permission,
    declared: p.declared,
    runner: runnerText(p),
    agents: agents.map((a) => agentHold(p, a, powers)),
  }));
}

/** The agents of one permission grouped by identical hold, in first-seen order: `[["Claude Code", "Cursor"], hold]`. */
export function groupedHolds(h: PermissionHold): { agents: string[]; hold: AgentHold['hold']; text: string }[] {
  const out: { agents: string[]; hold: AgentHold['hold']; text: string }[] = [];
  for (const a of h.agents) {
    const g = out.find((x) => x.hold === a.hold && x.text === a.text);
    if (g) g.agents.push(a.agent);
    else out.push({ agents: [a.agent], hold: a.hold, text: a.text });
  }
  return out;
}

/**
 * True when the skill asks for nothing: no tools, no network, no write, and no hook or tool
 * grant that an agent acts on once compiled. Not a safety rating.
 */
export function declaresNothing(permissions: readonly PermissionEntry[], powers?: NodePowers): boolean {
  return permissions.every((p) => !p.declared) && !carriesGrants(powers);
}

/** One sentence for the headline: what the permissions mean, never "safe". */
export function permissionSummary(
  permissions: readonly PermissionEntry[],
  agents: readonly ReviewAgent[],
  powers?: NodePowers,
): string {
  const guarded = [...new Set(agents.filter((a) => a.guard).map((a) => a.agent))];
  const names = [...new Set(agents.filter((a) => !a.guard).map((a) => a.agent))];
  const where = names.length ? `in ${names.join(', ')}` : guarded.length ? '' : 'in any coding agent';
  // Where a hook routes the agent's runs of the scripts through the sandbox, only the instructions keep its rights.
  const inGuarded = guarded.length
    ? ` In ${guarded.join(', ')}, its scripts run through the same sandbox when the agent runs them (a hook compile adds); its instructions keep the agent's own rights.`
    : '';
  const runner = (id: string) => permissions.find((p) => p.permission === id)?.enforcement?.label;
  const grants = (powers?.carried ?? []).filter((x) => isGrant(x.kind));
  if (grants.length > 0) {
    const kinds = [...new Set(grants.map((x) => powerLabel(x.kind)))].join(', ');
    // Only the agents that act on one of them; with no target active, any agent that would.
    const acting = (powers?.agents ?? [])
      .filter((a) => a.powers.some((x) => x.status === 'acts' && isGrant(x.kind)))
      .map((a) => a.agent);
    const in_ = acting.length
      ? `in ${acting.join(', ')}`
      : agents.length
        ? 'no active agent acts on them yet, but'
        : 'once compiled,';
    return `It carries hooks or tool grants (${kinds}): ${in_} the agent runs or grants them itself, outside Skillsmith's runner — read each power below.`;
  }
  if (declaresNothing(permissions)) {
    const held =
      runner('network') === 'enforced' && runner('write') === 'enforced'
        ? 'holds its scripts to no network and a read-only project on this machine'
        : 'cannot hold its scripts to no network and a read-only project on this machine';
    const rest = where ? `, but ${where} its instructions and scripts run with the agent's own rights.` : '.';
    return `It declares no permissions. That is not a safety rating: Skillsmith's runner ${held}${rest}${inGuarded}`;
  }
  const asked = permissions.filter((p) => p.declared).map((p) => p.permission.replace(/^tool:/, 'tool '));
  const rest = where
    ? `; ${where} only tool lists can be passed natively — network and write are the agent's own rights.`
    : '.';
  return `It declares: ${asked.join(', ')}. Skillsmith's runner grants network and write only when declared${rest}${inGuarded}`;
}

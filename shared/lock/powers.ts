/**
 * Everything a skill, once compiled, can make each coding agent do: the hooks it runs, the
 * tools it pre-approves or removes, the settings that change how it runs the skill, the
 * commands it runs when the skill loads, MCP servers and the executables it receives. Read
 * from what compile really writes for each agent (the target's own emit), not from the
 * source: a format that drops a key does not deliver that power, and a manifested skill's
 * lowered `allowed-tools` is delivered though its SKILL.md never spelled it.
 */
import type { Skill } from '../ksf/model';
import { POWER_KEYS, skillPowers, type PowerKey, type SkillPowers } from '../ksf/powers';
import { prepareSkill } from '../targets/prepare';
import { TARGETS } from '../targets/registry';
import type { PreparedSkill, ProjectFiles, TargetDef } from '../targets/types';
import type { FieldChange } from './changes';
import { escapeTerminal } from '../terminal/escape';

export type PowerKind = PowerKey | 'dynamic-context' | 'mcp-server' | 'executable';

/** Review order of the kinds. */
export const POWER_KINDS: readonly PowerKind[] = [...POWER_KEYS, 'dynamic-context', 'mcp-server', 'executable'];

/** One power, named exactly: a hook's event, matcher and command; one tool; one setting; one command; one file. */
export interface Power {
  readonly kind: PowerKind;
  readonly value: string;
}

/**
 * `acts`: delivered, and the agent is documented to act on it; `inert`: written into what the
 * agent reads, which it is not documented to act on; `dropped`: compile does not deliver it.
 */
export type PowerStatus = 'acts' | 'inert' | 'dropped';

export interface AgentPower extends Power {
  readonly status: PowerStatus;
}

export interface AgentPowers {
  readonly target: string;
  readonly agent: string;
  readonly powers: readonly AgentPower[];
}

export interface NodePowers {
  /** What some agent acts on once compiled, over every target Skillsmith knows (what an update is compared by). */
  readonly carried: readonly Power[];
  /** Per active compile target. */
  readonly agents: readonly AgentPowers[];
  /** Why nothing could be derived from compile (a template error): then `carried` is read from the source. */
  readonly note?: string;
}

/** Hooks and tool grants: adding one asks for more (an update that does is an escalation). */
export function isGrant(kind: PowerKind): boolean {
  return kind === 'hooks' || kind === 'allowed-tools' || kind === 'dynamic-context' || kind === 'executable';
}

/** The review's one-line text of a hook. */
function hookText(h: SkillPowers['hooks'][number]): string {
  return `${h.event}${h.matcher !== undefined ? ` [${h.matcher}]` : ''}${h.type === 'command' ? '' : ` (${h.type})`}: ${h.command}`;
}

/** The powers a delivered text names, in review order. */
export function powersOf(p: SkillPowers): Power[] {
  const out: Power[] = [];
  for (const h of p.hooks) out.push({ kind: 'hooks', value: hookText(h) });
  for (const t of p.allowedTools) out.push({ kind: 'allowed-tools', value: t });
  for (const t of p.disallowedTools) out.push({ kind: 'disallowed-tools', value: t });
  for (const s of p.settings) out.push({ kind: s.key, value: s.value });
  for (const d of p.dynamicContext) out.push({ kind: 'dynamic-context', value: d.command });
  return out;
}

const EMPTY: ProjectFiles = { rootName: 'project', exists: () => false, read: () => undefined, list: () => [] };

const keyOf = (p: Power) => `${p.kind}\0${p.value}`;

function acts(def: TargetDef, kind: PowerKind): boolean {
  if (kind === 'dynamic-context') return def.actsOn?.dynamicContext === true;
  if (kind === 'mcp-server' || kind === 'executable') return true;
  return (def.actsOn?.keys as readonly string[] | undefined)?.includes(kind) === true;
}

/** What one target's compile of the skill delivers, and what of the source it leaves out. */
function deliveredBy(def: TargetDef, prepared: PreparedSkill, source: readonly Power[]): AgentPower[] {
  const { skill } = prepared;
  const files = def.emit(prepared, EMPTY, { active: [def] }).files;
  // The file the agent reads as the skill comes first; bundled files are delivered beside it.
  const main = files.find((f) => !f.bundled && typeof f.content === 'string');
  const delivered = main ? powersOf(skillPowers(main.content as string)) : [];
  for (const s of skill.manifest.mcp.servers)
    if (def.mcp && 'path' in def.mcp)
      delivered.push({
        kind: 'mcp-server',
        value: `${s.name}: ${s.transport === 'stdio' ? [s.command ?? '', ...s.args].join(' ').trim() : (s.url ?? '')}`,
      });
  const prefix = main ? main.path.replace(/[^/]*$/, '') : '';
  for (const f of files)
    if (f.bundled && (f.executable === true || f.path.startsWith(`${prefix}scripts/`)))
      delivered.push({ kind: 'executable', value: f.path.slice(prefix.length) });
  const seen = new Set(delivered.map(keyOf));
  return [
    ...delivered.map((p) => ({ ...p, status: acts(def, p.kind) ? ('acts' as const) : ('inert' as const) })),
    ...source.filter((p) => !seen.has(keyOf(p))).map((p) => ({ ...p, status: 'dropped' as const })),
  ].sort((a, b) => POWER_KINDS.indexOf(a.kind) - POWER_KINDS.indexOf(b.kind));
}

/** The powers of the skill as written: its SKILL.md, its MCP servers, its executable files. */
function sourcePowers(skill: Skill): Power[] {
  return [
    ...powersOf(skillPowers(skill.skillMd)),
    ...skill.manifest.mcp.servers.map((s) => ({
      kind: 'mcp-server' as const,
      value: `${s.name}: ${s.transport === 'stdio' ? [s.command ?? '', ...s.args].join(' ').trim() : (s.url ?? '')}`,
    })),
    ...skill.tree.entries
      .filter((e) => e.kind === 'file' && (e.executable === true || e.path.startsWith('scripts/')))
      .map((e) => ({ kind: 'executable' as const, value: e.path })),
  ];
}

/** The powers of one skill in each active target, and what some agent acts on across every target. */
export function nodePowers(skill: Skill, active: readonly TargetDef[]): NodePowers {
  const source = sourcePowers(skill);
  // Emitted from the files that can hold a power (and the prompts a body inlines): every
  // other file is delivered byte for byte as data, and fingerprinting each of them once per
  // target would make a large closure's review slow for nothing.
  const lean: Skill = {
    ...skill,
    tree: {
      ...skill.tree,
      entries: skill.tree.entries.filter(
        (e) =>
          e.kind !== 'file' ||
          e.executable === true ||
          e.path === 'SKILL.md' ||
          e.path === 'skill.toml' ||
          e.path.startsWith('scripts/') ||
          e.path.startsWith('prompts/'),
      ),
    },
  };
  const prepared = prepareSkill(lean);
  if (!prepared.ok)
    return {
      carried: source,
      agents: [],
      note: 'compile refuses this skill (a template error): nothing is delivered until it is fixed',
    };
  const byTarget = new Map<string, AgentPower[]>();
  const of = (def: TargetDef) => {
    let got = byTarget.get(def.id);
    if (!got) byTarget.set(def.id, (got = deliveredBy(def, prepared.value, source)));
    return got;
  };
  const carried = new Map<string, Power>();
  for (const def of TARGETS)
    for (const p of of(def)) if (p.status === 'acts') carried.set(keyOf(p), { kind: p.kind, value: p.value });
  return {
    carried: [...carried.values()].sort((a, b) => POWER_KINDS.indexOf(a.kind) - POWER_KINDS.indexOf(b.kind)),
    agents: active.map((def) => ({ target: def.id, agent: def.agent, powers: of(def) })),
  };
}

/** True when some agent would act on a hook or a tool grant of the skill. */
export function carriesGrants(p: Pick<NodePowers, 'carried'> | undefined): boolean {
  return (p?.carried ?? []).some((x) => isGrant(x.kind));
}

const WHY: Partial<Record<PowerKind, string>> = {
  hooks: 'a new hook: the agent runs this command on its own',
  'allowed-tools': 'a new tool grant: the agent may use it without asking',
  'disallowed-tools': 'a tool is no longer withheld from the agent',
  'dynamic-context': 'a new command runs when the skill loads',
  executable: 'a new executable is delivered to the agent',
};

/**
 * What an update changes in the powers some agent acts on. New hooks, tool grants,
 * load-time commands and executables, and a removed `disallowed-tools` entry, are
 * escalations; other settings are plain changes. New scripts are already reported by the
 * manifest delta (`scripts`) and MCP servers by its `mcp.servers` lines, so they are left out;
 * so are a manifested skill's tool lists (`manifested`: the skill after the update has skill.toml).
 */
export function powersDelta(
  before: readonly Power[],
  after: readonly Power[],
  opts: { readonly manifested?: boolean } = {},
): FieldChange[] {
  const out: FieldChange[] = [];
  const had = new Set(before.map(keyOf));
  const has = new Set(after.map(keyOf));
  // A manifested skill's delivered tool lists are its lowered [permissions].tools, which the
  // manifest delta already reports (`permissions.tools`); said twice, they would read as two grants.
  const skip = (p: Power) =>
    p.kind === 'mcp-server' ||
    (p.kind === 'executable' && p.value.startsWith('scripts/')) ||
    (opts.manifested === true && (p.kind === 'allowed-tools' || p.kind === 'disallowed-tools'));
  const push = (p: Power, change: '+' | '-', escalation: boolean) => {
    const why = escalation ? WHY[p.kind] : undefined;
    out.push({
      field: p.kind,
      before: change === '-' ? p.value : '',
      after: change === '+' ? p.value : '',
      escalation,
      ...(why ? { why } : {}),
      line: `${p.kind}: ${change} ${escapeTerminal(p.value)}${escalation ? `  ⚠ escalation${why ? ` — ${why}` : ''}` : ''}`,
    });
  };
  for (const p of after) if (!had.has(keyOf(p)) && !skip(p)) push(p, '+', isGrant(p.kind));
  for (const p of before) if (!has.has(keyOf(p)) && !skip(p)) push(p, '-', p.kind === 'disallowed-tools');
  return out;
}

/** What a status means for a power of this kind, in the review's words. */
export function statusText(kind: PowerKind, status: PowerStatus): string {
  if (status === 'dropped') return 'not delivered: compile does not write it for this agent';
  if (status === 'inert') return 'written into its files; the agent is not documented to act on it';
  switch (kind) {
    case 'hooks':
      return 'the agent runs it on that event';
    case 'allowed-tools':
      return 'the agent may use it without asking';
    case 'disallowed-tools':
      return 'the agent withholds it while the skill runs';
    case 'dynamic-context':
      return 'the agent runs it when the skill loads';
    case 'mcp-server':
      return "written into the agent's MCP configuration; it runs with the agent's rights";
    case 'executable':
      return "delivered; the agent can run it — with its own rights, or only through Skillsmith's sandbox where compile adds its script guard";
    default:
      return 'the agent applies it';
  }
}

/** The label a power is listed under. */
export function powerLabel(kind: PowerKind): string {
  return kind === 'hooks'
    ? 'hook'
    : kind === 'dynamic-context'
      ? 'load-time command'
      : kind === 'mcp-server'
        ? 'MCP server'
        : kind;
}

/** Agents whose powers read the same, in first-seen order (the review lists each group once). */
export function groupedPowers(agents: readonly AgentPowers[]): { agents: string[]; powers: readonly AgentPower[] }[] {
  const out: { agents: string[]; key: string; powers: readonly AgentPower[] }[] = [];
  for (const a of agents) {
    const key = a.powers.map((p) => `${keyOf(p)}\0${p.status}`).join('\n');
    const g = out.find((x) => x.key === key);
    if (g) g.agents.push(a.agent);
    else out.push({ agents: [a.agent], key, powers: a.powers });
  }
  return out.map(({ agents: names, powers }) => ({ agents: names, powers }));
}

/** The review's lines for one node's powers (indented by the caller). */
export function powerLines(p: NodePowers): string[] {
  const lines: string[] = [];
  const row = (x: Power & { status?: PowerStatus }) =>
    `${powerLabel(x.kind)}: ${x.value}${x.status ? ` — ${statusText(x.kind, x.status)}` : ''}`;
  if (p.note) lines.push(`powers: ${p.note}`);
  if (p.agents.length === 0) {
    if (p.carried.length === 0) {
      if (!p.note) lines.push('powers: none — no hooks, tool grants, load-time commands, MCP servers or executables');
      return lines;
    }
    lines.push('powers it carries (no compile target is active: what an agent would act on once compiled):');
    for (const x of p.carried) lines.push(`  ${row(x)}`);
    return lines;
  }
  if (p.agents.every((a) => a.powers.length === 0)) {
    lines.push('powers: none — no hooks, tool grants, load-time commands, MCP servers or executables');
    return lines;
  }
  lines.push('powers, as compile delivers them to each agent:');
  for (const g of groupedPowers(p.agents)) {
    if (g.powers.length === 0) {
      lines.push(`  in ${g.agents.join(', ')}: none`);
      continue;
    }
    lines.push(`  in ${g.agents.join(', ')}:`);
    for (const x of g.powers) lines.push(`    ${row(x)}`);
  }
  return lines;
}

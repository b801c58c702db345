/**
 * The install/update review: one plain, serialisable object that the CLI prints, that
 * `--json` emits and that the desktop approval dialog renders field for field. Building
 * it is pure (shared/); main/ stages the files and supplies the inputs.
 *
 * Approval names `integrity` (a hash over every staged node's tree hash). Commit
 * re-hashes the staged trees and refuses when the value differs.
 */
import { plural } from '../text/format';
import { describeSignature, type SignatureState } from '../policy/signature';
import type { Skill } from '../ksf/model';
import { standingStub } from '../ksf/stub';
import { estimateTokens } from '../ksf/tokens';
import type { Check } from '../lint/types';
import type { Policy } from '../project/config';
import { unconfirmedNote, type PolicyException } from '../policy/exceptions';
import { manifestViolations } from '../policy/policy';
import { skillVerdict, type AcceptedFinding, type SkillVerdict } from '../policy/verdict';
import { groupedHolds, permissionHolds, permissionSummary, type ReviewAgent } from './holds';
import { Sha256 } from './sha256';
import { skillPowers } from '../ksf/powers';
import type { TargetDef } from '../targets/types';
import { describePlugin, type ReviewPlugin } from './marketplace';
import { carriesGrants, nodePowers, powerLines, type NodePowers } from './powers';
import { utf8Encode } from './integrity';
import { escapeTerminal } from '../terminal/escape';
import { describeScannerFinding, scannerRunLine, type ReviewScannerFinding, type ScannerRun } from '../scanners/review';

export const REVIEW_SCHEMA = 1;

/** A declared permission as the reviewer sees it. */
export interface PermissionEntry {
  /** `tool:<name>`, `network` or `write`. */
  readonly permission: string;
  /** What the skill says (tools are listed only when declared). */
  readonly declared: boolean;
  /** Where a declared tool comes from when it is not skill.toml: a bare skill's SKILL.md `allowed-tools`. */
  readonly declaredIn?: 'SKILL.md allowed-tools';
  /**
   * How this machine would hold the skill to it when its scripts run (from the sandbox
   * probe): absent until a probe is available.
   */
  readonly enforcement?: { readonly label: 'enforced' | 'advisory' | 'unavailable'; readonly detail?: string };
}

export interface Finding {
  readonly id: string;
  readonly status: 'warn' | 'fail';
  readonly detail: string;
}

export interface ReviewSource {
  /** As typed (or, for a dependency, the source string it was found at). */
  readonly raw: string;
  /** What `[policy].allow_sources` is matched against. */
  readonly canonical: string;
  readonly kind: 'local' | 'git' | 'github' | 'wellknown';
  /** The git commit the files came from. */
  readonly commit?: string;
  /** The discovery index's `sha256:<hex>` digest the files were verified against (SPEC D325). */
  readonly digest?: string;
  /** How the resolver found it: "requested", "sibling", "catalog <name>", "installed". */
  readonly origin: string;
}

/** One skill of the closure. Permissions and budgets are its own; nothing flows across an edge. */
export interface ReviewNode {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly role: 'requested' | 'dependency';
  /** Already installed at exactly this content: nothing of it is written. */
  readonly alreadyInstalled: boolean;
  readonly manifested: boolean;
  readonly source: ReviewSource;
  readonly manifest: {
    readonly mode: string;
    readonly disclosure: string;
    readonly commands: readonly string[];
    readonly events: readonly string[];
    readonly produces: readonly string[];
    readonly consumes: readonly string[];
    readonly mcpServers: readonly {
      readonly name: string;
      readonly transport: string;
      readonly subject: string;
      readonly tools: readonly string[];
    }[];
    readonly scripts: readonly string[];
    readonly license?: string;
    readonly homepage?: string;
  };
  readonly permissions: readonly PermissionEntry[];
  readonly budget: {
    readonly budget: number;
    readonly standing: number;
    readonly bodyTokens: number;
    readonly stubTokens: number;
  };
  readonly requires: readonly string[];
  /** Every warning and failure of the static checks. */
  readonly lint: readonly Finding[];
  /** Safety failures across every file that no exception accepts: these block, whatever the answer. */
  readonly safety: readonly Finding[];
  /** Blocking findings a `[[policy.exceptions]]` entry accepts for exactly this version (shown, never hidden). */
  readonly accepted: readonly AcceptedFinding[];
  /** One line per kitbash.toml exception for a blocking finding here that this user has not confirmed (spec D190). */
  readonly unconfirmed: readonly string[];
  /** The same counts the dashboard, the Runs tab and `run` use (one computation: shared/policy/verdict). */
  readonly verdict: Pick<SkillVerdict, 'status' | 'failures' | 'warnings'>;
  readonly policy: readonly string[];
  /** The signature check of the staged folder (SPEC D210); absent for a node not staged. */
  readonly signature?: SignatureState;
  /** `[dependencies]` with the version the resolver chose. */
  readonly dependencies: readonly { readonly name: string; readonly range: string; readonly version: string }[];
  /** `artifacts.consumes` entries and which dependency's `produces` satisfies each (null: none in the closure). */
  readonly consumes: readonly { readonly artifact: string; readonly producedBy: string | null }[];
  /** Staged tree hash of this node. */
  readonly integrity: string;
  /** Project-relative paths this node writes (empty when already installed). */
  readonly files: readonly string[];
  /** What the compiled skill can make each active agent do (hooks, tool grants, load-time commands, …). */
  readonly powers: NodePowers;
  /** Findings of the project's external scanners over the staged folder (SPEC D251); absent when none ran on it. */
  readonly scanners?: readonly ReviewScannerFinding[];
}

export interface InstallReview {
  readonly schema: typeof REVIEW_SCHEMA;
  readonly kind: 'install' | 'update';
  /** The requested skill's name. */
  readonly root: string;
  readonly source: ReviewSource;
  /** The requested skill first, then its dependencies (dependencies-first order after it). */
  readonly nodes: readonly ReviewNode[];
  /** Every project-relative file the commit writes, `kitbash.lock` last. */
  readonly writes: readonly string[];
  /** Why the commit would be refused (safety, policy); empty when it may proceed. */
  readonly blockers: readonly string[];
  /** Non-blocking things the reviewer should read (unmanifested skill, drifted local edits, unmet consumes). */
  readonly notices: readonly string[];
  /** For update: what changed, escalations marked. */
  readonly changes?: readonly {
    readonly field: string;
    readonly before: string;
    readonly after: string;
    readonly escalation: boolean;
    readonly line: string;
  }[];
  readonly fileChanges?: readonly { readonly path: string; readonly change: '+' | '-' | '~' }[];
  /**
   * What the recompile after the commit would do to generated output (planned against the
   * project as it is now plus the staged skills): paths written or merged, paths pruned, and
   * compile refusals (then nothing would be compiled). Not part of `integrity`.
   */
  readonly compile?: {
    readonly writes: readonly string[];
    readonly prunes: readonly string[];
    readonly errors: readonly string[];
  };
  /** The project's active compile targets (empty: none), for where each permission holds. Not part of `integrity`. */
  readonly agents?: readonly ReviewAgent[];
  /** Each `[scanners.<name>]` of kitbash.toml and whether it ran (SPEC D251); absent when none is configured. */
  readonly scanners?: readonly ScannerRun[];
  /**
   * The plugin the requested skill is picked from, and what else it holds that is not
   * installed (SPEC D313). Not part of `integrity`: no byte of it is written.
   */
  readonly plugin?: ReviewPlugin;
  /** The hash an approval must name. */
  readonly integrity: string;
}

/** What the user approves: the hash of exactly what they saw. */
export interface Approval {
  readonly integrity: string;
}

export interface NodeInput {
  readonly skill: Skill;
  readonly role: 'requested' | 'dependency';
  readonly alreadyInstalled: boolean;
  readonly source: ReviewSource;
  readonly checks: readonly Check[];
  /** Policy in force, and whether the source check applies (it does for every fetched node). */
  readonly policy?: Policy;
  /** `[[policy.exceptions]]` of the project; only entries naming this skill and this integrity can match. */
  readonly exceptions?: readonly PolicyException[];
  /** Entries held back because this user has not confirmed them: they accept nothing. */
  readonly unconfirmed?: readonly PolicyException[];
  readonly sourceViolations: readonly string[];
  readonly dependencies: readonly { name: string; range: string; version: string }[];
  /** `produces` of every node this one (transitively) depends on, by node name. */
  readonly producedByDeps: ReadonlyMap<string, readonly string[]>;
  readonly integrity: string;
  /** Project-relative folder it is installed to, e.g. `.kitbash/skills/<name>`. */
  readonly installDir: string;
  /** The project's active compile targets: what each is delivered of the skill's powers. */
  readonly targets?: readonly TargetDef[];
}

/** Build one node of the review from the loaded skill and its checks. */
export function reviewNode(input: NodeInput): ReviewNode {
  const { skill } = input;
  const m = skill.manifest;
  const verdict = skillVerdict(input.checks, {
    skill: m.skill.name,
    integrity: input.integrity,
    ...(input.policy ? { policy: input.policy } : {}),
    exceptions: input.exceptions ?? [],
    ...(input.unconfirmed ? { unconfirmed: input.unconfirmed } : {}),
  });
  const lint: Finding[] = [];
  const safety: Finding[] = [];
  for (const c of input.checks) {
    if (c.status === 'pass') continue;
    const f: Finding = { id: c.id, status: c.status, detail: c.detail ?? '' };
    lint.push(f);
    if (verdict.blocking.some((b) => b.id === c.id)) safety.push(f);
  }
  const permissions: PermissionEntry[] = [
    ...m.permissions.tools.map((t) => ({ permission: `tool:${t}`, declared: true })),
    // A bare skill has no [permissions]; the agent still reads its frontmatter tool list.
    ...(skill.manifested ? [] : skillPowers(skill.skillMd).allowedTools).map((t) => ({
      permission: `tool:${t}`,
      declared: true,
      declaredIn: 'SKILL.md allowed-tools' as const,
    })),
    { permission: 'network', declared: m.permissions.network },
    { permission: 'write', declared: m.permissions.write },
  ];
  const consumes = m.artifacts.consumes.map((artifact) => {
    let producedBy: string | null = null;
    for (const [name, produces] of input.producedByDeps) if (produces.includes(artifact)) producedBy ??= name;
    return { artifact, producedBy };
  });
  return {
    name: m.skill.name,
    version: m.skill.version,
    description: m.skill.description,
    role: input.role,
    alreadyInstalled: input.alreadyInstalled,
    manifested: skill.manifested,
    source: input.source,
    manifest: {
      mode: m.targets.mode,
      disclosure: m.context.disclosure,
      commands: m.triggers.commands,
      events: m.triggers.events,
      produces: m.artifacts.produces,
      consumes: m.artifacts.consumes,
      mcpServers: m.mcp.servers.map((s) => ({
        name: s.name,
        transport: s.transport,
        subject: s.transport === 'stdio' ? [s.command ?? '', ...s.args].join(' ').trim() : (s.url ?? ''),
        tools: s.tools,
      })),
      scripts: skill.tree.entries.filter((e) => e.kind !== 'dir' && e.path.startsWith('scripts/')).map((e) => e.path),
      ...(m.skill.license !== undefined ? { license: m.skill.license } : {}),
      ...(m.skill.homepage !== undefined ? { homepage: m.skill.homepage } : {}),
    },
    permissions,
    budget: {
      budget: m.context.budget,
      standing: m.context.standing,
      bodyTokens: estimateTokens(skill.body),
      stubTokens: estimateTokens(standingStub(skill.body)),
    },
    requires: m.targets.requires,
    lint,
    safety,
    accepted: verdict.accepted,
    unconfirmed: verdict.blocking.flatMap((b) => (b.unconfirmed ?? []).map(unconfirmedNote)),
    verdict: { status: verdict.status, failures: verdict.failures, warnings: verdict.warnings },
    policy: input.policy ? [...input.sourceViolations, ...manifestViolations(input.policy, m)] : [],
    dependencies: input.dependencies,
    consumes,
    integrity: input.integrity,
    files: input.alreadyInstalled
      ? []
      : skill.tree.entries.filter((e) => e.kind !== 'dir').map((e) => `${input.installDir}/${e.path}`),
    powers: nodePowers(skill, input.targets ?? []),
  };
}

/** The hash an approval names: over each node's name, version and tree hash, in review order. */
export function reviewIntegrity(nodes: readonly Pick<ReviewNode, 'name' | 'version' | 'integrity'>[]): string {
  const h = new Sha256();
  for (const n of nodes) h.update(utf8Encode(`${n.name}\0${n.version}\0${n.integrity}\n`));
  return `sha256-${h.hex()}`;
}

/** Blocking reasons of a whole review, one line each. */
export function reviewBlockers(nodes: readonly ReviewNode[]): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    for (const s of n.safety) out.push(`${n.name}: safety: ${s.id} — ${s.detail}`);
    for (const f of n.scanners ?? [])
      if (f.status === 'blocking') out.push(`${n.name}: scanner: ${describeScannerFinding(f)}`);
    for (const u of n.unconfirmed) out.push(`${n.name}: ${u}`);
    for (const p of n.policy) out.push(`${n.name}: policy: ${p}`);
  }
  return out;
}

/** The review as the terminal shows it (the reference's block per node, plus Skillsmith's additions). */
export function renderReview(r: InstallReview): string {
  const lines: string[] = [];
  for (const n of r.nodes) {
    const head = n.role === 'requested' ? 'review' : '  dependency';
    const ind = n.role === 'requested' ? '  ' : '    ';
    lines.push(
      `${head}: ${escapeTerminal(n.name)}@${escapeTerminal(n.version)} — ${escapeTerminal(n.description)}${n.alreadyInstalled ? ' (already installed, unchanged)' : ''}`,
    );
    lines.push(
      n.alreadyInstalled && !n.source.raw
        ? `${ind}source: none — not pinned in kitbash.lock; it stays unpinned (re-pin it after its own review)`
        : `${ind}source: ${n.source.raw}${n.source.canonical !== n.source.raw ? ` (${n.source.canonical})` : ''}${n.source.commit ? ` @ ${n.source.commit.slice(0, 12)}` : ''}`,
    );
    if (n.signature) lines.push(`${ind}signature: ${escapeTerminal(describeSignature(n.signature))}`);
    lines.push(
      `${ind}budget ${n.budget.budget} tok · standing ${n.budget.standing} tok/session · ${n.manifest.disclosure} disclosure · mode ${n.manifest.mode}`,
    );
    const tools = n.permissions.filter((p) => p.permission.startsWith('tool:')).map((p) => p.permission.slice(5));
    const flag = (name: string) => {
      const p = n.permissions.find((x) => x.permission === name);
      // The runner's label is of the restriction ("no network"); a declared permission lifts it.
      if (p?.declared) return "YES (allowed when Skillsmith's runner runs its scripts)";
      return `no${p?.enforcement ? ` (${p.enforcement.label} in Skillsmith's runner)` : ''}`;
    };
    if (n.permissions.every((p) => !p.declared))
      lines.push(
        carriesGrants(n.powers)
          ? `${ind}permissions: none declared (no tools, network no, write no) — but it delivers hooks or tool grants an agent acts on (powers, below)`
          : `${ind}permissions: declares no permissions (no tools, network no, write no)`,
      );
    else
      lines.push(
        `${ind}permissions: tools [${tools.length ? tools.join(', ') : 'none'}] · network ${flag('network')} · write ${flag('write')}`,
      );
    lines.push(`${ind}  ${permissionSummary(n.permissions, r.agents ?? [], n.powers)}`);
    for (const h of permissionHolds(n.permissions, r.agents ?? [], n.powers)) {
      lines.push(`${ind}  ${h.permission}${h.declared ? '' : ' (not declared)'}: Skillsmith's runner — ${h.runner}`);
      for (const g of groupedHolds(h)) lines.push(`${ind}    in ${g.agents.join(', ')}: ${g.hold} — ${g.text}`);
    }
    for (const l of powerLines(n.powers)) lines.push(`${ind}${escapeTerminal(l)}`);
    if (n.requires.length) lines.push(`${ind}requires: ${n.requires.join(', ')}`);
    if (n.manifest.mcpServers.length)
      lines.push(`${ind}mcp servers: ${n.manifest.mcpServers.map((s) => `${s.name} (${s.subject})`).join(', ')}`);
    if (n.manifest.scripts.length)
      lines.push(`${ind}scripts: ${n.manifest.scripts.map((s) => escapeTerminal(s)).join(', ')}`);
    if (!n.manifested)
      lines.push(
        `${ind}⚠ unmanifested (SKILL.md only) — no skill.toml: defaults applied, no [permissions] or budget declared in a manifest`,
      );
    for (const d of n.dependencies) lines.push(`${ind}depends on ${d.name}@${d.version} (${d.range})`);
    for (const c of n.consumes)
      lines.push(
        `${ind}consumes ${c.artifact}: ${c.producedBy ? `produced by ${c.producedBy}` : 'no dependency produces it'}`,
      );
    for (const f of n.lint) {
      if (n.safety.includes(f)) continue;
      lines.push(`${ind}${f.status === 'fail' ? '✗' : '⚠'} lint: ${f.id} — ${escapeTerminal(f.detail ?? '')}`);
    }
    for (const f of n.safety) lines.push(`${ind}✗ safety: ${f.id} — ${escapeTerminal(f.detail ?? '')}`);
    for (const f of n.scanners ?? [])
      if (f.status !== 'accepted')
        lines.push(
          `${ind}${f.status === 'blocking' ? '✗ scanner' : '⚠ scanner (advisory)'}: ${escapeTerminal(describeScannerFinding(f))}`,
        );
    for (const u of n.unconfirmed) lines.push(`${ind}✗ ${escapeTerminal(u)}`);
    for (const a of n.accepted)
      lines.push(
        `${ind}⚠ accepted by exception: ${a.id} at ${escapeTerminal(a.file)}:${a.line} — ${escapeTerminal(a.detail ?? '')} (accepted by ${escapeTerminal(a.by)}: ${escapeTerminal(a.reason)}; matches this exact version only)`,
      );
    for (const p of n.policy) lines.push(`${ind}✗ policy: ${p}`);
  }
  if (r.changes?.length) {
    lines.push('  manifest:');
    for (const c of r.changes) lines.push(`    ${c.line}`);
  }
  if (r.fileChanges?.length) {
    lines.push('  files:');
    for (const f of r.fileChanges) lines.push(`    ${f.change} ${escapeTerminal(f.path)}`);
  }
  if (r.plugin) {
    lines.push(`  plugin: ${escapeTerminal(describePlugin(r.plugin.provenance))}`);
    lines.push(`  ${escapeTerminal(r.plugin.notInstalled)}`);
  }
  const scanned = scannerRunLine(r.scanners ?? []);
  if (scanned !== undefined) lines.push(`  ${scanned}`);
  for (const n of r.notices) lines.push(`  ⚠ ${escapeTerminal(n)}`);
  if (r.compile) {
    if (r.compile.errors.length) lines.push(`  compile afterwards would refuse: ${r.compile.errors[0]}`);
    else if (r.compile.writes.length || r.compile.prunes.length) {
      lines.push(
        `  then compile writes ${plural(r.compile.writes.length, 'generated file')}${r.compile.prunes.length ? ` and prunes ${r.compile.prunes.length}` : ''}: ${[...r.compile.writes, ...r.compile.prunes.map((p) => `-${p}`)].join(', ')}`,
      );
    }
  }
  const count = r.writes.length;
  lines.push(
    `  writes ${count} file${count === 1 ? '' : 's'} (${plural(r.nodes.filter((n) => !n.alreadyInstalled).length, 'skill folder')} under .kitbash/skills/ and kitbash.lock)`,
  );
  lines.push(`  integrity: ${r.integrity}`);
  return lines.join('\n') + '\n';
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatError, ok } from '../../../shared/result';
import { standingStub } from '../../../shared/ksf/stub';
import { estimateTokens } from '../../../shared/ksf/tokens';
import { IMPORT_SOURCE, type LockEntry } from '../../../shared/lock/lockfile';
import { DEFAULT_MAX_MCP_TOOLS, type Policy } from '../../../shared/project/config';
import type { Skill } from '../../../shared/ksf/model';
import { collectServers, MCP_GAPS, MCP_SURFACES, toolBudget } from '../../../shared/mcp/emit';
import { MCP_GAP_REASONS } from '../../../shared/targets/types';
import { readCatalogs, type Catalog } from '../../../shared/project/sources';
import { manifestViolations, sourceViolations } from '../../../shared/policy/policy';
import { parseSource, canonicalSource } from '../../../shared/lock/source';
import { detectTargets, resolveTargets } from '../../../shared/targets/registry';
import { standingCost } from '../../../shared/targets/cost';
import { emitOnce, type EmitOf } from '../../../shared/targets/emit-once';
import { alwaysLoadedLeftOut } from '../../../shared/targets/matrix';
import { prepareSkill } from '../../../shared/targets/prepare';
import type { EmitContext, PreparedSkill, ProjectFiles } from '../../../shared/targets/types';
import { TARGETS } from '../../../shared/targets/registry';
import { planCompile, type FailedSkill } from '../../../shared/compile/plan';
import { withheldSkills, type WithheldSkill } from '../../../shared/compile/deliver';
import { diskProject, type DriftEntry } from '../compile';
import { openDeliveryChecks } from '../compile/checks-cache';
import { readLock } from '../lock';
import { readProjectConfig } from '../project/config';
import { installedSkills } from '../skills/locate';
import { READ_EACH_TIME, type FolderReads } from '../skills/folder-reads';
import { resolve } from 'node:path';

/** One installed folder as the dashboard and doctor see it. */
export interface SkillStatus {
  readonly folder: string;
  readonly name: string;
  readonly version?: string;
  readonly description?: string;
  readonly manifested?: boolean;
  readonly mode?: string;
  readonly budget?: number;
  readonly standing?: number;
  /** Standing-stub tokens of the raw body (the reference's doctor figure). */
  readonly stubTokens?: number;
  /** Per-target standing cost for the project's resolved targets. */
  readonly targetCost?: readonly { readonly target: string; readonly tokens: number; readonly loading: string }[];
  readonly loadError?: string;
  readonly pin?: LockEntry;
  readonly integrity?: string;
  /** ok: matches its pin; drift: files differ; unpinned: no lock entry; broken: does not load. */
  readonly lock: 'ok' | 'drift' | 'unpinned' | 'broken';
  readonly dependencies: Readonly<Record<string, string>>;
}

export interface ProjectStatus {
  readonly root: string;
  /** A kitbash.toml / kitbash.lock / [sources] problem, one line; the rest is best effort then. */
  readonly configError?: string;
  readonly lockError?: string;
  readonly lockPresent: boolean;
  readonly policy?: Policy;
  readonly catalogs: readonly Catalog[];
  readonly detectedTargets: readonly string[];
  readonly targets: readonly string[];
  readonly skills: readonly SkillStatus[];
  /** Pinned in kitbash.lock but not installed. */
  readonly missing: readonly LockEntry[];
  readonly policyViolations: readonly { readonly skill: string; readonly message: string }[];
  readonly standing: { readonly stubs: number; readonly budgets: number };
  /** Generated files that differ from what compile would write now (undefined: not computed). */
  readonly compiledDrift?: readonly DriftEntry[];
  readonly compileErrors?: readonly string[];
  /** Skills compile would not deliver (computed with the compile plan; undefined when that is not). */
  readonly withheld?: readonly WithheldSkill[];
  /** Interrupted changes waiting for recovery. */
  readonly interrupted: number;
  /** MCP servers declared across installed skills, with the tool-budget line and its warnings. */
  readonly mcp: {
    readonly servers: readonly string[];
    readonly budgetLine?: string;
    readonly warnings: readonly string[];
    readonly matrix: readonly string[];
  };
}

/** Where declared servers land per target, and why some targets get none (from the compile area's tables). */
export function mcpMatrix(): string[] {
  const out: string[] = [];
  const surfaces = Object.entries(MCP_SURFACES).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [id, path] of surfaces)
    out.push(`✓ ${id.padEnd(14)} ${path}${path?.endsWith('settings.json') ? ' (merged)' : ''}`);
  const gaps = Object.entries(MCP_GAPS).sort(
    ([, a], [, b]) => MCP_GAP_REASONS.indexOf(a!.reason) - MCP_GAP_REASONS.indexOf(b!.reason),
  );
  for (const [id, gap] of gaps) if (gap) out.push(`· ${id.padEnd(14)} no output — ${gap.reason}: ${gap.detail}`);
  return out;
}

/**
 * Everything doctor checks, as data: skills with versions, pins and drift, policy
 * results, standing cost, compiled-output drift. Read-only; every installed folder is
 * read once and the compile plan is made from the same loaded skills.
 * `costs: false` skips the per-target standing cost, `compiled: false` the compile plan.
 */
export function projectStatus(
  root: string,
  options: { compiled?: boolean; costs?: boolean; reads?: FolderReads } = {},
): ProjectStatus {
  const reads = options.reads ?? READ_EACH_TIME;
  const cfg = readProjectConfig(root);
  const config = cfg.ok ? cfg.value : undefined;
  const lock = readLock(root);
  const entries = lock.ok ? lock.value.entries : [];
  const pins = new Map(entries.map((e) => [e.name, e]));
  const cats = config ? readCatalogs(config.raw) : ok([]);
  const view = diskProject(root);
  const detected = detectTargets(view).map((t) => t.id);
  const sel = resolveTargets(view, config?.targets);
  const targetDefs = sel.ok ? sel.value.targets : [];

  const locations = installedSkills(root);
  const skills: SkillStatus[] = [];
  const loadedSkills: Skill[] = [];
  const failures: FailedSkill[] = [];
  // Each skill prepared once and emitted once per target: its price per target and the bound
  // of every always-loaded file (priceAsWritten) read the same emit.
  const context = { active: targetDefs };
  const emit = emitOnce(view, context);
  const ready = new Map<Skill, PreparedSkill>();
  for (const loc of locations) {
    const pin = pins.get(loc.nameHint);
    const withPin = pin ? { pin } : {};
    if (loc.kind === 'broken') {
      skills.push({
        folder: loc.display,
        name: loc.nameHint,
        loadError: `${loc.display}: ${loc.problem}`,
        lock: 'broken',
        dependencies: {},
        ...withPin,
      });
      failures.push({ name: loc.nameHint, message: loc.problem });
      continue;
    }
    const tree = reads.tree(loc.abs, loc.display);
    if (!tree.ok) {
      skills.push({
        folder: loc.display,
        name: loc.nameHint,
        loadError: formatError(tree.error),
        lock: 'broken',
        dependencies: {},
        ...withPin,
      });
      failures.push({ name: loc.nameHint, message: oneLine(formatError(tree.error)) });
      continue;
    }
    const integrity = reads.integrity(tree.value);
    const loaded = reads.skill(tree.value, loc.nameHint);
    const lockState = pin ? (pin.integrity === integrity ? 'ok' : 'drift') : 'unpinned';
    if (!loaded.ok) {
      skills.push({
        folder: loc.display,
        name: loc.nameHint,
        loadError: formatError(loaded.error).split('\n')[0]!,
        integrity,
        lock: pin ? lockState : 'broken',
        dependencies: {},
        ...withPin,
      });
      failures.push({ name: loc.nameHint, message: oneLine(formatError(loaded.error)) });
      continue;
    }
    const s = loaded.value;
    loadedSkills.push(s);
    const m = s.manifest;
    // A skill whose templates do not resolve would not compile: it costs no agent anything.
    const prepared = options.costs === false ? undefined : prepareSkill(s);
    if (prepared?.ok) ready.set(s, prepared.value);
    const targetCost = prepared
      ? targetDefs.map((t) => ({
          target: t.id,
          tokens: prepared.ok ? standingCost(prepared.value, t, view, context, emit).tokens : 0,
          loading: t.loading,
        }))
      : undefined;
    skills.push({
      folder: loc.display,
      name: m.skill.name,
      version: m.skill.version,
      description: m.skill.description,
      manifested: s.manifested,
      mode: m.targets.mode,
      budget: m.context.budget,
      standing: m.context.standing,
      stubTokens: estimateTokens(standingStub(s.body)),
      ...(targetCost ? { targetCost } : {}),
      integrity,
      lock: lockState,
      dependencies: m.dependencies,
      ...withPin,
    });
  }
  const installedNames = new Set(locations.map((l) => l.nameHint));
  const missing = entries.filter((e) => !installedNames.has(e.name));

  const policyViolations: { skill: string; message: string }[] = [];
  if (config?.policy) {
    const policy = config.policy;
    for (const st of skills) {
      if (st.pin?.source && st.pin.source !== IMPORT_SOURCE) {
        const parsed = parseSource(st.pin.source, (p) => existsSync(resolve(root, p)));
        if (parsed.ok) {
          const canonical =
            st.pin.resolved ??
            canonicalSource(parsed.value, parsed.value.kind === 'local' ? resolve(root, parsed.value.path) : undefined);
          for (const v of sourceViolations(policy, st.pin.source, canonical))
            policyViolations.push({ skill: st.name, message: v });
        }
      }
    }
    for (const sk of loadedSkills)
      for (const v of manifestViolations(policy, sk.manifest))
        policyViolations.push({ skill: sk.manifest.skill.name, message: v });
  }

  let drift: DriftEntry[] | undefined;
  let compileErrors: readonly string[] | undefined;
  let withheld: WithheldSkill[] | undefined;
  if (options.compiled !== false && config) {
    try {
      // What compile would not deliver, judged on the trees read above, as compile judges them,
      // each skill's checks from compile's cache by content (D281): linting every skill for it
      // was about half of a scan's time on the real-skills corpus.
      const checks = openDeliveryChecks();
      withheld = withheldSkills(loadedSkills, {
        pins: lock.ok ? new Map(entries.map((e) => [e.name, e.integrity])) : { error: formatError(lock.error) },
        integrityOf: (sk) => reads.integrity(sk.tree),
        config,
        ...(checks ? { checks } : {}),
      });
      checks?.save();
      // The compile plan over the skills loaded above (what `compile` would do now).
      const plan = planCompile({ skills: loadedSkills, failures, withheld, config, project: view });
      if (plan.errors.length) compileErrors = plan.errors;
      else {
        drift = [
          ...[...plan.write, ...plan.merge]
            .filter((f) => f.changed)
            .map((f): DriftEntry => ({ path: f.path, kind: view.exists(f.path) ? 'differs' : 'missing' })),
          ...plan.prune.map((p): DriftEntry => ({ path: p.path, kind: 'stale' })),
          ...plan.conflicts.map((c): DriftEntry => ({ path: c.path, kind: 'differs' })),
        ];
      }
    } catch (e) {
      compileErrors = [e instanceof Error ? e.message.split('\n')[0]! : String(e)];
    }
  }
  if (options.costs !== false) priceAsWritten(skills, ready, withheld ?? [], { view, context, emit });
  const mcpServers = collectServers(loadedSkills);
  const budget = mcpServers.servers.length
    ? toolBudget(mcpServers.servers, config?.policy?.maxMcpTools ?? DEFAULT_MAX_MCP_TOOLS)
    : undefined;
  const kitbash = join(root, '.kitbash');
  const interrupted = existsSync(kitbash) ? readdirSync(kitbash).filter((d) => d.startsWith('.txn-')).length : 0;
  return {
    root,
    ...(cfg.ok ? {} : { configError: formatError(cfg.error) }),
    ...(cats.ok ? {} : { configError: cats.error.message }),
    ...(lock.ok ? {} : { lockError: formatError(lock.error) }),
    lockPresent: lock.ok ? lock.value.present : true,
    ...(config?.policy ? { policy: config.policy } : {}),
    catalogs: cats.ok ? cats.value : [],
    detectedTargets: detected,
    targets: targetDefs.map((t) => t.id),
    skills,
    missing,
    policyViolations,
    standing: {
      stubs: skills.reduce((n, s) => n + (s.stubTokens ?? 0), 0),
      budgets: skills.reduce((n, s) => n + (s.budget ?? 0), 0),
    },
    ...(drift ? { compiledDrift: drift } : {}),
    ...(compileErrors ? { compileErrors } : {}),
    ...(withheld ? { withheld } : {}),
    interrupted,
    mcp: {
      servers: mcpServers.servers.map((x) => x.name),
      ...(budget ? { budgetLine: budget.line } : {}),
      warnings: [...mcpServers.conflicts, ...(budget?.warnings ?? [])],
      matrix: mcpServers.servers.length ? mcpMatrix() : [],
    },
  };
}

/** A load error on one line (compile's failure messages are single lines). */
function oneLine(message: string): string {
  const [head, ...problems] = message.split('\n');
  return problems.length ? `${head} — ${problems.map((p) => p.replace(/^\s*-\s*/, '')).join('; ')}` : head!;
}

export const ALL_TARGET_IDS = TARGETS.map((t) => t.id);

/**
 * A skill that a bounded always-loaded file has no room for (D221) is not in that file, so it
 * costs the file's readers nothing: each target's cost is priced as compile writes it.
 */
function priceAsWritten(
  skills: SkillStatus[],
  prepared: ReadonlyMap<Skill, PreparedSkill>,
  withheld: readonly WithheldSkill[],
  { view, context, emit }: { view: ProjectFiles; context: EmitContext; emit: EmitOf },
): void {
  const bounded = context.active.filter((t) => t.alwaysLoaded.length > 0);
  if (!bounded.length) return;
  const held = new Set(withheld.map((w) => w.name));
  const ready = [...prepared].flatMap(([sk, p]) => (held.has(sk.manifest.skill.name) ? [] : [p]));
  const left = new Map<string, ReadonlyMap<string, unknown>>(
    bounded.map((t) => [t.id, alwaysLoadedLeftOut(t, ready, view, context, emit)]),
  );
  skills.forEach((st, i) => {
    if (!st.targetCost?.some((c) => left.get(c.target)?.has(st.name))) return;
    skills[i] = {
      ...st,
      targetCost: st.targetCost.map((c) => (left.get(c.target)?.has(st.name) ? { ...c, tokens: 0 } : c)),
    };
  });
}

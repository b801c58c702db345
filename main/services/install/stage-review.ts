import { lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Skill } from '../../../shared/ksf/model';
import type { SkillTree } from '../../../shared/ksf/tree';
import { lintSkill } from '../../../shared/lint/checks';
import type { LockEntry } from '../../../shared/lock/lockfile';
import {
  reviewBlockers,
  reviewIntegrity,
  reviewNode,
  REVIEW_SCHEMA,
  type InstallReview,
  type ReviewNode,
  type ReviewSource,
} from '../../../shared/lock/review';
import { enforceInAgent, type ProjectConfig } from '../../../shared/project/config';
import { sourceViolations } from '../../../shared/policy/policy';
import type { Resolution } from '../../../shared/resolve/resolve';
import type { CompilePlan } from '../../../shared/compile/plan';
import type { TargetDef } from '../../../shared/targets/types';
import { resolveTargets } from '../../../shared/targets/registry';
import { treeIntegrityFast } from '../lock';
import { SKILLS_DIR } from '../skills/locate';
import type { ProjectIndex } from '../skills/project-index';
import { readSkillTreeAsync } from '../skills/reader';
import type { Checkout } from '../sources';
import { AsyncDiskView } from '../workspace/disk-view';
import { planChange, type PlannedCompile } from '../workspace/recompile';
import { verifiedPin, withSignatures } from '../signing/review';
import { ghLockField } from '../../../shared/lock/gh-provenance';
import { reviewPlugin } from '../../../shared/lock/marketplace';
import { withScanners } from '../scanners/review';
import type { StagedMerge, StagedNode, StageOptions } from './stage';

/** The last steps of staging an install: the review of the staged closure and the lock it would write. */

export type ResolvedNode = Extract<Resolution, { ok: true }>['value'][number];

/** One node of the resolved closure, staged (or, already installed, read in place). */
export interface StagedPart {
  readonly node: ResolvedNode;
  readonly skill: Skill;
  readonly dir?: string;
  readonly executable: readonly string[];
  readonly integrity: string;
  readonly source: ReviewSource;
  readonly installed: boolean;
}

export function checkoutSource(co: Checkout, origin: string): ReviewSource {
  return {
    raw: co.spec.raw,
    canonical: co.canonical,
    kind: co.spec.kind,
    ...(co.commit ? { commit: co.commit } : {}),
    ...(co.digest ? { digest: co.digest } : {}),
    origin,
  };
}

interface ReviewInput {
  readonly index: ProjectIndex;
  readonly config: ProjectConfig;
  readonly co: Checkout;
  readonly raw: string;
  readonly options: StageOptions;
  readonly rootName: string;
  readonly resolution: readonly ResolvedNode[];
  readonly parts: readonly StagedPart[];
  readonly lock: readonly LockEntry[];
  /** An update's merge over local edits: the requested skill's pin and upstream hash. */
  readonly merged?: StagedMerge;
}

/** The review of the staged closure, its nodes with the lock entries a commit writes, and the compile plan. */
export async function buildReview(
  input: ReviewInput,
): Promise<{ review: InstallReview; nodes: StagedNode[]; planned?: PlannedCompile }> {
  const { index, config, co, options, parts } = input;
  const project = index.root;
  // The active compile targets decide what of each skill's powers reaches which agent.
  const targets = await activeTargets(new AsyncDiskView(project), config);
  const signed = withSignatures(
    project,
    config,
    reviewNodesOf(input, targets),
    parts.map((s) => s.dir),
  );
  const scanned = await withScanners(
    project,
    config,
    signed.nodes,
    parts.map((s) => (s.dir !== undefined ? { dir: s.dir, skill: s.skill } : undefined)),
  );
  const reviewNodes = scanned.nodes;
  const nodes = await lockNodes(input, reviewNodes);
  const writes = [...reviewNodes.flatMap((n) => n.files), 'kitbash.lock'];
  const notices: string[] = [...config.exceptionProblems, ...signed.notices, ...scanned.notices];
  for (const n of reviewNodes)
    for (const c of n.consumes)
      if (c.producedBy === null && n.dependencies.length > 0)
        notices.push(`${n.name} consumes ${c.artifact}, which no dependency in the closure produces`);
  const preview =
    options.compile === false
      ? undefined
      : await compilePreview(
          index,
          parts.flatMap((x) => (x.dir !== undefined ? [{ name: x.node.candidate.name, tree: x.skill.tree }] : [])),
        );
  const planned = preview && 'planned' in preview ? preview.planned : undefined;
  const review: InstallReview = {
    schema: REVIEW_SCHEMA,
    kind: options.replacing !== undefined ? 'update' : 'install',
    root: input.rootName,
    source: checkoutSource(co, 'requested'),
    nodes: reviewNodes,
    writes,
    blockers: [...reviewBlockers(reviewNodes), ...scanned.blockers],
    notices,
    ...(preview
      ? { compile: 'planned' in preview ? compileSummary(preview.planned.plan) : failedSummary(preview.error) }
      : {}),
    agents: targets.map((t) => ({
      target: t.id,
      agent: t.agent,
      tools: t.nativeTools ?? 'prose',
      ...(t.scriptGuard && enforceInAgent(config) ? { guard: true } : {}),
    })),
    ...(scanned.runs ? { scanners: scanned.runs } : {}),
    ...(options.plugin ? { plugin: reviewPlugin(options.plugin) } : {}),
    integrity: reviewIntegrity(reviewNodes),
  };
  return { review, nodes, ...(planned ? { planned } : {}) };
}

/** Each staged node's review, before signatures: its checks, policy, and consumes ← produces. */
function reviewNodesOf({ config, resolution, parts }: ReviewInput, targets: readonly TargetDef[]): ReviewNode[] {
  const produces = new Map(parts.map((s) => [s.node.candidate.name, s.skill.manifest.artifacts.produces] as const));
  // Transitive dependencies of each node, for consumes ← produces.
  const nodeByName = new Map(resolution.map((x) => [x.candidate.name, x]));
  const depsOf = (name: string, acc = new Set<string>()): Set<string> => {
    const n = nodeByName.get(name);
    for (const e of n?.edges ?? []) if (!acc.has(e.name)) depsOf(e.name, acc.add(e.name));
    return acc;
  };
  return parts.map((s) => {
    const deps = depsOf(s.node.candidate.name);
    return reviewNode({
      skill: s.skill,
      role: s.node.candidate.id === 'root' ? 'requested' : 'dependency',
      alreadyInstalled: s.installed,
      source: s.source,
      checks: lintSkill(s.skill),
      ...(config.policy ? { policy: config.policy } : {}),
      exceptions: config.exceptions,
      ...(config.unconfirmedExceptions ? { unconfirmed: config.unconfirmedExceptions } : {}),
      sourceViolations:
        config.policy && !s.installed ? sourceViolations(config.policy, s.source.raw, s.source.canonical) : [],
      dependencies: s.node.edges.map((e) => ({ name: e.name, range: e.range, version: e.version })),
      producedByDeps: new Map([...produces].filter(([n]) => deps.has(n))),
      integrity: s.integrity,
      installDir: `${SKILLS_DIR.split('\\').join('/')}/${s.node.candidate.name}`,
      targets,
    });
  });
}

/** The staged nodes with the lock entry each gets (recomputed against the then-current lock at commit time). */
async function lockNodes(
  { index, raw, options, parts, lock, merged }: ReviewInput,
  reviewNodes: readonly ReviewNode[],
) {
  const nodes: StagedNode[] = [];
  for (const s of parts) {
    const c = s.node.candidate;
    const prior = lock.find((e) => e.name === c.name);
    const edges = s.node.edges.map((e) => `${e.name}@${e.range}`);
    const requested = s.node.requiredBy.map((r) => `${r.by.replace(/@[^@]*$/, '')}: ${r.range}`);
    const pin = (c.id === 'root' ? merged?.pin : undefined) ?? s.integrity;
    const entry: LockEntry | undefined = s.installed
      ? prior && { ...prior, ...mergeRequested(prior.requested, requested) }
      : {
          name: c.name,
          version: c.version,
          source: c.id === 'root' ? (options.lockSource ?? raw) : s.source.raw,
          integrity: pin,
          ...(c.id === 'root' && merged && merged.upstream !== pin ? { upstream: merged.upstream } : {}),
          resolved: s.source.canonical,
          ...(s.source.commit ? { commit: s.source.commit } : {}),
          ...(s.source.digest ? { digest: s.source.digest } : {}),
          ...(edges.length ? { dependencies: edges } : {}),
          ...(requested.length ? { requested } : {}),
          ...(c.id !== 'root' && prior?.direct !== true && (prior === undefined || prior.direct === false)
            ? { direct: false }
            : {}),
          executable: [...s.executable].sort(),
          ...ghLockField(s.skill),
          ...pluginField(
            c.id === 'root'
              ? (options.plugin?.provenance ?? (options.replacing !== undefined ? prior?.plugin : undefined))
              : undefined,
          ),
          ...verifiedPin(reviewNodes.find((n) => n.name === c.name)?.signature),
        };
    nodes.push({
      name: c.name,
      version: c.version,
      ...(s.dir ? { stagedDir: s.dir } : {}),
      executable: s.executable,
      baseline: s.dir ? await installedHash(index.root, c.name) : null,
      integrity: s.integrity,
      ...(entry ? { entry } : {}),
      skill: s.skill,
    });
  }
  return nodes;
}

/** An update keeps the plugin identity the install recorded: it refetches the skill's own source (SPEC D312). */
const pluginField = (plugin: LockEntry['plugin']): { plugin?: NonNullable<LockEntry['plugin']> } =>
  plugin ? { plugin } : {};

function mergeRequested(prior: readonly string[] | undefined, add: readonly string[]): { requested?: string[] } {
  const all = [...new Set([...(prior ?? []), ...add])];
  return all.length ? { requested: all } : {};
}

/** Whether anything is at `p` (`follow`: through a symlink, as existsSync answers). */
export async function present(p: string, follow = false): Promise<boolean> {
  try {
    await (follow ? stat(p) : lstat(p));
    return true;
  } catch {
    return false;
  }
}

/** Tree hash of an installed folder, or null when there is none (an unreadable folder counts as changed). */
export async function installedHash(project: string, name: string): Promise<string | null> {
  const dir = join(project, SKILLS_DIR, name);
  if (!(await present(dir, true))) return null;
  const tree = await readSkillTreeAsync(dir, name);
  return tree.ok ? treeIntegrityFast(tree.value) : 'unreadable';
}

/**
 * The compile plan of the project once `incoming` replaces or joins the installed skills,
 * or why it cannot be made (a bad kitbash.toml: the review then says so).
 */
async function compilePreview(
  index: ProjectIndex,
  incoming: readonly { name: string; tree: SkillTree }[],
): Promise<{ planned: PlannedCompile } | { error: string }> {
  try {
    return { planned: await planChange(index.root, { put: incoming }, index) };
  } catch (e) {
    return { error: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
}

/** What a review shows of a compile plan. */
export function compileSummary(plan: CompilePlan): NonNullable<InstallReview['compile']> {
  return {
    writes: [...plan.write, ...plan.merge].filter((f) => f.changed).map((f) => f.path),
    prunes: plan.prune.map((p) => p.path),
    errors: [...plan.errors],
  };
}

function failedSummary(error: string): NonNullable<InstallReview['compile']> {
  return { writes: [], prunes: [], errors: [error] };
}

/** The project's active compile targets, for where each permission and power holds (none when the selection fails). */
async function activeTargets(view: AsyncDiskView, config: ProjectConfig): Promise<readonly TargetDef[]> {
  const sel = await view.settle((v) => resolveTargets(v, config.targets));
  return sel.ok ? sel.value.targets : [];
}

import { plural } from '../../../shared/text/format';
import { randomBytes } from 'node:crypto';
import { lstat, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CodedError, formatError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { SkillTree } from '../../../shared/ksf/tree';
import { lintSkill } from '../../../shared/lint/checks';
import { upsertEntry, type LockEntry } from '../../../shared/lock/lockfile';
import {
  reviewBlockers,
  reviewIntegrity,
  reviewNode,
  REVIEW_SCHEMA,
  type Approval,
  type InstallReview,
  type ReviewNode,
  type ReviewSource,
} from '../../../shared/lock/review';
import { enforceInAgent, type ProjectConfig } from '../../../shared/project/config';
import { readCatalogs } from '../../../shared/project/sources';
import { sourceViolations } from '../../../shared/policy/policy';
import type { Candidate, Resolution } from '../../../shared/resolve/resolve';
import type { CompilePlan } from '../../../shared/compile/plan';
import type { TargetDef } from '../../../shared/targets/types';
import { resolveTargets } from '../../../shared/targets/registry';
import { treeIntegrityFast } from '../lock';
import { readProjectConfig } from '../project/config';
import { loadFolderAsync } from '../skills/folder';
import { mapLimit, READ_LANES } from '../skills/limit';
import { SKILLS_DIR } from '../skills/locate';
import { withProjectIndex, type ProjectIndex } from '../skills/project-index';
import { readSkillTreeAsync } from '../skills/reader';
import { makeStagingDir, openSource, stageSkill, type Checkout } from '../sources';
import { AsyncDiskView } from '../workspace/disk-view';
import { faultPoint } from '../workspace/fault';
import { planChange, projectConfigAsync, type PlannedCompile } from '../workspace/recompile';
import { applyChange, OWN_FOLDERS, recover } from '../workspace/txn';
import { assertOwnFoldersInside } from '../fs/inside';
import { installedCandidates, openCatalog, siblingCandidates, type CandidateOrigin } from './candidates';
import { probeEnforcement } from './enforcement';
import { verifiedPin, withSignatures } from '../signing/review';
import { withScanners } from '../scanners/review';

/** One staged skill: the private copy the review describes and the commit installs. */
export interface StagedNode {
  readonly name: string;
  readonly version: string;
  /** Absent for a dependency that is already installed (nothing is written for it). */
  readonly stagedDir?: string;
  /** Staged files with an execute bit ('/'-separated). */
  readonly executable: readonly string[];
  /** What `.kitbash/skills/<name>/` held when the review was made: its tree hash, or null when absent. */
  readonly baseline: string | null;
  readonly integrity: string;
  /**
   * Its lock entry after commit. Absent for an installed dependency that `kitbash.lock` does not
   * pin (copied in by hand): installing a dependent never vouches for bytes nobody reviewed, so
   * it stays unpinned until it is re-pinned after its own review (SPEC D155).
   */
  readonly entry?: LockEntry;
  readonly skill: Skill;
}

export interface StagedInstall {
  /** Opaque handle the desktop keeps between review and commit. */
  readonly id: string;
  readonly project: string;
  readonly review: InstallReview;
  readonly nodes: readonly StagedNode[];
  /**
   * The compile plan of the project once this is committed (absent when the caller will not
   * compile afterwards): the review's compile preview, and — while nothing it read has
   * changed — exactly what the recompile after the commit applies.
   */
  readonly planned?: PlannedCompile;
  /** The project index the review was made with; the commit tells it the lock it writes. */
  readonly index: ProjectIndex;
  /** Milliseconds per phase (fetch, candidates, resolve, stage, review), for diagnostics and the bench. */
  readonly timings: Readonly<Record<string, number>>;
  /** Remove the private staging folder. Safe to call twice. */
  dispose(): Promise<void>;
}

export interface StageOptions {
  /** Update: the installed skill of this name is being replaced (and may be re-resolved). */
  readonly replacing?: string;
  /** Source string to pin for the requested skill (defaults to the raw source). */
  readonly lockSource?: string;
  /** Review only (preview): do not refuse a source whose skill is already installed (commit still refuses). */
  readonly reviewOnly?: boolean;
  /** Installed skills the resolver may replace (update: dependencies installed only for the skill being updated). */
  readonly replaceable?: readonly string[];
  /**
   * The source, already opened (a pick of a multi-skill listing): staged from it, and left to the caller to dispose.
   */
  readonly checkout?: Checkout;
  /**
   * False when nothing will be compiled after the commit (`install --no-compile`): the
   * review then carries no compile preview, and reads nothing about the other skills
   * that the dependency resolution does not need.
   */
  readonly compile?: boolean;
}

/** kitbash.toml of the project; a malformed file throws its one-line error. */
export function projectConfigOrThrow(root: string): ProjectConfig {
  const c = readProjectConfig(root);
  if (!c.ok) throw new Error(formatError(c.error));
  return c.value;
}

function checkoutSource(co: Checkout, origin: string): ReviewSource {
  return {
    raw: co.spec.raw,
    canonical: co.canonical,
    kind: co.spec.kind,
    ...(co.commit ? { commit: co.commit } : {}),
    origin,
  };
}

/**
 * Fetch a source into a private staging folder, resolve its dependencies, and build the
 * review. Nothing in the project is written. The caller must `dispose()` the result.
 * Everything it reads goes through promises (git through an async child process), so the
 * app's main thread keeps serving the window during a clone.
 */
export async function stageInstall(project: string, raw: string, options: StageOptions = {}): Promise<StagedInstall> {
  return withProjectIndex(project, (index) => stageWith(index, raw, options));
}

async function stageWith(index: ProjectIndex, raw: string, options: StageOptions): Promise<StagedInstall> {
  const project = index.root;
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - mark) * 100) / 100;
    mark = now;
  };
  // The sandbox probe behind the review's enforcement labels runs while the source is fetched and staged.
  probeEnforcement();
  const config = await projectConfigAsync(project);
  // Refused before anything is fetched: the commit could not write through these anyway.
  assertOwnFoldersInside(project, OWN_FOLDERS);
  const lock = await index.lock();
  const co = options.checkout ?? (await openSource(raw, project));
  lap('fetch');
  const toDispose: Array<() => Promise<void>> = options.checkout ? [] : [() => co.dispose()];
  const staging = await makeStagingDir();
  let ok = false;
  try {
    // The requested skill is staged first (the caps apply before anything is read), then loaded from the copy.
    const rootStaged = await stageSkill(co.skillDir, staging.dir, '.requested', raw);
    const rootTree = await readSkillTreeAsync(rootStaged.dir, co.spec.raw);
    if (!rootTree.ok) throw new CodedError('invalid-input', formatError(rootTree.error));
    const rootSkill = loadFolderFromTree(rootTree.value, nameHintOf(co));
    const rootName = rootSkill.manifest.skill.name;
    const rootDir = join(staging.dir, rootName);
    await rename(rootStaged.dir, rootDir);
    faultPoint('install:staged');
    if (
      options.replacing === undefined &&
      !options.reviewOnly &&
      (await present(join(project, SKILLS_DIR, rootName), true))
    ) {
      throw new CodedError(
        'invalid-input',
        `${rootName} is already installed. To reinstall: skillsmith remove ${rootName} && skillsmith install ${raw}`,
      );
    }
    if (options.replacing !== undefined && options.replacing !== rootName) {
      throw new CodedError(
        'invalid-input',
        `${options.replacing}: the source now names itself "${rootName}" — skillsmith remove ${options.replacing} && skillsmith install ${raw}`,
      );
    }
    const rootCandidate: Candidate = {
      id: 'root',
      name: rootName,
      version: rootSkill.manifest.skill.version,
      dependencies: rootSkill.manifest.dependencies,
      origin: 'requested',
    };

    // Candidates, only when there is something to resolve.
    const origins = new Map<string, CandidateOrigin>();
    const byName = new Map<string, Candidate[]>();
    if (Object.keys(rootSkill.manifest.dependencies).length > 0) {
      const pools: CandidateOrigin[][] = [await siblingCandidates(co)];
      const cats = readCatalogs(config.raw);
      if (!cats.ok) throw new Error(cats.error.message);
      for (const cat of cats.value) {
        const opened = await openCatalog(cat, project);
        toDispose.push(() => opened.dispose());
        pools.push(opened.candidates);
      }
      const free = new Set([options.replacing, ...(options.replaceable ?? [])]);
      const installed = (await installedCandidates(index)).filter((c) => !free.has(c.candidate.name));
      const installedNames = new Set(installed.map((c) => c.candidate.name));
      for (const c of pools.flat()) {
        if (installedNames.has(c.candidate.name) || c.candidate.name === rootName) continue;
        origins.set(c.candidate.id, c);
        byName.set(c.candidate.name, [...(byName.get(c.candidate.name) ?? []), c.candidate]);
      }
      for (const c of installed) {
        origins.set(c.candidate.id, c);
        byName.set(c.candidate.name, [c.candidate]);
      }
    }
    lap('candidates');
    // A skill with no dependencies is its own closure; the resolver (and semver, which it
    // loads) is only brought in when there is something to resolve.
    const resolution: Resolution =
      Object.keys(rootCandidate.dependencies).length === 0
        ? { ok: true, value: [{ candidate: rootCandidate, requiredBy: [], edges: [] }] }
        : (await import('../../../shared/resolve/resolve')).resolveClosure(rootCandidate, byName);
    lap('resolve');
    if (!resolution.ok) throw new CodedError('invalid-input', resolution.error.message);

    // Stage every node that is not already installed, then load, lint and hash the staged copy.
    const ordered = [...resolution.value].reverse(); // root first, then dependencies
    const produces = new Map<string, readonly string[]>();
    const staged: Array<{
      node: (typeof ordered)[number];
      skill: Skill;
      dir?: string;
      executable: readonly string[];
      integrity: string;
      source: ReviewSource;
      installed: boolean;
      origin?: CandidateOrigin;
    }> = [];
    // Each node is staged, read and loaded concurrently (a closure can hold hundreds); a
    // failure is reported for the first node in order, as if they had run one by one.
    const loaded = await mapLimit(
      ordered,
      READ_LANES,
      async (
        node,
      ): Promise<
        { ok: true; skill: Skill; dir?: string; executable: readonly string[] } | { ok: false; error: unknown }
      > => {
        try {
          const c = node.candidate;
          const origin = c.id === 'root' ? undefined : origins.get(c.id);
          if (origin?.installed === true) {
            const l = await loadFolderAsync(await origin.dir(), c.name, c.name);
            if (!l.ok) throw CodedError.of(l.error);
            return { ok: true, skill: l.value, executable: [] };
          }
          if (c.id === 'root') return { ok: true, skill: rootSkill, dir: rootDir, executable: rootStaged.executable };
          const st = await stageSkill(await origin!.dir(), staging.dir, c.name, `${c.name} (${origin!.source})`);
          const tree = await readSkillTreeAsync(st.dir, c.name);
          if (!tree.ok) throw new CodedError('invalid-input', formatError(tree.error));
          const skill = loadFolderFromTree(tree.value, c.name);
          if (skill.manifest.skill.name !== c.name || skill.manifest.skill.version !== c.version) {
            throw new CodedError(
              'invalid-input',
              `${c.name}: the source changed while it was being staged — try again`,
            );
          }
          return { ok: true, skill, dir: st.dir, executable: st.executable };
        } catch (error) {
          return { ok: false, error };
        }
      },
    );
    const failed = loaded.find((l) => !l.ok);
    if (failed && !failed.ok) throw failed.error;
    ordered.forEach((node, i) => {
      const l = loaded[i]!;
      if (!l.ok) return;
      const { skill, dir, executable } = l;
      const c = node.candidate;
      const origin = c.id === 'root' ? undefined : origins.get(c.id);
      const installed = origin?.installed === true;
      const integrity = treeIntegrityFast(skill.tree);
      produces.set(c.name, skill.manifest.artifacts.produces);
      const pin = installed ? lock.entries.find((e) => e.name === c.name) : undefined;
      const source: ReviewSource =
        c.id === 'root'
          ? checkoutSource(co, 'requested')
          : installed
            ? { raw: pin?.source ?? '', canonical: pin?.resolved ?? '', kind: 'local', origin: 'installed' }
            : {
                raw: origin!.source,
                canonical: origin!.canonical,
                kind: origin!.kind,
                ...(origin!.commit ? { commit: origin!.commit } : {}),
                origin: c.origin,
              };
      staged.push({
        node,
        skill,
        ...(dir ? { dir } : {}),
        executable,
        integrity,
        source,
        installed,
        ...(origin ? { origin } : {}),
      });
    });

    lap('stage');
    // Transitive dependencies of each node, for consumes ← produces.
    const nodeByName = new Map(resolution.value.map((x) => [x.candidate.name, x]));
    const depsOf = (name: string, acc = new Set<string>()): Set<string> => {
      const n = nodeByName.get(name);
      for (const e of n?.edges ?? []) if (!acc.has(e.name)) depsOf(e.name, acc.add(e.name));
      return acc;
    };
    // The active compile targets decide what of each skill's powers reaches which agent.
    const targets = await activeTargets(new AsyncDiskView(project), config);
    const unsigned: ReviewNode[] = staged.map((s) => {
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

    const signed = withSignatures(
      project,
      config.raw,
      unsigned,
      staged.map((s) => s.dir),
    );
    const scanned = await withScanners(
      project,
      config,
      signed.nodes,
      staged.map((s) => (s.dir !== undefined ? { dir: s.dir, skill: s.skill } : undefined)),
    );
    const reviewNodes = scanned.nodes;

    // The lock after commit (recomputed against the then-current lock at commit time).
    const nodes: StagedNode[] = [];
    for (const s of staged) {
      const c = s.node.candidate;
      const prior = lock.entries.find((e) => e.name === c.name);
      const edges = s.node.edges.map((e) => `${e.name}@${e.range}`);
      const requested = s.node.requiredBy.map((r) => `${r.by.replace(/@[^@]*$/, '')}: ${r.range}`);
      const entry: LockEntry | undefined = s.installed
        ? prior && { ...prior, ...mergeRequested(prior.requested, requested) }
        : {
            name: c.name,
            version: c.version,
            source: c.id === 'root' ? (options.lockSource ?? raw) : s.source.raw,
            integrity: s.integrity,
            resolved: s.source.canonical,
            ...(s.source.commit ? { commit: s.source.commit } : {}),
            ...(edges.length ? { dependencies: edges } : {}),
            ...(requested.length ? { requested } : {}),
            ...(c.id !== 'root' && prior?.direct !== true && (prior === undefined || prior.direct === false)
              ? { direct: false }
              : {}),
            executable: [...s.executable].sort(),
            ...verifiedPin(reviewNodes.find((n) => n.name === c.name)?.signature),
          };
      nodes.push({
        name: c.name,
        version: c.version,
        ...(s.dir ? { stagedDir: s.dir } : {}),
        executable: s.executable,
        baseline: s.dir ? await installedHash(project, c.name) : null,
        integrity: s.integrity,
        ...(entry ? { entry } : {}),
        skill: s.skill,
      });
    }

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
            staged.flatMap((x) => (x.dir !== undefined ? [{ name: x.node.candidate.name, tree: x.skill.tree }] : [])),
          );
    const planned = preview && 'planned' in preview ? preview.planned : undefined;
    const review: InstallReview = {
      schema: REVIEW_SCHEMA,
      kind: options.replacing !== undefined ? 'update' : 'install',
      root: rootName,
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
      integrity: reviewIntegrity(reviewNodes),
    };
    lap('review');
    ok = true;
    return {
      id: randomBytes(8).toString('hex'),
      project,
      review,
      nodes,
      ...(planned ? { planned } : {}),
      index,
      timings,
      dispose: () => staging.dispose(),
    };
  } finally {
    for (const d of toDispose) await d();
    if (!ok) await staging.dispose();
  }
}

function mergeRequested(prior: readonly string[] | undefined, add: readonly string[]): { requested?: string[] } {
  const all = [...new Set([...(prior ?? []), ...add])];
  return all.length ? { requested: all } : {};
}

/** Whether anything is at `p` (`follow`: through a symlink, as existsSync answers). */
async function present(p: string, follow = false): Promise<boolean> {
  try {
    await (follow ? stat(p) : lstat(p));
    return true;
  } catch {
    return false;
  }
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

export function failedSummary(error: string): NonNullable<InstallReview['compile']> {
  return { writes: [], prunes: [], errors: [error] };
}

/** The project's active compile targets, for where each permission and power holds (none when the selection fails). */
async function activeTargets(view: AsyncDiskView, config: ProjectConfig): Promise<readonly TargetDef[]> {
  const sel = await view.settle((v) => resolveTargets(v, config.targets));
  return sel.ok ? sel.value.targets : [];
}

export function loadFolderFromTree(tree: SkillTree, name: string): Skill {
  const l = loadSkill(tree, { nameHint: name });
  if (!l.ok) throw new CodedError('invalid-input', formatError(l.error));
  return l.value;
}

/** The folder name a bare skill is named after: the subpath's last segment, else the repository's name. */
function nameHintOf(co: Checkout): string {
  const last = co.subpath.split('/').filter(Boolean).pop();
  if (last && co.spec.kind !== 'local') return last;
  if (co.spec.kind === 'github') return co.spec.repo;
  if (co.spec.kind === 'git')
    return (co.spec.url.replace(/\/+$/, '').split(/[/:]/).pop() ?? 'skill').replace(/\.git$/, '');
  return last ?? 'skill';
}

/** Tree hash of an installed folder, or null when there is none (an unreadable folder counts as changed). */
async function installedHash(project: string, name: string): Promise<string | null> {
  const dir = join(project, SKILLS_DIR, name);
  if (!(await present(dir, true))) return null;
  const tree = await readSkillTreeAsync(dir, name);
  return tree.ok ? treeIntegrityFast(tree.value) : 'unreadable';
}

/**
 * Install exactly what was reviewed: the approval must name the review's hash, every
 * staged tree must still hash to what the review showed, and nothing may block it.
 * Call it holding the project lock.
 */
export async function commitInstall(
  staged: StagedInstall,
  approval: Approval,
  step = 'install',
): Promise<{ installed: string[] }> {
  const { review, project } = staged;
  if (approval.integrity !== review.integrity)
    throw new CodedError(
      'forbidden',
      `the approval names ${approval.integrity}, but the review is ${review.integrity} — nothing installed`,
    );
  if (review.blockers.length > 0)
    throw new CodedError(
      'forbidden',
      `blocked — ${plural(review.blockers.length, 'safety or policy finding')}; nothing installed`,
    );
  // Re-read and re-hash every staged tree; what gets written is these verified bytes.
  const verified = new Map<string, SkillTree>();
  for (const n of staged.nodes) {
    if (!n.stagedDir) continue;
    const tree = await readSkillTreeAsync(n.stagedDir, n.name);
    const now = tree.ok ? treeIntegrityFast(tree.value) : 'unreadable';
    if (now !== n.integrity || !tree.ok)
      throw new CodedError(
        'forbidden',
        `${n.name}: the staged files changed after the review (now ${now}) — nothing installed`,
      );
    verified.set(n.name, tree.value);
  }
  await recover(project);
  const { index } = staged;
  try {
    const current = await index.lock();
    let entries: LockEntry[] = [...current.entries];
    const put = new Map<string, { tree: SkillTree; executable: ReadonlySet<string> }>();
    for (const n of staged.nodes) {
      if (n.stagedDir) {
        // The review described a change from what was installed then; refuse if another command moved it since.
        if ((await installedHash(project, n.name)) !== n.baseline) {
          throw new CodedError(
            'forbidden',
            `${n.name} was ${n.baseline === null ? 'installed' : 'changed'} by another command since the review — nothing installed; review again`,
          );
        }
        put.set(n.name, { tree: verified.get(n.name)!, executable: new Set(n.executable) });
      }
      if (!n.entry) continue;
      const prior = entries.find((e) => e.name === n.name);
      entries = upsertEntry(
        entries,
        n.stagedDir || !prior ? n.entry : { ...prior, ...(n.entry.requested ? { requested: n.entry.requested } : {}) },
      );
    }
    await applyChange(project, { put, remove: [], lock: entries }, step, index);
    return { installed: [...put.keys()] };
  } finally {
    await index.save();
  }
}

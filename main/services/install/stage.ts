import { plural } from '../../../shared/text/format';
import { randomBytes } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { CodedError, formatError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { SkillTree } from '../../../shared/ksf/tree';
import { upsertEntry, type LockEntry } from '../../../shared/lock/lockfile';
import type { Approval, InstallReview, ReviewSource } from '../../../shared/lock/review';
import type { PluginPick } from '../../../shared/lock/marketplace';
import type { ProjectConfig } from '../../../shared/project/config';
import { readCatalogs } from '../../../shared/project/sources';
import type { Candidate, Resolution } from '../../../shared/resolve/resolve';
import { treeIntegrityFast } from '../lock';
import { readProjectConfig } from '../project/config';
import { loadFolderAsync } from '../skills/folder';
import { mapLimit, READ_LANES } from '../skills/limit';
import { SKILLS_DIR } from '../skills/locate';
import { withProjectIndex, type ProjectIndex } from '../skills/project-index';
import { readSkillTreeAsync } from '../skills/reader';
import { makeStagingDir, openSource, stageSkill, type Checkout } from '../sources';
import { faultPoint } from '../workspace/fault';
import { projectConfigAsync, type PlannedCompile } from '../workspace/recompile';
import { applyChange, OWN_FOLDERS, recover } from '../workspace/txn';
import { assertOwnFoldersInside } from '../fs/inside';
import { installedCandidates, openCatalog, siblingCandidates, type CandidateOrigin } from './candidates';
import { probeEnforcement } from './enforcement';
import {
  buildReview,
  checkoutSource,
  installedHash,
  present,
  type ResolvedNode,
  type StagedPart,
} from './stage-review';

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
  /**
   * Update over local edits: turns the staged upstream copy in `dir` into the merged folder
   * before anything reads it, so the review, its checks and the pin are of the merged bytes.
   */
  readonly merge?: (dir: string) => Promise<StagedMerge>;
  /** The plugin the requested skill is picked from: its identity pinned, its other powers reviewed (SPEC D312–D313). */
  readonly plugin?: PluginPick;
}

/** What a merge made of the staged copy: its execute bits, the upstream hash, and the pin when not the merged bytes. */
export interface StagedMerge {
  readonly executable: readonly string[];
  readonly upstream: string;
  /** Pinned instead of the merged hash (the upstream's, while conflicts are left to resolve). */
  readonly pin?: string;
}

/** kitbash.toml of the project; a malformed file throws its one-line error. */
export function projectConfigOrThrow(root: string): ProjectConfig {
  const c = readProjectConfig(root);
  if (!c.ok) throw new Error(formatError(c.error));
  return c.value;
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

/** The requested skill, staged into `staging` and loaded from the copy, under its own name. */
interface StagedRoot {
  readonly skill: Skill;
  readonly name: string;
  readonly dir: string;
  readonly executable: readonly string[];
  /** What an update's merge over local edits made of the staged copy. */
  readonly merged?: StagedMerge;
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
    const root = await stageRoot(project, co, staging.dir, raw, options);
    const rootCandidate: Candidate = {
      id: 'root',
      name: root.name,
      version: root.skill.manifest.skill.version,
      dependencies: root.skill.manifest.dependencies,
      origin: 'requested',
    };
    const { origins, byName } = await gatherCandidates(index, co, config, root.name, rootCandidate, options, toDispose);
    lap('candidates');
    // A skill with no dependencies is its own closure; the resolver (and semver, which it
    // loads) is only brought in when there is something to resolve.
    const resolution: Resolution =
      Object.keys(rootCandidate.dependencies).length === 0
        ? { ok: true, value: [{ candidate: rootCandidate, requiredBy: [], edges: [] }] }
        : (await import('../../../shared/resolve/resolve')).resolveClosure(rootCandidate, byName);
    lap('resolve');
    if (!resolution.ok) throw new CodedError('invalid-input', resolution.error.message);
    const parts = await stageClosure(resolution.value, origins, root, staging.dir, co, lock.entries);
    lap('stage');
    const built = await buildReview({
      index,
      config,
      co,
      raw,
      options,
      rootName: root.name,
      resolution: resolution.value,
      parts,
      lock: lock.entries,
      ...(root.merged ? { merged: root.merged } : {}),
    });
    lap('review');
    ok = true;
    return {
      id: randomBytes(8).toString('hex'),
      project,
      review: built.review,
      nodes: built.nodes,
      ...(built.planned ? { planned: built.planned } : {}),
      index,
      timings,
      dispose: () => staging.dispose(),
    };
  } finally {
    for (const d of toDispose) await d();
    if (!ok) await staging.dispose();
  }
}

/**
 * Stage the requested skill first (the caps apply before anything is read), load it from
 * the copy, and refuse it when it is already installed or no longer the skill being updated.
 */
async function stageRoot(
  project: string,
  co: Checkout,
  stagingDir: string,
  raw: string,
  options: StageOptions,
): Promise<StagedRoot> {
  let rootStaged = await stageSkill(co.skillDir, stagingDir, '.requested', raw);
  // An update over local edits merges before anything reads the copy: the review, its
  // checks and the pin are then of the merged bytes.
  const merged = options.merge ? await options.merge(rootStaged.dir) : undefined;
  if (merged) rootStaged = { dir: rootStaged.dir, executable: merged.executable };
  const rootTree = await readSkillTreeAsync(rootStaged.dir, co.spec.raw);
  if (!rootTree.ok) throw new CodedError('invalid-input', formatError(rootTree.error));
  const skill = loadFolderFromTree(rootTree.value, nameHintOf(co));
  const name = skill.manifest.skill.name;
  const dir = join(stagingDir, name);
  await rename(rootStaged.dir, dir);
  faultPoint('install:staged');
  if (
    options.replacing === undefined &&
    !options.reviewOnly &&
    (await present(join(project, SKILLS_DIR, name), true))
  ) {
    throw new CodedError(
      'invalid-input',
      `${name} is already installed. To reinstall: skillsmith remove ${name} && skillsmith install ${raw}`,
    );
  }
  if (options.replacing !== undefined && options.replacing !== name) {
    throw new CodedError(
      'invalid-input',
      `${options.replacing}: the source now names itself "${name}" — skillsmith remove ${options.replacing} && skillsmith install ${raw}`,
    );
  }
  return { skill, name, dir, executable: rootStaged.executable, ...(merged ? { merged } : {}) };
}

/**
 * The candidates the resolver may pick from — the source's other skills, the `[sources]`
 * catalogs, and the installed skills (which win over any other of their name) — only
 * when the requested skill has dependencies.
 */
async function gatherCandidates(
  index: ProjectIndex,
  co: Checkout,
  config: ProjectConfig,
  rootName: string,
  root: Candidate,
  options: StageOptions,
  toDispose: Array<() => Promise<void>>,
): Promise<{ origins: Map<string, CandidateOrigin>; byName: Map<string, Candidate[]> }> {
  const origins = new Map<string, CandidateOrigin>();
  const byName = new Map<string, Candidate[]>();
  if (Object.keys(root.dependencies).length === 0) return { origins, byName };
  const pools: CandidateOrigin[][] = [await siblingCandidates(co)];
  const cats = readCatalogs(config.raw);
  if (!cats.ok) throw new Error(cats.error.message);
  for (const cat of cats.value) {
    const opened = await openCatalog(cat, index.root);
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
  return { origins, byName };
}

/**
 * Stage every node of the closure that is not already installed, then load, lint and hash
 * the staged copy. Nodes run concurrently (a closure can hold hundreds); a failure is
 * reported for the first node in order, as if they had run one by one. Root first.
 */
async function stageClosure(
  resolved: readonly ResolvedNode[],
  origins: ReadonlyMap<string, CandidateOrigin>,
  root: StagedRoot,
  stagingDir: string,
  co: Checkout,
  lock: readonly LockEntry[],
): Promise<StagedPart[]> {
  const ordered = [...resolved].reverse(); // root first, then dependencies
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
        if (c.id === 'root') return { ok: true, skill: root.skill, dir: root.dir, executable: root.executable };
        const st = await stageSkill(await origin!.dir(), stagingDir, c.name, `${c.name} (${origin!.source})`);
        const tree = await readSkillTreeAsync(st.dir, c.name);
        if (!tree.ok) throw new CodedError('invalid-input', formatError(tree.error));
        const skill = loadFolderFromTree(tree.value, c.name);
        if (skill.manifest.skill.name !== c.name || skill.manifest.skill.version !== c.version) {
          throw new CodedError('invalid-input', `${c.name}: the source changed while it was being staged — try again`);
        }
        return { ok: true, skill, dir: st.dir, executable: st.executable };
      } catch (error) {
        return { ok: false, error };
      }
    },
  );
  const failed = loaded.find((l) => !l.ok);
  if (failed && !failed.ok) throw failed.error;
  return ordered.flatMap((node, i): StagedPart[] => {
    const l = loaded[i]!;
    if (!l.ok) return [];
    const c = node.candidate;
    const origin = c.id === 'root' ? undefined : origins.get(c.id);
    const installed = origin?.installed === true;
    const pin = installed ? lock.find((e) => e.name === c.name) : undefined;
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
    return [
      {
        node,
        skill: l.skill,
        ...(l.dir ? { dir: l.dir } : {}),
        executable: l.executable,
        integrity: treeIntegrityFast(l.skill.tree),
        source,
        installed,
      },
    ];
  });
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
  return commitInstalls([{ staged, approval }], step);
}

/**
 * Several reviewed installs committed as one change: one transaction, one lock write.
 * Each must pass commitInstall's checks; a skill two of them bring must be the same bytes
 * in both (the batch install refuses a pick that disagrees before asking). A skill that is
 * both picked and another pick's dependency keeps the lock entry of its own pick.
 */
export async function commitInstalls(
  batch: readonly { staged: StagedInstall; approval: Approval }[],
  step = 'install',
): Promise<{ installed: string[] }> {
  if (batch.length === 0) return { installed: [] };
  for (const { staged, approval } of batch) refuseUnapproved(staged.review, approval);
  const picked = new Set(batch.map((b) => b.staged.nodes[0]!.name));
  const nodes = batch.flatMap((b) => b.staged.nodes.map((n, i) => ({ n, requested: i === 0 })));
  const verified = await verifyStaged(nodes.map((x) => x.n));
  const { project, index } = batch[0]!.staged;
  await recover(project);
  try {
    const current = await index.lock();
    let entries: LockEntry[] = [...current.entries];
    const put = new Map<string, { tree: SkillTree; executable: ReadonlySet<string> }>();
    for (const { n, requested } of nodes) {
      if (n.stagedDir && !put.has(n.name)) {
        // The review described a change from what was installed then; refuse if another command moved it since.
        if ((await installedHash(project, n.name)) !== n.baseline) {
          throw new CodedError(
            'forbidden',
            `${n.name} was ${n.baseline === null ? 'installed' : 'changed'} by another command since the review — nothing installed; review again`,
          );
        }
        put.set(n.name, { tree: verified.get(n.name)!, executable: new Set(n.executable) });
      }
      if (!n.entry || (!requested && picked.has(n.name))) continue;
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

function refuseUnapproved(review: InstallReview, approval: Approval): void {
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
}

/** Re-read and re-hash every staged tree; what gets written is these verified bytes. */
async function verifyStaged(nodes: readonly StagedNode[]): Promise<Map<string, SkillTree>> {
  const verified = new Map<string, SkillTree>();
  for (const n of nodes) {
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
  return verified;
}

import { join } from 'node:path';
import { fileChanges, manifestDelta, type FileChange } from '../../../shared/lock/changes';
import { nodePowers, powersDelta } from '../../../shared/lock/powers';
import { IMPORT_SOURCE, type LockEntry } from '../../../shared/lock/lockfile';
import type { InstallReview } from '../../../shared/lock/review';
import type { SkillTree } from '../../../shared/ksf/tree';
import { readLockAsyncOrThrow, treeIntegrityFast } from '../lock';
import { SKILLS_DIR } from '../skills/locate';
import { readSkillTreeAsync } from '../skills/reader';
import { loadFolderAsync } from '../skills/folder';
import { loadFolderFromTree, stageInstall, type StagedInstall } from './stage';
import type { Skill } from '../../../shared/ksf/model';
import { conflictMarkers, type Prefer } from '../../../shared/lock/merge';
import { conflictsOf, describeMerge, mergeHook, type MergeReport } from './merge';

export type UpdateCheck =
  | { kind: 'up-to-date'; entry: LockEntry; note?: string }
  | { kind: 'failed'; entry: LockEntry; message: string }
  | {
      kind: 'changed';
      entry: LockEntry;
      staged: StagedInstall;
      review: InstallReview;
      /** The installed copy differs from the upstream it was pinned from (so the update merges). */
      localEdits: boolean;
      /** The upstream's folder (or a dependency) changed since the pin, not only the local copy. */
      upstreamMoved: boolean;
      installedTree: SkillTree;
      files: FileChange[];
      merge?: MergeReport;
    };

export interface CheckOptions {
  readonly compile?: boolean;
  /** Settles conflicts (and a base that cannot be recovered): `--ours` / `--theirs`. */
  readonly prefer?: Prefer;
  /** Compare with upstream only: no merge, no base fetched (`outdated`). */
  readonly merge?: false;
}

/**
 * Refetch one pinned skill and compare it with the installed copy. A change comes back
 * staged, with the full review (manifest delta with escalations, file changes, the new
 * dependency closure); the caller decides, then commits through the install path.
 */
export async function checkUpdate(root: string, entry: LockEntry, options: CheckOptions = {}): Promise<UpdateCheck> {
  const dir = join(root, SKILLS_DIR, entry.name);
  const installed = await loadFolderAsync(dir, entry.name, entry.name);
  const tree = await readSkillTreeAsync(dir, entry.name);
  if (!tree.ok)
    return {
      kind: 'failed',
      entry,
      message: `${entry.name}: pinned in kitbash.lock but not installed — skillsmith install ${entry.source}`,
    };
  if (entry.source === IMPORT_SOURCE || entry.source === '')
    return {
      kind: 'up-to-date',
      entry,
      note: `${entry.name}: imported in this project (${entry.source || 'no source'}) — nothing to refetch`,
    };
  const lock = (await readLockAsyncOrThrow(root)).entries;
  // Dependencies installed only because of this skill may move with it.
  const replaceable = lock
    .filter((e) => e.direct === false && (e.requested ?? []).every((r) => r.startsWith(`${entry.name}:`)))
    .map((e) => e.name);
  const installedHash = treeIntegrityFast(tree.value);
  // What the installed copy is measured against: the upstream it came from, not a merged pin.
  const upstream = entry.upstream ?? entry.integrity;
  const localEdits = installedHash !== upstream;
  let merge: MergeReport | undefined;
  let staged: StagedInstall;
  try {
    staged = await stageInstall(root, entry.source, {
      replacing: entry.name,
      lockSource: entry.source,
      replaceable,
      ...(options.compile === false ? { compile: false } : {}),
      ...(localEdits && options.merge !== false
        ? { merge: mergeHook(root, entry, tree.value, options.prefer, (r) => (merge = r)) }
        : {}),
    });
  } catch (e) {
    return {
      kind: 'failed',
      entry,
      message: `${entry.name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
    };
  }
  const rootNode = staged.nodes[0]!;
  const depsChanged = staged.nodes.some(
    (n, i) => i > 0 && n.stagedDir !== undefined && lock.find((e) => e.name === n.name)?.integrity !== n.integrity,
  );
  const upstreamMoved = depsChanged || (merge ? !merge.upstreamUnchanged : rootNode.integrity !== upstream);
  const current = merge ? installedHash === entry.integrity : installedHash === rootNode.integrity;
  if ((current && !upstreamMoved) || (options.merge === false && !upstreamMoved)) {
    await staged.dispose();
    return { kind: 'up-to-date', entry };
  }
  const files = fileChanges(tree.value, rootNode.skill.tree);
  const scripts = (t: SkillTree) =>
    t.entries.filter((e) => e.kind !== 'dir' && e.path.startsWith('scripts/')).map((e) => e.path);
  // Hooks, tool grants and load-time commands are compared by what some agent acts on once compiled.
  // Over local edits the "before" is the reviewed base, not the edited copy: an edit that asks
  // for more is an escalation of this review too, never vouched for by --yes (SPEC D302).
  const before = merge?.base ? baseSkill(merge.base, entry.name) : undefined;
  const was = before ?? (installed.ok ? { skill: installed.value, tree: tree.value } : undefined);
  const changes = was
    ? [
        ...manifestDelta(was.skill.manifest, rootNode.skill.manifest, {
          before: scripts(was.tree),
          after: scripts(rootNode.skill.tree),
        }),
        ...powersDelta(nodePowers(was.skill, []).carried, staged.review.nodes[0]!.powers.carried, {
          manifested: rootNode.skill.manifested,
        }),
      ]
    : [];
  const notices = [...staged.review.notices];
  const blockers = [...staged.review.blockers];
  if (merge) {
    const conflicts = conflictsOf(merge);
    notices.unshift(
      `${entry.name}: local edits kept — merged with upstream ${merge.based ? 'over the installed version' : 'without a base (no installed version to merge over)'}; your copy is backed up under .kitbash/backups/${entry.name}/ before anything is written`,
      ...describeMerge(merge).map((l) => `${entry.name}: ${l}`),
    );
    if (conflicts.length)
      notices.push(
        `${entry.name}: not delivered until the conflicts are resolved — edit ${conflicts.join(', ')}, then run skillsmith update ${entry.name} to review and pin the result`,
      );
    // Markers the user has not resolved yet are never pinned (a half-merged skill is not delivered).
    else
      for (const at of conflictMarkers(rootNode.skill.tree))
        blockers.push(`${entry.name}: unresolved merge-conflict marker at ${at} — resolve it first`);
  }
  const newDeps = staged.review.nodes.filter((n) => n.role === 'dependency' && !lock.some((e) => e.name === n.name));
  for (const d of newDeps) notices.push(`new dependency: ${d.name}@${d.version} from ${d.source.raw}`);
  const review: InstallReview = {
    ...staged.review,
    notices,
    blockers,
    changes: changes.map((c) => ({
      field: c.field,
      before: c.before,
      after: c.after,
      escalation: c.escalation,
      line: c.line,
    })),
    fileChanges: files.map((f) => ({ path: f.path, change: f.change })),
  };
  return {
    kind: 'changed',
    entry,
    staged,
    review,
    localEdits,
    upstreamMoved,
    installedTree: tree.value,
    files,
    ...(merge ? { merge } : {}),
  };
}

/** The base of a merge as a loaded skill; undefined when it does not load (then the installed copy is compared). */
function baseSkill(tree: SkillTree, name: string): { skill: Skill; tree: SkillTree } | undefined {
  try {
    return { skill: loadFolderFromTree(tree, name), tree };
  } catch {
    return undefined;
  }
}

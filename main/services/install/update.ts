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
import { stageInstall, type StagedInstall } from './stage';

export type UpdateCheck =
  | { kind: 'up-to-date'; entry: LockEntry; note?: string }
  | { kind: 'failed'; entry: LockEntry; message: string }
  | {
      kind: 'changed';
      entry: LockEntry;
      staged: StagedInstall;
      review: InstallReview;
      localEdits: boolean;
      installedTree: SkillTree;
      files: FileChange[];
    };

/**
 * Refetch one pinned skill and compare it with the installed copy. A change comes back
 * staged, with the full review (manifest delta with escalations, file changes, the new
 * dependency closure); the caller decides, then commits through the install path.
 */
export async function checkUpdate(
  root: string,
  entry: LockEntry,
  options: { compile?: boolean } = {},
): Promise<UpdateCheck> {
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
  let staged: StagedInstall;
  try {
    staged = await stageInstall(root, entry.source, {
      replacing: entry.name,
      lockSource: entry.source,
      replaceable,
      ...(options.compile === false ? { compile: false } : {}),
    });
  } catch (e) {
    return {
      kind: 'failed',
      entry,
      message: `${entry.name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
    };
  }
  const installedHash = treeIntegrityFast(tree.value);
  const rootNode = staged.nodes[0]!;
  const depsChanged = staged.nodes.some(
    (n, i) => i > 0 && n.stagedDir !== undefined && lock.find((e) => e.name === n.name)?.integrity !== n.integrity,
  );
  if (installedHash === rootNode.integrity && !depsChanged) {
    await staged.dispose();
    return { kind: 'up-to-date', entry };
  }
  const files = fileChanges(tree.value, rootNode.skill.tree);
  const scripts = (t: SkillTree) =>
    t.entries.filter((e) => e.kind !== 'dir' && e.path.startsWith('scripts/')).map((e) => e.path);
  // Hooks, tool grants and load-time commands are compared by what some agent acts on once compiled.
  const changes = installed.ok
    ? [
        ...manifestDelta(installed.value.manifest, rootNode.skill.manifest, {
          before: scripts(tree.value),
          after: scripts(rootNode.skill.tree),
        }),
        ...powersDelta(nodePowers(installed.value, []).carried, staged.review.nodes[0]!.powers.carried, {
          manifested: rootNode.skill.manifested,
        }),
      ]
    : [];
  const notices = [...staged.review.notices];
  const localEdits = installedHash !== entry.integrity;
  if (localEdits)
    notices.unshift(
      `${entry.name}: local edits detected (integrity drift) — updating overwrites them; the diff starts from the edited files`,
    );
  const newDeps = staged.review.nodes.filter((n) => n.role === 'dependency' && !lock.some((e) => e.name === n.name));
  for (const d of newDeps) notices.push(`new dependency: ${d.name}@${d.version} from ${d.source.raw}`);
  const review: InstallReview = {
    ...staged.review,
    notices,
    changes: changes.map((c) => ({
      field: c.field,
      before: c.before,
      after: c.after,
      escalation: c.escalation,
      line: c.line,
    })),
    fileChanges: files.map((f) => ({ path: f.path, change: f.change })),
  };
  return { kind: 'changed', entry, staged, review, localEdits, installedTree: tree.value, files };
}

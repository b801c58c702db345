import { rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { SkillTree } from '../../../shared/ksf/tree';
import type { LockEntry } from '../../../shared/lock/lockfile';
import { mergeTrees, type FileOutcome, type Prefer, type TreeMerge } from '../../../shared/lock/merge';
import { gitSourceString, parseSource, sourceAt } from '../../../shared/lock/source';
import { CodedError, formatError } from '../../../shared/result';
import { openProjectDir } from '../fs/inside';
import { treeIntegrityFast } from '../lock';
import { readSkillTreeAsync } from '../skills/reader';
import { makeStagingDir, openSource, stageSkill } from '../sources';
import { writeTree } from '../sources/copy';
import type { StagedMerge } from './stage';

/** Where an update over local edits keeps the copy it replaces (SPEC D303). */
export const BACKUPS_DIR = '.kitbash/backups';

/** What the merge of one update did, for the review and the report. */
export interface MergeReport {
  readonly files: TreeMerge['files'];
  /** `false` when the base could not be recovered and `--ours`/`--theirs` settled every difference. */
  readonly based: boolean;
  /** The upstream tree is the one pinned before (only local edits are being reviewed). */
  readonly upstreamUnchanged: boolean;
  /** The version the edits were made on, when it was recovered: what the review compares against. */
  readonly base?: SkillTree;
}

export const conflictsOf = (r: MergeReport): string[] =>
  r.files.filter((f) => f.outcome === 'conflict').map((f) => f.path);

/** The source string that fetches `entry`'s folder at its pinned commit; undefined when none can. */
function sourceAtCommit(entry: LockEntry): string | undefined {
  if (!entry.commit) return undefined;
  const spec = parseSource(entry.source, () => false);
  if (!spec.ok) return undefined;
  const s = spec.value;
  if (s.kind === 'github') return sourceAt({ ...s, ref: entry.commit }, '');
  if (s.kind === 'git') return gitSourceString(s.url, entry.commit, s.subpath);
  return undefined;
}

/**
 * The folder `entry` was installed from: its source at the pinned commit, accepted only when
 * it hashes to what the lock says the upstream was. Otherwise why not, in one line.
 */
export async function recoverBase(
  root: string,
  entry: LockEntry,
  upstream: string,
): Promise<{ tree: SkillTree } | { reason: string }> {
  const raw = sourceAtCommit(entry);
  if (raw === undefined)
    return {
      reason: entry.commit
        ? `its source (${entry.source}) keeps no history to fetch the installed version from`
        : entry.digest
          ? 'a discovery index serves only its current version'
          : 'kitbash.lock records no commit for it',
    };
  const staging = await makeStagingDir();
  try {
    const co = await openSource(raw, root);
    try {
      const st = await stageSkill(co.skillDir, staging.dir, 'base', raw);
      const tree = await readSkillTreeAsync(st.dir, entry.name);
      if (!tree.ok) return { reason: formatError(tree.error) };
      const hash = treeIntegrityFast(tree.value);
      if (hash !== upstream)
        return { reason: `its source at ${entry.commit!.slice(0, 12)} no longer hashes to the pinned ${upstream}` };
      return { tree: tree.value };
    } finally {
      await co.dispose();
    }
  } catch (e) {
    return { reason: `its source at the pinned commit cannot be fetched (${(e as Error).message.split('\n')[0]})` };
  } finally {
    await staging.dispose();
  }
}

const NO_BASE_FORWARD =
  'rerun with --theirs (take upstream for every file that differs; your copy is backed up first) or --ours (keep every local file, add what upstream added)';

/**
 * The staging hook of an update over a locally edited copy: merges `ours` with the staged
 * upstream over the recovered base and rewrites the staged folder into the result. `report`
 * receives what it did. A base that cannot be recovered, or a conflict no marker can hold,
 * refuses (nothing is written) unless `prefer` settles it.
 */
export function mergeHook(
  root: string,
  entry: LockEntry,
  ours: SkillTree,
  prefer: Prefer | undefined,
  report: (r: MergeReport) => void,
): (dir: string) => Promise<StagedMerge> {
  const upstream = entry.upstream ?? entry.integrity;
  return async (dir) => {
    const read = await readSkillTreeAsync(dir, entry.name);
    if (!read.ok) throw new CodedError('invalid-input', formatError(read.error));
    const theirs = read.value;
    const theirsHash = treeIntegrityFast(theirs);
    const unchanged = theirsHash === upstream;
    let base: SkillTree | undefined = unchanged ? theirs : undefined;
    if (!base) {
      const got = await recoverBase(root, entry, upstream);
      if ('reason' in got) {
        if (!prefer)
          throw new CodedError(
            'forbidden',
            `${entry.name} has local edits, and the version they were made on cannot be recovered: ${got.reason} — nothing changed; ${NO_BASE_FORWARD}`,
          );
      } else base = got.tree;
    }
    const merged = mergeTrees(base, ours, theirs, prefer);
    const stuck = merged.files.filter((f) => f.outcome === 'unresolved').map((f) => f.path);
    if (stuck.length)
      throw new CodedError(
        'forbidden',
        `${entry.name}: ${stuck.join(', ')} changed both locally and upstream in a way no conflict marker can hold (a binary file, a link, or an edit against a removal) — nothing changed; rerun with --theirs or --ours`,
      );
    await rm(dir, { recursive: true, force: true });
    const parent = openProjectDir(dirname(dir), '');
    const executable = merged.entries.filter((e) => e.kind === 'file' && e.executable).map((e) => e.path);
    try {
      await writeTree({ root: entry.name, entries: merged.entries }, parent, basename(dir), new Set(executable));
    } finally {
      parent.close();
    }
    const r: MergeReport = {
      files: merged.files,
      based: base !== undefined,
      upstreamUnchanged: unchanged,
      ...(base ? { base } : {}),
    };
    report(r);
    return {
      executable,
      upstream: theirsHash,
      // Conflicted files are the user's to finish: nothing local is vouched for until they are.
      ...(conflictsOf(r).length ? { pin: theirsHash } : {}),
    };
  };
}

/** One line per outcome that happened, in words ("2 merged cleanly: a.md, b.md"). */
export function describeMerge(r: MergeReport): string[] {
  const said: Record<FileOutcome, string> = {
    upstream: 'taken from upstream',
    deleted: 'removed as upstream removed them',
    local: 'kept as you edited them',
    merged: 'merged cleanly',
    conflict: 'left with conflict markers to resolve',
    ours: 'conflicting, kept local (--ours)',
    theirs: 'conflicting, taken from upstream (--theirs)',
    unresolved: 'unresolved',
  };
  const out: string[] = [];
  for (const o of Object.keys(said) as FileOutcome[]) {
    const paths = r.files.filter((f) => f.outcome === o).map((f) => f.path);
    if (paths.length) out.push(`${said[o]}: ${paths.join(', ')}`);
  }
  return out;
}

/**
 * Copy the installed folder `tree` of `name` to `.kitbash/backups/<name>/<timestamp>/`
 * before an update replaces it: written under a temporary name, then renamed, so a backup
 * is either whole or absent. Returns its project-relative path.
 */
export async function backupSkill(root: string, name: string, tree: SkillTree, now = new Date()): Promise<string> {
  const stamp = now.toISOString().replace(/:/g, '-');
  const dir = openProjectDir(root, `${BACKUPS_DIR}/${name}`, { create: true });
  try {
    const tmp = `.tmp-${stamp}`;
    const executable = new Set(tree.entries.filter((e) => e.kind === 'file' && e.executable).map((e) => e.path));
    await writeTree(tree, dir, tmp, executable);
    await rename(dir.at(tmp), dir.at(stamp));
  } finally {
    dir.close();
  }
  return `${BACKUPS_DIR}/${name}/${stamp}/`;
}

import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import type { FailedSkill } from '../../../shared/compile/plan';
import { oneLine } from '../compile/load';
import { mapLimit, READ_LANES } from './limit';
import { installedSkillsAsync } from './locate';
import { readSkillTreeAsync } from './reader';
import { folderStamp, nowNs, settled } from './stamp';

/** One entry of .kitbash/skills/ as compile loads it: the skill, or why it is not one. */
export type Outcome = { readonly skill: Skill } | { readonly failure: string };

export interface InstalledFolder {
  /** The folder's name under .kitbash/skills/. */
  readonly name: string;
  /** `broken`: a symlink or a folder without SKILL.md (never read). */
  readonly kind: 'folder' | 'broken';
  readonly outcome: Outcome;
  /** The folder's stamp when it was read ('' for a broken entry or one that could not be stamped). */
  readonly stamp: string;
  /** Whether that stamp had settled, so that an unchanged stamp later means unchanged files. */
  readonly settled: boolean;
}

/**
 * Loaded skills this process has read, by folder, with the stamp they were read at: the
 * app reviews, approves and recompiles the same project many times in a session, and each
 * of those needs every installed skill. An entry is reused only while its folder's stamp
 * is unchanged and had settled when it was read (see stamp.ts). Bounded by bytes held.
 */
const memo = new Map<string, { digest: string; outcome: Outcome; bytes: number }>();
const MEMO_BYTES = 96 * 1024 * 1024;
let memoBytes = 0;

function remember(abs: string, digest: string, outcome: Outcome): void {
  const bytes =
    'skill' in outcome
      ? outcome.skill.tree.entries.reduce((n, e) => n + (e.kind === 'file' ? e.bytes.length : 0), 0)
      : 0;
  forget(abs);
  memo.set(abs, { digest, outcome, bytes });
  memoBytes += bytes;
  for (const [k, v] of memo) {
    if (memoBytes <= MEMO_BYTES) break;
    memo.delete(k);
    memoBytes -= v.bytes;
  }
}

function forget(abs: string): void {
  const old = memo.get(abs);
  if (!old) return;
  memo.delete(abs);
  memoBytes -= old.bytes;
}

/**
 * Every entry under .kitbash/skills/ as compile loads it (loadInstalled: the skills that
 * load, and the folders that do not, with the same messages, in folder order), read
 * through promises and from this process's memo where a folder is unchanged.
 */
export async function readInstalled(root: string): Promise<InstalledFolder[]> {
  const takenAt = nowNs();
  const locations = await installedSkillsAsync(root);
  return mapLimit(locations, READ_LANES, async (loc): Promise<InstalledFolder> => {
    if (loc.kind === 'broken')
      return { name: loc.nameHint, kind: 'broken', outcome: { failure: loc.problem }, stamp: '', settled: false };
    const stamp = await folderStamp(loc.abs);
    const calm = stamp !== undefined && settled(stamp.newest, takenAt);
    const folder = (outcome: Outcome): InstalledFolder => ({
      name: loc.nameHint,
      kind: 'folder',
      outcome,
      stamp: stamp?.digest ?? '',
      settled: calm,
    });
    const hit = memo.get(loc.abs);
    if (stamp && hit?.digest === stamp.digest) return folder(hit.outcome);
    const tree = await readSkillTreeAsync(loc.abs, loc.display);
    let outcome: Outcome;
    if (!tree.ok) outcome = { failure: oneLine(tree.error) };
    else {
      const loaded = loadSkill(tree.value);
      outcome = loaded.ok ? { skill: loaded.value } : { failure: oneLine(loaded.error) };
    }
    if (calm) remember(loc.abs, stamp.digest, outcome);
    else forget(loc.abs);
    return folder(outcome);
  });
}

/** The planner's input from folders in folder order: the skills, and the failures named by folder. */
export function loadedOf(folders: readonly InstalledFolder[]): { skills: Skill[]; failures: FailedSkill[] } {
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  for (const f of folders) {
    if ('skill' in f.outcome) skills.push(f.outcome.skill);
    else failures.push({ name: f.name, message: f.outcome.failure });
  }
  return { skills, failures };
}

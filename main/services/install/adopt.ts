import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodedError, formatError, isCoded } from '../../../shared/result';
import { isKsfName } from '../../../shared/names';
import type { SkillTree } from '../../../shared/ksf/tree';
import { lintSkill } from '../../../shared/lint/checks';
import { adoptVerdict, ruleIsSkill, type HandCopy } from '../../../shared/lock/adopt';
import { IMPORT_SOURCE, upsertEntry, type LockEntry } from '../../../shared/lock/lockfile';
import { ghLockField } from '../../../shared/lock/gh-provenance';
import {
  reviewBlockers,
  reviewIntegrity,
  reviewNode,
  REVIEW_SCHEMA,
  type InstallReview,
  type ReviewSource,
} from '../../../shared/lock/review';
import {
  parseSkillsLock,
  skillsLockSource,
  SKILLS_LOCK_FILE,
  type SkillsLockEntry,
} from '../../../shared/lock/skills-lock';
import { canonicalSource, parseSource } from '../../../shared/lock/source';
import { sourceViolations } from '../../../shared/policy/policy';
import { adoptLocations, type AdoptLocation } from '../../../shared/targets/adopt';
import { GENERATED_MARK } from '../../../shared/targets/common';
import { resolveTargets } from '../../../shared/targets/registry';
import { diskProject } from '../compile/project-files';
import { readLockAsyncOrThrow, treeIntegrityFast } from '../lock';
import { SKILLS_DIR } from '../skills/locate';
import { readSkillTree, readSkillTreeAsync } from '../skills/reader';
import { makeStagingDir, stageSkill } from '../sources';
import { applyChange, recover } from '../workspace/txn';
import { loadFolderFromTree, projectConfigOrThrow } from './stage';
import { isDirectory } from '../fs/probe';

/** One skill name found written by hand in the agents' folders, and what adoption does with it. */
export interface AdoptItem {
  readonly name: string;
  /** Every hand-written copy (project-relative). */
  readonly copies: readonly string[];
  /** adoptable: will be adopted; blocked: a safety or policy finding refuses it; the rest are left alone. */
  readonly status: 'adoptable' | 'blocked' | 'conflict' | 'managed' | 'invalid';
  readonly reason?: string;
  /** Copies compile will regenerate, removed once the adopted copy is committed. */
  readonly retire: readonly string[];
  /** Copies in folders no active target writes: left as they are. */
  readonly keep: readonly string[];
  /** The install review of the adopted copy (adoptable and blocked items). */
  readonly review?: InstallReview;
}

/** What `skills-lock.json` says, per skill: the source Skillsmith would pin, and whether the project has the skill. */
export interface SkillsLockReport {
  readonly problem?: string;
  readonly entries: readonly { readonly name: string; readonly source?: string; readonly present: boolean }[];
}

/** The adoption review: serialisable (the app shows it), approved by `integrity`. */
export interface AdoptPlan {
  readonly items: readonly AdoptItem[];
  readonly skillsLock?: SkillsLockReport;
  /** Hash over every adoptable item's review; what an approval must name. */
  readonly integrity: string;
}

interface Staged {
  readonly dir: string;
  readonly executable: readonly string[];
  readonly entry: LockEntry;
  readonly copyHashes: ReadonlyMap<string, string>;
}

export interface AdoptScan {
  readonly project: string;
  readonly plan: AdoptPlan;
  readonly staged: ReadonlyMap<string, Staged>;
  dispose(): Promise<void>;
}

/** The generated marker in a file's first bytes means compile wrote it: not a hand-written copy. */
function generated(abs: string): boolean {
  try {
    return readFileSync(abs, 'utf8').slice(0, 4096).includes(GENERATED_MARK);
  } catch {
    return false;
  }
}

/** A rule file adopted as a skill: its bytes, unchanged, become SKILL.md. */
function ruleTree(abs: string, path: string): SkillTree {
  return { root: path, entries: [{ kind: 'file', path: 'SKILL.md', bytes: readFileSync(abs) }] };
}

function copyHash(project: string, c: { path: string; kind: 'folder' | 'rule' }): string | undefined {
  const abs = join(project, ...c.path.split('/'));
  if (c.kind === 'rule') return treeIntegrityFast(ruleTree(abs, c.path));
  const tree = readSkillTree(abs, c.path);
  return tree.ok ? treeIntegrityFast(tree.value) : undefined;
}

type FoundCopy = Omit<HandCopy, 'integrity'>;

/** Hand-written skills in every location a target writes, by name (generated copies left out). */
function findCopies(project: string, locations: readonly AdoptLocation[]): Map<string, { copies: FoundCopy[] }> {
  const byName = new Map<string, { copies: FoundCopy[] }>();
  const add = (name: string, c: FoundCopy) => byName.set(name, { copies: [...(byName.get(name)?.copies ?? []), c] });
  for (const loc of locations) {
    const absDir = join(project, ...loc.dir.split('/'));
    if (!isDirectory(absDir)) continue;
    for (const entry of readdirSync(absDir).sort()) {
      if (entry.startsWith('.')) continue;
      const abs = join(absDir, entry);
      const path = `${loc.dir}/${entry}`;
      if (loc.shape === 'skill-dir') {
        if (!isDirectory(abs) || !existsSync(join(abs, 'SKILL.md')) || generated(join(abs, 'SKILL.md'))) continue;
        add(entry, { path, dir: loc.dir, kind: 'folder' });
      } else if (entry.endsWith(loc.suffix!) && lstatSync(abs).isFile()) {
        const text = readFileSync(abs, 'utf8');
        if (text.includes(GENERATED_MARK) || !ruleIsSkill(text)) continue;
        add(entry.slice(0, -loc.suffix!.length), { path, dir: loc.dir, kind: 'rule' });
      }
    }
  }
  return byName;
}

function readSkillsLock(project: string): { entries: SkillsLockEntry[]; problem?: string } | undefined {
  const abs = join(project, SKILLS_LOCK_FILE);
  if (!existsSync(abs)) return undefined;
  const parsed = parseSkillsLock(readFileSync(abs, 'utf8'));
  return parsed.ok ? { entries: parsed.value } : { entries: [], problem: formatError(parsed.error) };
}

/**
 * Find the skills written by hand in the agents' folders and stage each one privately, with
 * the same caps, checks and review as install. Nothing in the project is written; the
 * caller must `dispose()` the scan.
 */
export async function scanAdoption(project: string): Promise<AdoptScan> {
  const config = projectConfigOrThrow(project);
  const locations = adoptLocations();
  const sel = resolveTargets(diskProject(project), config.targets);
  const active = new Set(sel.ok ? sel.value.targets.map((t) => t.id) : []);
  const activeDirs = new Set(locations.filter((l) => l.targets.some((t) => active.has(t))).map((l) => l.dir));
  const skillsLock = readSkillsLock(project);
  const staging = await makeStagingDir();
  const staged = new Map<string, Staged>();
  const items: AdoptItem[] = [];
  try {
    for (const [name, found] of [...findCopies(project, locations)].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const paths = found.copies.map((c) => c.path);
      const leave = (status: AdoptItem['status'], reason: string) =>
        items.push({ name, copies: paths, status, reason, retire: [], keep: paths });
      if (!isKsfName(name)) {
        leave(
          'invalid',
          `"${name}" is not a valid skill name (a-z, digits, hyphens, 2–41 chars) — rename ${paths.join(', ')}`,
        );
        continue;
      }
      const hashes = found.copies.map((c) => ({ ...c, integrity: copyHash(project, c) }));
      const unreadable = hashes.find((h) => h.integrity === undefined);
      if (unreadable) {
        leave('invalid', `${unreadable.path} cannot be read as a skill folder`);
        continue;
      }
      const verdict = adoptVerdict(name, hashes as HandCopy[], existsSync(join(project, SKILLS_DIR, name)), activeDirs);
      if (verdict.status !== 'adoptable') {
        leave(verdict.status, verdict.reason);
        continue;
      }
      const from = verdict.from;
      const abs = join(project, ...from.path.split('/'));
      let dir: string;
      let executable: readonly string[] = [];
      try {
        if (from.kind === 'folder') ({ dir, executable } = await stageSkill(abs, staging.dir, name, from.path));
        else {
          dir = join(staging.dir, name);
          mkdirSync(dir);
          copyFileSync(abs, join(dir, 'SKILL.md'));
        }
      } catch (e) {
        if (!isCoded(e, 'invalid-input')) throw e;
        leave('invalid', e.message);
        continue;
      }
      const tree = await readSkillTreeAsync(dir, from.path);
      let skill;
      try {
        if (!tree.ok) throw new CodedError('invalid-input', formatError(tree.error));
        skill = loadFolderFromTree(tree.value, name);
      } catch (e) {
        leave('invalid', e instanceof Error ? e.message : String(e));
        continue;
      }
      if (skill.manifest.skill.name !== name) {
        leave(
          'invalid',
          `${from.path} names itself "${skill.manifest.skill.name}" — rename the folder or the skill so they match`,
        );
        continue;
      }
      const integrity = treeIntegrityFast(skill.tree);
      const pinned = skillsLock?.entries.find((e) => e.name === name);
      const upstream = pinned ? skillsLockSource(pinned) : undefined;
      const parsed = upstream !== undefined ? parseSource(upstream, () => false) : undefined;
      const canonical = parsed?.ok ? canonicalSource(parsed.value) : undefined;
      const source: ReviewSource = {
        raw: upstream ?? IMPORT_SOURCE,
        canonical: canonical ?? from.path,
        kind: parsed?.ok && parsed.value.kind !== 'local' ? parsed.value.kind : 'local',
        origin: `adopted from ${from.path}`,
      };
      const node = reviewNode({
        skill,
        role: 'requested',
        alreadyInstalled: false,
        source,
        checks: lintSkill(skill),
        ...(config.policy ? { policy: config.policy } : {}),
        sourceViolations:
          config.policy && canonical !== undefined ? sourceViolations(config.policy, source.raw, canonical) : [],
        dependencies: [],
        producedByDeps: new Map(),
        integrity,
        installDir: `.kitbash/skills/${name}`,
      });
      const notices = [
        ...(verdict.retire.length
          ? [
              `replaces the hand-written ${verdict.retire.join(', ')}: compile regenerates ${verdict.retire.length === 1 ? 'it' : 'them'} from .kitbash/skills/${name}`,
            ]
          : []),
        ...(verdict.keep.length ? [`keeps ${verdict.keep.join(', ')} as it is (no active target writes there)`] : []),
        ...(upstream ? [`pinned to ${upstream}, as ${SKILLS_LOCK_FILE} records it`] : []),
      ];
      const blockers = reviewBlockers([node]);
      const review: InstallReview = {
        schema: REVIEW_SCHEMA,
        kind: 'install',
        root: name,
        source,
        nodes: [node],
        writes: [...node.files, 'kitbash.lock'],
        blockers,
        notices,
        integrity: reviewIntegrity([node]),
      };
      const entry: LockEntry = {
        name,
        version: skill.manifest.skill.version,
        source: source.raw,
        integrity,
        ...(canonical !== undefined ? { resolved: canonical } : {}),
        ...ghLockField(skill),
      };
      if (blockers.length === 0)
        staged.set(name, { dir, executable, entry, copyHashes: new Map(hashes.map((h) => [h.path, h.integrity!])) });
      items.push({
        name,
        copies: paths,
        status: blockers.length ? 'blocked' : 'adoptable',
        ...(blockers.length ? { reason: blockers.join('; ') } : {}),
        retire: verdict.retire,
        keep: verdict.keep,
        review,
      });
    }
  } catch (e) {
    await staging.dispose();
    throw e;
  }
  const names = new Set(items.map((i) => i.name));
  const report: SkillsLockReport | undefined = skillsLock && {
    ...(skillsLock.problem ? { problem: skillsLock.problem } : {}),
    entries: skillsLock.entries.map((e) => {
      const source = skillsLockSource(e);
      return {
        name: e.name,
        ...(source ? { source } : {}),
        present: names.has(e.name) || existsSync(join(project, SKILLS_DIR, e.name)),
      };
    }),
  };
  const adoptable = items.filter((i) => i.status === 'adoptable').map((i) => i.review!.nodes[0]!);
  return {
    project,
    plan: { items, ...(report ? { skillsLock: report } : {}), integrity: reviewIntegrity(adoptable) },
    staged,
    dispose: () => staging.dispose(),
  };
}

/**
 * Adopt exactly what was reviewed, in one journaled change: each staged copy goes into
 * `.kitbash/skills/<name>` (pinned in kitbash.lock) and only then are the hand-written
 * copies that compile will regenerate moved out. A copy edited since the review, or a name
 * installed meanwhile, refuses the whole change. Call it holding the project lock.
 */
export async function commitAdoption(
  scan: AdoptScan,
  approval: { integrity: string },
): Promise<{ adopted: string[]; retired: string[] }> {
  const { project, plan } = scan;
  if (approval.integrity !== plan.integrity)
    throw new CodedError(
      'forbidden',
      `the approval names ${approval.integrity}, but the adoption review is ${plan.integrity} — nothing adopted`,
    );
  await recover(project);
  let entries = [...(await readLockAsyncOrThrow(project)).entries];
  const put = new Map<string, { tree: SkillTree; executable: ReadonlySet<string> }>();
  const retire: string[] = [];
  for (const item of plan.items.filter((i) => i.status === 'adoptable')) {
    const s = scan.staged.get(item.name)!;
    const tree = await readSkillTreeAsync(s.dir, item.name);
    if (!tree.ok || treeIntegrityFast(tree.value) !== s.entry.integrity)
      throw new CodedError('forbidden', `${item.name}: the staged copy changed after the review — nothing adopted`);
    if (existsSync(join(project, SKILLS_DIR, item.name)))
      throw new CodedError(
        'forbidden',
        `${item.name} was installed by another command since the review — nothing adopted; review again`,
      );
    for (const path of item.retire) {
      const kind = isDirectory(join(project, ...path.split('/'))) ? 'folder' : 'rule';
      if (copyHash(project, { path, kind }) !== s.copyHashes.get(path))
        throw new CodedError('forbidden', `${path} was edited after the review — nothing adopted; review again`);
    }
    put.set(item.name, { tree: tree.value, executable: new Set(s.executable) });
    entries = upsertEntry(entries, s.entry);
    retire.push(...item.retire);
  }
  if (put.size === 0) return { adopted: [], retired: [] };
  await applyChange(project, { put, remove: [], lock: entries, retire }, 'adopt');
  return { adopted: [...put.keys()], retired: retire };
}

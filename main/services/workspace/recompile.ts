import { plural } from '../../../shared/text/format';
import { join } from 'node:path';
import { planCompile, type CompilePlan } from '../../../shared/compile/plan';
import { formatError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { SkillTree } from '../../../shared/ksf/tree';
import { CONFIG_FILE, type ProjectConfig } from '../../../shared/project/config';
import { applyPlan } from '../compile';
import { oneLine } from '../compile/load';
import { treeIntegrityFast } from '../lock';
import { describeWithheld, withheldSkills, type ReviewFacts } from '../../../shared/compile/deliver';
import { readProjectConfigAsync } from '../project/config';
import { readInstalled, loadedOf, type InstalledFolder } from '../skills/installed';
import { displayPath, installedSkillsAsync, SKILLS_DIR } from '../skills/locate';
import { readSkillTreeAsync } from '../skills/reader';
import { withProjectIndex, type ProjectIndex } from '../skills/project-index';
import { folderStamp } from '../fs/stamp';
import { AsyncDiskView } from './disk-view';
import { faultPoint } from './fault';
import { openDeliveryChecks } from '../compile/checks-cache';
import { readWritten } from '../compile/written-record';

/** A change to the installed set, as the plan of what compile does after it must see it. */
export interface SkillsChange {
  /** Folders written (new or replacing), with the exact tree each will hold. */
  readonly put?: readonly { readonly name: string; readonly tree: SkillTree }[];
  /** Folders that go away. */
  readonly remove?: readonly string[];
}

/**
 * The compile plan of a project as it will be once `change` is committed, with what it
 * was made from, so that the recompile after the commit can apply it as it is when
 * nothing it read has moved since (`stillHolds`), instead of reading the project again.
 */
export interface PlannedCompile {
  readonly plan: CompilePlan;
  readonly config: ProjectConfig;
  readonly view: AsyncDiskView;
  /** The installed folders the plan was made from, after the change, in folder order. */
  readonly folders: readonly InstalledFolder[];
  /** The folders the change replaces or removes, as they were. */
  readonly replaced: readonly InstalledFolder[];
  /** The folders the change writes: name → integrity and executable paths they must then have. */
  readonly put: ReadonlyMap<string, { integrity: string; executable: string }>;
}

/** kitbash.toml, read through promises; a malformed file throws its one-line error. */
export async function projectConfigAsync(root: string): Promise<ProjectConfig> {
  const c = await readProjectConfigAsync(root);
  if (!c.ok) throw new Error(formatError(c.error));
  return c.value;
}

const byName = (a: InstalledFolder, b: InstalledFolder) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const executables = (t: SkillTree) =>
  t.entries
    .filter((e) => e.kind === 'file' && e.executable)
    .map((e) => e.path)
    .join('\0');

/**
 * Plan the compile of `root` once `change` is applied — exactly the plan compile would
 * make from the disk after the commit: each put folder loaded as compile loads an
 * installed folder, every other folder as it is now — with every read through promises.
 */
export async function planChange(
  root: string,
  change: SkillsChange = {},
  index?: ProjectIndex,
): Promise<PlannedCompile> {
  if (!index) return withProjectIndex(root, (i) => planChange(root, change, i));
  const view = new AsyncDiskView(root);
  // What the last plan read is fetched up front, so the planner runs once, not once per level of the tree it walks.
  await view.prefetch(index.planReads());
  // Stamped before it is parsed, so an edit in between shows as a change.
  await view.settle((v) => v.read(CONFIG_FILE));
  const config = await projectConfigAsync(root);
  const gone = new Set([...(change.remove ?? []), ...(change.put ?? []).map((p) => p.name)]);
  const before = await readInstalled(root);
  const folders = before.filter((f) => !gone.has(f.name));
  const replaced = before.filter((f) => gone.has(f.name));
  const put = new Map<string, { integrity: string; executable: string }>();
  for (const p of change.put ?? []) {
    const display = displayPath(root, join(root, SKILLS_DIR, p.name));
    const loaded = loadSkill({ root: display, entries: p.tree.entries });
    folders.push({
      name: p.name,
      kind: 'folder',
      outcome: loaded.ok ? { skill: loaded.value } : { failure: oneLine(loaded.error) },
      stamp: '',
      settled: false,
    });
    put.set(p.name, { integrity: treeIntegrityFast(p.tree), executable: executables(p.tree) });
  }
  folders.sort(byName);
  const { skills, failures } = loadedOf(folders);
  // Delivered only as compile would deliver after the commit: the lock then pins each put
  // folder's reviewed tree, and no longer pins what the change removes.
  const lock = await index.lockResult();
  let pins: ReviewFacts['pins'];
  if (!lock.ok) pins = { error: formatError({ ...lock.error, detail: [] }) };
  else {
    const after = new Map(lock.value.entries.filter((e) => !gone.has(e.name)).map((e) => [e.name, e.integrity]));
    for (const [name, p] of put) after.set(name, p.integrity);
    pins = after;
  }
  // A skill the change did not touch was judged before: its checks and integrity come from the cache by content.
  const checks = openDeliveryChecks();
  const withheld = withheldSkills(skills, {
    pins,
    integrityOf: (sk) => (checks ? checks.integrity(sk, treeIntegrityFast) : treeIntegrityFast(sk.tree)),
    config,
    ...(checks ? { checks } : {}),
  });
  checks?.save();
  // Each skill's own files the last applied plan left in step are not read again (SPEC D274).
  const written = readWritten(root);
  const plan = await view.settle((project) =>
    planCompile({ skills, failures, withheld, config, project, ...(written ? { written } : {}) }),
  );
  index.rememberPlanReads(view.readSet());
  return { plan, config, view, folders, replaced, put };
}

/**
 * Whether `planned` is still the plan compile would make now: every path it read has the
 * stamp it had (settled then), the installed folders are the ones it planned with — each
 * unchanged folder with its settled stamp, each written one holding exactly the reviewed
 * tree. Anything else (an edit, a concurrent command, a file written a moment before it
 * was read) is a "no", and the caller plans again.
 */
export async function stillHolds(root: string, planned: PlannedCompile): Promise<boolean> {
  const now = await installedSkillsAsync(root);
  if (now.length !== planned.folders.length) return false;
  const same = await Promise.all(
    planned.folders.map(async (f, i) => {
      const loc = now[i]!;
      if (loc.nameHint !== f.name || loc.kind !== f.kind) return false;
      if (loc.kind === 'broken') return 'failure' in f.outcome && f.outcome.failure === loc.problem;
      const want = planned.put.get(f.name);
      if (want) {
        const tree = await readSkillTreeAsync(loc.abs, loc.display);
        return (
          tree.ok && treeIntegrityFast(tree.value) === want.integrity && executables(tree.value) === want.executable
        );
      }
      return f.settled && f.stamp !== '' && (await folderStamp(loc.abs))?.digest === f.stamp;
    }),
  );
  return same.every(Boolean) && (await planned.view.unchanged());
}

/**
 * Recompile after install, update or remove, so generated output follows the installed
 * set: the plan made before the commit (`planned`) when it still holds, else a fresh one.
 * A refusal (no targets, a skill over budget) is reported, not thrown: the change itself
 * is already committed and pinned.
 */
export async function recompileAfterChange(
  root: string,
  note: (text: string) => void,
  step = 'change',
  planned?: PlannedCompile,
): Promise<void> {
  faultPoint(`${step}:before-compile`);
  let plan: CompilePlan;
  let applied;
  try {
    const t0 = performance.now();
    const reused = planned !== undefined && (await stillHolds(root, planned));
    plan = reused ? planned.plan : (await planChange(root)).plan;
    if (process.env.SKILLSMITH_TIMINGS === '1')
      process.stderr.write(
        `timings: recompile plan ${reused ? 'reused' : 'made'} in ${Math.round(performance.now() - t0)} ms\n`,
      );
    if (plan.errors.length) {
      note(`compile not run: ${plan.errors[0]} — then: skillsmith compile\n`);
      return;
    }
    applied = await applyPlan(root, plan, { durable: true });
  } catch (e) {
    note(
      `compile not run: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} — fix it, then: skillsmith compile\n`,
    );
    return;
  }
  const changed = applied.written.length + applied.rewritten.length + applied.removed.length;
  note(`compiled for ${plural(plan.targets.length, 'target')}: ${plural(changed, 'generated file')} changed\n`);
  // A hand-written file in the way is left alone; the user must hear that the skill did not arrive there.
  for (const c of plan.conflicts) {
    note(
      `⚠ ${c.path} was written by hand — ${c.skill} is not delivered to ${c.targets.join(', ')}; adopt it (skillsmith import --write), rename one of them, or remove ${c.path}\n`,
    );
  }
  for (const f of plan.failures) note(`✗ ${f.name}: not compiled — ${f.message.split('\n')[0]}\n`);
  for (const w of plan.withheld) note(`✗ ${describeWithheld(w)}\n`);
  faultPoint(`${step}:compiled`);
}

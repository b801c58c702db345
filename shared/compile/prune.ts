/**
 * The prune step of the compile plan: which generated files and marked sections the new
 * plan no longer produces, and so are removed. Apart from plan.ts because it only reads
 * what the rest of the plan decided (the planned paths and the failed skills) and owns the
 * rules of what Skillsmith may delete: only generated files, never a failed skill's output,
 * never a delivered file the user edited.
 */
import { DELIVERY_RECORD, fingerprint, generatedBy, readDeliveryRecord } from '../targets/common';
import { TARGETS } from '../targets/registry';
import type { ManagedDir, ProjectFiles, TargetDef } from '../targets/types';
import { withNewline } from '../text/format';
import { SharedDoc } from './sections';

export interface PlannedPrune {
  readonly path: string;
  /** `delete`: remove the file; `rewrite`: stale sections removed from a shared file (`content`). */
  readonly action: 'delete' | 'rewrite';
  readonly content?: string;
  /** Folders to remove afterwards if (and only if) they are empty, deepest first. */
  readonly removeEmptyDirs?: readonly string[];
  readonly reason: string;
  /** For a delivered script: the fingerprint it must still have to be deleted. */
  readonly fingerprint?: string;
}

/** kitbash's prune scan order (folders), kept so stale files are reported in the order kitbash reports them. */
const KITBASH_PRUNE_ORDER = [
  '.claude/skills',
  '.claude/commands',
  '.agents/skills',
  '.gemini/skills',
  '.github/skills',
  'agent-plugin/skills',
  '.cursor/rules',
  '.clinerules',
  '.windsurf/rules',
  '.devin/rules',
  '.github/instructions',
];

/**
 * Managed output locations scanned for stale generated files, from the target modules (first
 * declaration of a folder wins), in kitbash's order; a folder it does not know comes last.
 */
export function managedDirs(targets: readonly TargetDef[] = TARGETS): readonly ManagedDir[] {
  const seen = new Set<string>();
  const rank = (d: ManagedDir) =>
    KITBASH_PRUNE_ORDER.includes(d.dir) ? KITBASH_PRUNE_ORDER.indexOf(d.dir) : KITBASH_PRUNE_ORDER.length;
  return targets
    .flatMap((t) => t.managedDirs)
    .filter((d) => !seen.has(d.dir) && seen.add(d.dir))
    .sort((a, b) => rank(a) - rank(b));
}
export const MANAGED_DIRS: readonly ManagedDir[] = managedDirs();

/** Shared markdown files whose stale sections are pruned even when nothing merges into them. */
export const MANAGED_SHARED_FILES = ['AGENTS.md', 'GEMINI.md', 'CONVENTIONS.md'] as const;

/**
 * Stale sections in shared files nobody merged into, then stale generated files under the
 * managed folders. `files` holds every path the plan writes or merges; a failed skill's
 * output is protected, since the skill may only be broken for now.
 */
export function planPrune(
  project: ProjectFiles,
  files: ReadonlyMap<string, unknown>,
  failedNames: ReadonlySet<string>,
  inStep: (rel: string) => boolean = () => false,
): PlannedPrune[] {
  const protectedPaths = new Set<string>(
    [...failedNames].flatMap((name) => MANAGED_DIRS.map((d) => `${d.dir}/${name}${d.suffix}`)),
  );
  const prune: PlannedPrune[] = [];
  for (const rel of MANAGED_SHARED_FILES) {
    if (files.has(rel)) continue;
    const before = project.read(rel);
    if (before === undefined) continue;
    const doc = SharedDoc.parse(before, (n) => failedNames.has(n));
    const after = withNewline(doc.toString());
    if (doc.pruned.length && after !== before)
      prune.push({ path: rel, action: 'rewrite', content: after, reason: `stale section(s) ${doc.pruned.join(', ')}` });
  }
  const keep = (rel: string): boolean => files.has(rel) || protectedPaths.has(rel);
  for (const loc of MANAGED_DIRS) {
    for (const e of project.list(loc.dir)) {
      if (loc.wholeDir ? e.kind !== 'dir' : e.kind !== 'file' || !e.name.endsWith(loc.suffix)) continue;
      // A skill's folder or file the record holds in step (SPEC D274) has nothing stale in it: not walked.
      if (inStep(loc.wholeDir ? `${loc.dir}/${e.name}${loc.suffix}` : `${loc.dir}/${e.name}`)) continue;
      const f = factsOf(project, e);
      const rel = remembered(f, 'rel', () =>
        loc.wholeDir ? `${loc.dir}/${e.name}${loc.suffix}` : `${loc.dir}/${e.name}`,
      )!;
      const text = remembered(f, 'text', () => project.read(rel));
      if (text === undefined) continue;
      const source = remembered(f, 'source', () => generatedBy(text));
      if (source === undefined) continue;
      if (loc.wholeDir) {
        if (failedNames.has(source)) continue;
        const folder = `${loc.dir}/${e.name}`;
        const stale = !keep(rel);
        const recordPath = remembered(f, 'recordPath', () => `${folder}/${DELIVERY_RECORD}`)!;
        const record = remembered(f, 'record', () => project.read(recordPath));
        const listed = remembered(f, 'listed', () => [...readDeliveryRecord(record, text)])!;
        const delivered = staleDelivered(project, folder, listed, stale ? undefined : files, (f.intact ??= new Map()));
        const why = stale ? 'delivered file of a stale skill' : 'delivered file no longer in the skill';
        prune.push(
          ...delivered.map((s) => ({ path: s.path, action: 'delete' as const, reason: why, fingerprint: s.print })),
        );
        const recordGoes = record !== undefined && !files.has(recordPath) && generatedBy(record) !== undefined;
        const dirs = new Set<string>();
        for (const { path: s } of delivered)
          for (let d = s.slice(0, s.lastIndexOf('/')); d.length > folder.length; d = d.slice(0, d.lastIndexOf('/')))
            dirs.add(d);
        const removeEmptyDirs = [...dirs].sort((a, b) => b.length - a.length);
        if (recordGoes)
          prune.push({
            path: recordPath,
            action: 'delete',
            reason: stale ? 'stale' : 'no delivered files left',
            ...(stale ? {} : { removeEmptyDirs }),
          });
        if (stale)
          prune.push({ path: rel, action: 'delete', removeEmptyDirs: [...removeEmptyDirs, folder], reason: 'stale' });
        else if (removeEmptyDirs.length && !recordGoes && delivered.length)
          prune[prune.length - 1] = { ...prune[prune.length - 1]!, removeEmptyDirs };
      } else if (!keep(rel) && !failedNames.has(source)) {
        prune.push({ path: rel, action: 'delete', reason: 'stale' });
      }
    }
  }
  return prune;
}

/** What pruning read and derived of one entry of a managed folder: a function of the view alone. */
interface Facts {
  rel?: string;
  text?: string | undefined;
  source?: string | undefined;
  recordPath?: string;
  record?: string | undefined;
  listed?: readonly (readonly [string, string])[];
  /** Delivered path → whether it still holds the delivered bytes. */
  intact?: Map<string, boolean>;
}

/**
 * Facts by listing entry of a snapshot view (ProjectFiles.snapshot), whose listings are the same
 * objects every time: a re-plan then reads and parses no generated folder again (at 1,000 skills,
 * 2,000 of them). Any other view gets fresh facts, so it is asked exactly what it was before.
 */
const factsMemo = new WeakMap<object, Facts>();

function factsOf(project: ProjectFiles, entry: object): Facts {
  if (!project.snapshot) return {};
  let f = factsMemo.get(entry);
  if (!f) factsMemo.set(entry, (f = {}));
  return f;
}

/** `f[key]`, made by `make` the first time (an undefined result is kept too). */
function remembered<K extends keyof Facts>(f: Facts, key: K, make: () => Facts[K]): Facts[K] {
  if (!(key in f)) f[key] = make();
  return f[key];
}

/**
 * Files the delivery record of a generated skill folder names that are no longer planned, and
 * that still hold exactly the bytes delivered (an edited copy is left alone).
 */
function staleDelivered(
  project: ProjectFiles,
  folder: string,
  listed: readonly (readonly [string, string])[],
  planned: ReadonlyMap<string, unknown> | undefined,
  intact: Map<string, boolean>,
): { path: string; print: string }[] {
  const out: { path: string; print: string }[] = [];
  for (const [rel, print] of listed) {
    const path = `${folder}/${rel}`;
    if (planned?.has(path)) continue;
    let same = intact.get(path);
    if (same === undefined) {
      const bytes = project.readBytes?.(path);
      intact.set(path, (same = bytes !== undefined && fingerprint(bytes) === print));
    }
    if (same) out.push({ path, print });
  }
  return out;
}

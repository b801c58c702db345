import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dropEntries, type LockEntry } from '../../../shared/lock/lockfile';
import { SKILLS_DIR } from '../skills/locate';
import { withProjectIndex, type ProjectIndex } from '../skills/project-index';
import { applyChange, OWN_FOLDERS } from '../workspace/txn';
import { assertOwnFoldersInside } from '../fs/inside';

/** The plan of a remove, before anything is deleted. */
export interface RemovePlan {
  readonly name: string;
  /** Installed skills that depend on `name` (remove refuses while any remain). */
  readonly dependents: readonly string[];
  /** Dependencies nothing else needs once `name` is gone, and that were installed only as dependencies. */
  readonly orphans: readonly string[];
}

/** name → the names it depends on, from installed manifests (falling back to lock edges), from the project index. */
async function dependencyGraph(index: ProjectIndex, lock: readonly LockEntry[]): Promise<Map<string, string[]>> {
  const g = new Map<string, string[]>();
  for (const s of await index.summaries()) {
    const name = s.loc.nameHint;
    const fromLock = lock
      .find((e) => e.name === name)
      ?.dependencies?.map((d) => d.slice(0, d.indexOf('@') < 0 ? d.length : d.indexOf('@')));
    g.set(name, s.ok ? Object.keys(s.summary.dependencies) : (fromLock ?? []));
  }
  return g;
}

export async function planRemove(root: string, name: string): Promise<RemovePlan> {
  // Nothing outside the project is ever taken for an installed skill.
  assertOwnFoldersInside(root, OWN_FOLDERS);
  return withProjectIndex(root, async (index) => {
    const lock = (await index.lock()).entries;
    return removePlanOf(name, await dependencyGraph(index, lock), lock);
  });
}

/** Dependents and orphans of `name` in the installed graph `g` (pure). */
function removePlanOf(name: string, g: ReadonlyMap<string, readonly string[]>, lock: readonly LockEntry[]): RemovePlan {
  const dependents = [...g]
    .filter(([n, deps]) => n !== name && deps.includes(name))
    .map(([n]) => n)
    .sort();
  // Orphans: reachable only through `name`, and never asked for directly.
  const remaining = new Set([...g.keys()].filter((n) => n !== name));
  const needed = new Set<string>();
  const direct = (n: string) => lock.find((e) => e.name === n)?.direct !== false;
  const mark = (n: string) => {
    if (needed.has(n)) return;
    needed.add(n);
    for (const d of g.get(n) ?? []) mark(d);
  };
  for (const n of remaining) if (direct(n)) mark(n);
  const orphans: string[] = [];
  const walk = (n: string) => {
    for (const d of g.get(n) ?? []) {
      if (d === name || needed.has(d) || orphans.includes(d) || !remaining.has(d)) continue;
      orphans.push(d);
      walk(d);
    }
  };
  walk(name);
  return { name, dependents, orphans: orphans.sort() };
}

/** Remove installed folders and their pins in one transaction. */
export async function applyRemove(root: string, names: readonly string[]): Promise<void> {
  await withProjectIndex(root, async (index) => {
    const lock = (await index.lock()).entries;
    const present: string[] = [];
    for (const n of names)
      if (
        await stat(join(root, SKILLS_DIR, n)).then(
          () => true,
          () => false,
        )
      )
        present.push(n);
    await applyChange(root, { put: new Map(), remove: present, lock: dropEntries(lock, names) }, 'remove', index);
  });
}

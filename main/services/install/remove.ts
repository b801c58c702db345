import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dropEntries, type LockEntry } from '../../../shared/lock/lockfile';
import { readLockOrThrow } from '../lock';
import { installedSkills, SKILLS_DIR } from '../skills/locate';
import { applyChange, OWN_FOLDERS } from '../workspace/txn';
import { assertOwnFoldersInside } from '../fs/inside';
import { loadFolder } from './candidates';

/** The plan of a remove, before anything is deleted. */
export interface RemovePlan {
  readonly name: string;
  /** Installed skills that depend on `name` (remove refuses while any remain). */
  readonly dependents: readonly string[];
  /** Dependencies nothing else needs once `name` is gone, and that were installed only as dependencies. */
  readonly orphans: readonly string[];
}

/** name → the names it depends on, from installed manifests (falling back to lock edges). */
function dependencyGraph(root: string, lock: readonly LockEntry[]): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const loc of installedSkills(root)) {
    if (loc.kind !== 'folder') continue;
    const l = loadFolder(loc.abs, loc.display, loc.nameHint);
    const fromLock = lock
      .find((e) => e.name === loc.nameHint)
      ?.dependencies?.map((d) => d.slice(0, d.indexOf('@') < 0 ? d.length : d.indexOf('@')));
    g.set(loc.nameHint, l.ok ? Object.keys(l.value.manifest.dependencies) : (fromLock ?? []));
  }
  return g;
}

export function planRemove(root: string, name: string): RemovePlan {
  // Nothing outside the project is ever taken for an installed skill.
  assertOwnFoldersInside(root, OWN_FOLDERS);
  const lock = readLockOrThrow(root).entries;
  const g = dependencyGraph(root, lock);
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
export function applyRemove(root: string, names: readonly string[]): void {
  const lock = readLockOrThrow(root).entries;
  const present = names.filter((n) => existsSync(join(root, SKILLS_DIR, n)));
  applyChange(root, { put: new Map(), remove: present, lock: dropEntries(lock, names) }, 'remove');
}

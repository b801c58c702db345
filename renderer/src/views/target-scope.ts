/**
 * Which targets the matrix and the costs show: the project's own (its kitbash.toml targets,
 * else the agents detected) by default, or every target Skillsmith knows. The choice is kept
 * per project, for both views, in localStorage:
 *
 *   key   `skillsmith.targets-shown.v1\u0000<projectRoot>`
 *   value `"all"` (only that is stored: the project's own is the default)
 */
import { localStore } from '../local-storage';
import { useCallback, useState } from 'react';

export type TargetScope = 'own' | 'all';

const PREFIX = 'skillsmith.targets-shown.v1';
const key = (root: string): string => `${PREFIX}\u0000${root}`;

export function storedScope(root: string): TargetScope {
  try {
    return localStore()?.getItem(key(root)) === 'all' ? 'all' : 'own';
  } catch {
    return 'own';
  }
}

function rememberScope(root: string, scope: TargetScope): void {
  try {
    if (scope === 'all') localStore()?.setItem(key(root), 'all');
    else localStore()?.removeItem(key(root));
  } catch {
    // A full or disabled storage only loses the memory; the view still switches.
  }
}

/**
 * The scope for the project at `root`, and a setter that remembers it. A project none of whose
 * targets resolve (a broken kitbash.toml) has nothing of its own to show: every target then.
 */
export function useTargetScope(root: string, own: readonly string[]): [TargetScope, (s: TargetScope) => void] {
  const [scope, setScope] = useState<TargetScope>(() => storedScope(root));
  const set = useCallback(
    (s: TargetScope) => {
      rememberScope(root, s);
      setScope(s);
    },
    [root],
  );
  return [own.length === 0 ? 'all' : scope, set];
}

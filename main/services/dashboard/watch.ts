import { statSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { watchRoots } from '../../../shared/targets/registry';

/**
 * Paths at a project root whose changes the dashboard cares about: the skills, and what each
 * target module declares. Files among them are seen by the shallow root watch; folders are
 * watched recursively.
 */
const ROOTS = ['.kitbash', ...watchRoots()];
const IGNORED = /(^|\/)(\.git|node_modules)(\/|$)|\.tmp$|~$/;

export interface ProjectWatcher {
  close(): void;
}

/**
 * Watch a project for the files the dashboard reads and call `onChange` once per burst
 * of changes, `debounceMs` after the last one, with the project-relative paths that
 * changed. The root is watched shallowly (kitbash.toml, kitbash.lock, AGENTS.md, …);
 * the skill and agent folders recursively. When a watched folder appears or disappears
 * the watchers are re-armed, so `.kitbash/` created after opening is picked up.
 */
export function watchProject(root: string, onChange: (paths: string[]) => void, debounceMs = 120): ProjectWatcher {
  let watchers: FSWatcher[] = [];
  let armed = '';
  let timer: NodeJS.Timeout | undefined;
  let pending = new Set<string>();
  let closed = false;

  const flush = () => {
    timer = undefined;
    if (closed) return;
    const paths = [...pending].sort();
    pending = new Set();
    rearm();
    onChange(paths);
  };
  const note = (abs: string) => {
    if (closed) return;
    const rel = relative(root, abs).split(sep).join('/');
    if (IGNORED.test(rel)) return;
    pending.add(rel || '.');
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const tryWatch = (dir: string, recursive: boolean) => {
    try {
      const w = watch(dir, { recursive, persistent: false }, (_event, file) =>
        note(file ? join(dir, file.toString()) : dir),
      );
      w.on('error', () => undefined);
      watchers.push(w);
    } catch {
      // A folder that vanished between the check and the watch: the next burst re-arms.
    }
  };
  function rearm() {
    const present = ROOTS.filter((d) => statSync(join(root, d), { throwIfNoEntry: false })?.isDirectory() === true);
    const key = present.join('|');
    if (key === armed && watchers.length > 0) return;
    for (const w of watchers) w.close();
    watchers = [];
    armed = key;
    tryWatch(root, false);
    for (const d of present) tryWatch(join(root, d), true);
  }
  rearm();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}

import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { watchRoots } from '../../../shared/targets/registry';
import { lstatNs, readdirEntries, statNs } from '../skills/fs-async';
import { displayPath } from '../skills/locate';

/**
 * Paths at a project root whose changes the dashboard cares about: the skills, and what each
 * target module declares. Files among them are seen by the shallow root watch; folders are
 * watched with every folder under them.
 */
const ROOTS = new Set(['.kitbash', ...watchRoots()]);
const IGNORED = /(^|\/)(\.git|node_modules)(\/|$)|\.tmp$|~$/;

export interface ProjectWatcher {
  /**
   * Settles (never rejects) once every folder present when the watch began is watched: a
   * read begun after it misses no later change.
   */
  readonly ready: Promise<void>;
  close(): void;
}

/**
 * Watch a project for the files the dashboard reads and call `onChange` once per burst
 * of changes, `debounceMs` after the last one, with the project-relative paths that
 * changed. The root is watched shallowly (kitbash.toml, kitbash.lock, AGENTS.md, …); the
 * skill and agent folders one watch per folder, each reporting its entries by name.
 *
 * Not Node's `recursive: true`: on Linux that walks the tree synchronously and watches
 * every file (a stat and an inotify watch each) — about 50 ms of blocked event loop at 200
 * skills and 200 ms at 1,000, on the app's main thread as it starts, with one watch per
 * file against the user's inotify limit. Here the walk is asynchronous and watches folders
 * only; a folder that appears, goes or is replaced is (re)walked before its burst is
 * reported, so a read that follows a report sees it watched.
 */
export function watchProject(root: string, onChange: (paths: string[]) => void, debounceMs = 120): ProjectWatcher {
  /** Watched folders, with the identity of the folder each watch was put on. */
  const armed = new Map<string, { watcher: FSWatcher; id: string }>();
  let timer: NodeJS.Timeout | undefined;
  let pending = new Set<string>();
  /** Entries created, removed or renamed since the last burst: folders among them are (re)walked. */
  let moved = new Set<string>();
  let closed = false;
  // Walks run one after another, so two never race to watch or drop the same folder.
  let walks: Promise<void> = Promise.resolve();
  const serially = (step: () => Promise<void>): Promise<void> => (walks = walks.then(step).catch(() => undefined));

  const note = (abs: string, entryMoved: boolean) => {
    if (closed) return;
    const rel = displayPath(root, abs);
    if (IGNORED.test(rel)) return;
    pending.add(rel);
    if (entryMoved) moved.add(abs);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const flush = () => {
    timer = undefined;
    if (closed) return;
    const paths = [...pending].sort();
    const entries = [...moved];
    pending = new Set();
    moved = new Set();
    void serially(async () => {
      for (const abs of entries) await rewalk(abs);
    }).then(() => {
      if (!closed) onChange(paths);
    });
  };

  const watchFolder = (dir: string, id: string) => {
    try {
      const watcher = watch(dir, { persistent: false }, (event, file) =>
        note(file ? join(dir, file.toString()) : dir, event === 'rename'),
      );
      watcher.on('error', () => undefined);
      armed.set(dir, { watcher, id });
    } catch {
      // Gone between the look and the watch (its parent's event re-walks it), or over the
      // inotify limit: nothing this watcher can report either way.
    }
  };
  const dropUnder = (dir: string) => {
    for (const [d, a] of armed) {
      if (d === dir || d.startsWith(dir + sep)) {
        a.watcher.close();
        armed.delete(d);
      }
    }
  };

  /**
   * Watches `dir` and the folders under it (not through symbolic links), unless that very
   * folder is watched already; a folder replaced by another is dropped and walked afresh.
   * `follow`: a top-level folder may be a link to the real one, as the scan reads it.
   */
  async function walk(dir: string, follow: boolean): Promise<void> {
    if (closed) return;
    const st = await (follow ? statNs(dir) : lstatNs(dir));
    if (closed) return;
    if (!st?.isDirectory()) return dropUnder(dir);
    const id = `${st.dev}:${st.ino}`;
    const known = armed.get(dir);
    if (known?.id === id) return;
    if (known) dropUnder(dir);
    // Watched before it is listed, so an entry made during the listing is reported.
    watchFolder(dir, id);
    const entries = await readdirEntries(dir).catch(() => []);
    for (const e of entries) {
      const child = join(dir, e.name);
      if (e.isDirectory() && !IGNORED.test(displayPath(root, child))) await walk(child, false);
    }
  }
  /** An entry that moved: walked if it is (now) a watched kind of folder, dropped if it is gone. */
  function rewalk(abs: string): Promise<void> {
    if (dirname(abs) === root) return ROOTS.has(basename(abs)) ? walk(abs, true) : Promise.resolve();
    return walk(abs, false);
  }

  watchFolder(root, '');
  const ready = serially(async () => {
    for (const name of ROOTS) await walk(join(root, name), true);
  });
  return {
    ready,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const a of armed.values()) a.watcher.close();
      armed.clear();
    },
  };
}

import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { WatchStatus } from '../../../shared/ipc/channels/project';
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
  /** Whether every folder the dashboard reads is watched; meaningful once `ready` settled. */
  status(): WatchStatus;
  /**
   * Why a change made in the folder `rel` (relative to the root) or in one under it might
   * not reach the viewers, or null when all of them are watched; meaningful once `ready`
   * settled.
   */
  gapUnder(rel: string): string | null;
  close(): void;
}

const isUnder =
  (dir: string) =>
  (d: string): boolean =>
    d === dir || d.startsWith(dir + sep);

/**
 * Why a folder could not be watched, in one line: the limit to raise when it is a limit.
 * Null when the folder is simply gone (its parent's event walks it again).
 */
export function watchFailure(rel: string, error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  const why =
    code === 'ENOSPC'
      ? "the system's limit on file watches is reached (raise fs.inotify.max_user_watches)"
      : code === 'EMFILE'
        ? 'too many watchers or open files (raise fs.inotify.max_user_instances or ulimit -n)'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : String((error as Error | undefined)?.message ?? error).split('\n')[0];
  return `${rel}: not watched — ${why}`;
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
export function watchProject(
  root: string,
  onChange: (paths: string[]) => void,
  debounceMs = 120,
  onStatus?: (status: WatchStatus) => void,
): ProjectWatcher {
  /** Watched folders, with the identity of the folder each watch was put on. */
  const armed = new Map<string, { watcher: FSWatcher; id: string }>();
  /**
   * Folders that exist but could not be watched (or whose watch failed), with why. Their
   * changes reach no one, and the status says so: over the inotify limit a folder fails
   * silently otherwise, and the app would claim to be live while it is not.
   */
  const failed = new Map<string, string>();
  let reported = '';
  let started = false;
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
      report();
      if (!closed) onChange(paths);
    });
  };

  const status = (): WatchStatus => {
    const first = failed.values().next();
    return {
      state: failed.size === 0 ? 'live' : armed.size === 0 ? 'off' : 'partial',
      watched: armed.size,
      unwatched: failed.size,
      reason: first.done ? null : first.value,
    };
  };
  /** Tells `onStatus` when the status changed; quiet until the first walk is done. */
  const report = () => {
    if (closed || !started || !onStatus) return;
    const now = status();
    const key = JSON.stringify(now);
    if (key !== reported) {
      reported = key;
      onStatus(now);
    }
  };
  const fail = (dir: string, error: unknown) => {
    const why = watchFailure(displayPath(root, dir), error);
    if (why) failed.set(dir, why);
  };

  const watchFolder = (dir: string, id: string) => {
    try {
      const watcher = watch(dir, { persistent: false }, (event, file) =>
        note(file ? join(dir, file.toString()) : dir, event === 'rename'),
      );
      watcher.on('error', (e) => {
        // The watch is gone: the folder is unwatched until something walks it again.
        if (armed.get(dir)?.watcher !== watcher) return;
        watcher.close();
        armed.delete(dir);
        fail(dir, e);
        report();
      });
      armed.set(dir, { watcher, id });
      failed.delete(dir);
    } catch (e) {
      // Gone between the look and the watch (its parent's event re-walks it), or over a
      // limit: the status names it.
      fail(dir, e);
    }
  };
  const dropUnder = (dir: string) => {
    const under = isUnder(dir);
    for (const [d, a] of armed) {
      if (under(d)) {
        a.watcher.close();
        armed.delete(d);
      }
    }
    for (const d of failed.keys()) if (under(d)) failed.delete(d);
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
  }).then(() => {
    started = true;
    report();
  });
  const gapUnder = (rel: string): string | null => {
    const dir = join(root, rel);
    const under = isUnder(dir);
    for (const [d, why] of failed) if (under(d)) return why;
    return armed.has(dir) ? null : `${displayPath(root, dir)}: not among the folders Skillsmith watches`;
  };
  return {
    ready,
    status,
    gapUnder,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const a of armed.values()) a.watcher.close();
      armed.clear();
    },
  };
}

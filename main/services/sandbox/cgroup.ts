import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A per-run cgroup holding the sandbox's processes, when this process may make one (root,
 * or a delegated cgroup v2 subtree): the process count and the whole run's memory are
 * capped there, which rlimits cannot do (RLIMIT_NPROC counts a user's processes machine
 * wide and does not bind root; RLIMIT_DATA is per process).
 */
export interface RunCgroup {
  readonly pids: boolean;
  readonly memory: boolean;
  /** Move a process (bwrap's child, before it starts the script) into the cgroup. */
  join(pid: number): void;
  /** What the kernel counted against the caps. */
  hits(): { pids: boolean; memory: boolean };
  /** Remove the cgroup once its killed processes have left it (retries for a few seconds). */
  remove(): void;
}

const ROOT = '/sys/fs/cgroup';

/** Make a cgroup for one run; undefined when this machine does not let us. */
export function makeRunCgroup(name: string, limits: { processes: number; memoryBytes: number }): RunCgroup | undefined {
  const self = safeRead('/proc/self/cgroup') ?? '';
  const v2 = existsSync(join(ROOT, 'cgroup.controllers'));
  const made: string[] = [];
  const tryMake = (dir: string, file: string, value: string): boolean => {
    try {
      mkdirSync(dir);
      made.push(dir);
      writeFileSync(join(dir, file), value);
      return true;
    } catch {
      return false;
    }
  };
  let pidsDir: string | undefined;
  let memDir: string | undefined;
  if (v2) {
    const path = /^0::(.*)$/m.exec(self)?.[1] ?? '/';
    const dir = join(ROOT, path, name);
    if (tryMake(dir, 'pids.max', String(limits.processes))) {
      pidsDir = dir;
      try {
        writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
        writeFileSync(join(dir, 'memory.swap.max'), '0');
      } catch {
        // memory controller not delegated
      }
      memDir =
        existsSync(join(dir, 'memory.max')) && safeRead(join(dir, 'memory.max'))?.trim() === String(limits.memoryBytes)
          ? dir
          : undefined;
    }
  } else {
    const v1 = (ctrl: string): string | undefined =>
      new RegExp(`^\\d+:[^:\\n]*\\b${ctrl}\\b[^:\\n]*:(.*)$`, 'm').exec(self)?.[1];
    const p = v1('pids');
    if (p !== undefined && tryMake(join(ROOT, 'pids', p, name), 'pids.max', String(limits.processes)))
      pidsDir = join(ROOT, 'pids', p, name);
    const m = v1('memory');
    if (m !== undefined && tryMake(join(ROOT, 'memory', m, name), 'memory.limit_in_bytes', String(limits.memoryBytes)))
      memDir = join(ROOT, 'memory', m, name);
  }
  if (!pidsDir && !memDir) {
    for (const d of made.reverse()) safeRmdir(d);
    return undefined;
  }
  return {
    pids: pidsDir !== undefined,
    memory: memDir !== undefined,
    join(pid) {
      for (const d of new Set([pidsDir, memDir])) if (d) writeFileSync(join(d, 'cgroup.procs'), String(pid));
    },
    hits() {
      const pidsHit = pidsDir !== undefined && /^max [1-9]/m.test(safeRead(join(pidsDir, 'pids.events')) ?? '');
      const memEvents =
        memDir !== undefined
          ? v2
            ? safeRead(join(memDir, 'memory.events'))
            : safeRead(join(memDir, 'memory.failcnt'))
          : undefined;
      const memHit =
        memEvents !== undefined && (v2 ? /^(max|oom_kill) [1-9]/m.test(memEvents) : Number(memEvents.trim()) > 0);
      return { pids: pidsHit, memory: memHit };
    },
    remove() {
      // The killed processes leave the cgroup a moment after the kill: retry for up to 5 s.
      let tries = 0;
      const attempt = (): void => {
        const left = [...new Set(made)].reverse().filter((d) => !safeRmdir(d));
        if (left.length > 0 && ++tries < 50) setTimeout(attempt, 100);
      };
      attempt();
    },
  };
}

function safeRead(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

/** True when the folder is gone (removed now, or already). */
function safeRmdir(p: string): boolean {
  try {
    rmdirSync(p);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

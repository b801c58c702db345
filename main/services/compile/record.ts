import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, resolve } from 'node:path';
import { planCompile, type CompileInput, type CompilePlan, type TargetStanding } from '../../../shared/compile/plan';
import type { ProjectFiles, TargetId } from '../../../shared/targets/types';
import { openProjectDir, readFileIn, writeNewFile, type ProjectDir } from '../fs/inside';
import { loadCompileInput } from './load';
import { diskProject } from './project-files';
import type { Applied } from './writer';

/*
 * The compile record: what the last complete compile read, file by file, and what it
 * reported, so that a compile with nothing to do answers from a few thousand lstat calls
 * instead of re-reading and re-emitting every skill and every output.
 *
 * The plan is a pure function of what the planner read — kitbash.toml, the skill folders,
 * and each answer of the project view (exists, read, list) — and of the engine. The record
 * holds, for each path read, the lstat signature (device, inode, mode, size, mtime, ctime)
 * it had once the compile was done; when every path still has it, every answer is the same,
 * so the plan is the same, and it was a plan with nothing to write. Any change — a hand edit,
 * a new skill, a file removed, a new agent folder — changes a signature (ctime cannot be set
 * by hand), and the compile runs in full.
 *
 * A signature only stands for content if the file cannot change without changing it. That
 * fails for a change in the same clock tick as the file's last one, so a signature is kept
 * only when its ctime is older than a timestamp taken from the same file system *before*
 * the content was read: a probe file made at the start (for what the compile read), and
 * again after the writes, once the clock has moved past them (for what it wrote, which is
 * then read back for the re-plan). Anything younger — a file edited while the compile ran —
 * and no record is written: the next compile runs in full.
 */

const RECORD_DIR = '.kitbash/cache';
const RECORD = 'compile-record.json';
const FORMAT = 1;

/** How the planner asked about a path. */
const EXISTS = 1; // exists(): presence only, through a final symlink
const READ = 2; // bytes or mode, never through a link
const LIST = 4; // a folder's entries, through a link
const FOLLOW = 8; // bytes through a link (kitbash.toml)

type Sig = [dev: number, ino: number, mode: number, size: number, mtime: number, ctime: number];
/** A path, how it was asked about, and its signature (null: absent) — plus the followed one for a symlink. */
type Entry = [rel: string, flags: number, sig: Sig | null, followed?: Sig | null];

/** What a compile with nothing to do prints, as the full compile found it. */
export interface RecordedReport {
  readonly targets: readonly TargetId[];
  readonly explicitTargets: boolean;
  readonly compiled: number;
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
  readonly standing: readonly TargetStanding[];
  /** Files already up to date (every planned one). */
  readonly unchanged: number;
}

interface RecordFile {
  readonly format: number;
  readonly engine: string;
  readonly root: string;
  readonly report: RecordedReport;
  readonly entries: Entry[];
}

/** This build of the engine: another build may plan differently, so its record does not count. */
function engine(): string {
  const st = statSync(__filename, { throwIfNoEntry: false });
  return `${FORMAT}:${basename(__filename)}:${st?.size ?? 0}:${st?.mtimeMs ?? 0}`;
}

function look(abs: string, follow: boolean): Stats | undefined {
  try {
    return (follow ? statSync : lstatSync)(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const sigOf = (st: Stats | undefined): Sig | null =>
  st ? [st.dev, st.ino, st.mode, st.size, st.mtimeMs, st.ctimeMs] : null;

function sameSig(st: Stats | undefined, sig: Sig | null | undefined): boolean {
  if (!st || !sig) return !st && !sig;
  return (
    st.ctimeMs === sig[5] &&
    st.ino === sig[1] &&
    st.size === sig[3] &&
    st.mtimeMs === sig[4] &&
    st.mode === sig[2] &&
    st.dev === sig[0]
  );
}

function entryOf(abs: string, rel: string, flags: number): Entry {
  if (flags === EXISTS) return [rel, EXISTS, look(abs, true) ? [0, 0, 0, 0, 0, 0] : null];
  const st = look(abs, false);
  const entry: Entry = [rel, flags, sigOf(st)];
  if (st?.isSymbolicLink() && flags & (EXISTS | LIST | FOLLOW)) entry.push(sigOf(look(abs, true)));
  return entry;
}

function unchanged(abs: string, [, flags, sig, followed]: Entry): boolean {
  if (flags === EXISTS) return (look(abs, true) !== undefined) === (sig !== null);
  const st = look(abs, false);
  if (!sameSig(st, sig)) return false;
  return followed === undefined || sameSig(look(abs, true), followed);
}

const at = (root: string, rel: string): string => (rel ? `${root}/${rel}` : root);

/**
 * The recorded report when nothing the last complete compile read has changed since — a
 * compile now would write nothing and print this; undefined otherwise (no record, another
 * engine, another folder, any path changed). Reads only.
 */
export function recordedReport(root: string): RecordedReport | undefined {
  let rec: RecordFile;
  try {
    const dir = openProjectDir(root, RECORD_DIR);
    let bytes;
    try {
      bytes = readFileIn(dir, RECORD);
    } finally {
      dir.close();
    }
    if (!bytes) return undefined;
    rec = JSON.parse(bytes.toString('utf8')) as RecordFile;
  } catch {
    return undefined;
  }
  const abs = resolve(root);
  if (rec.format !== FORMAT || rec.engine !== engine() || rec.root !== abs || !Array.isArray(rec.entries))
    return undefined;
  for (const e of rec.entries) if (!unchanged(at(abs, e[0]), e)) return undefined;
  return rec.report;
}

/** Every question a view is asked, and whether it found something (to check it against the disk afterwards). */
class Reads {
  readonly flags = new Map<string, number>();
  readonly found = new Map<string, boolean>();
  note(rel: string, flag: number, found: boolean): void {
    this.flags.set(rel, (this.flags.get(rel) ?? 0) | flag);
    if (found) this.found.set(rel, true);
    else if (!this.found.has(rel)) this.found.set(rel, false);
  }
  view(v: ProjectFiles): ProjectFiles {
    const n = <T>(rel: string, flag: number, value: T, found: boolean): T => (this.note(rel, flag, found), value);
    return {
      rootName: v.rootName,
      exists: (p) => {
        const e = v.exists(p);
        return n(p, EXISTS, e, e);
      },
      read: (p) => {
        const t = v.read(p);
        return n(p, READ, t, t !== undefined);
      },
      list: (d) => {
        const l = v.list(d);
        return n(d, LIST, l, l.length > 0);
      },
      ...(v.readBytes && {
        readBytes: (p: string) => {
          const b = v.readBytes!(p);
          return n(p, READ, b, b !== undefined);
        },
      }),
      ...(v.isExecutable && { isExecutable: (p: string) => n(p, READ, v.isExecutable!(p), true) }),
    };
  }
}

/** A file on the project's file system whose timestamps are that file system's clock now. */
class Probe {
  private constructor(
    private readonly dir: ProjectDir,
    private readonly name: string,
    private readonly fd: number,
    readonly dev: number,
    readonly started: number,
  ) {}

  /** A probe in `.kitbash/` (none without it: nothing is installed, nothing worth recording). */
  static start(root: string): Probe | undefined {
    let dir: ProjectDir;
    try {
      dir = openProjectDir(root, '.kitbash');
    } catch {
      return undefined;
    }
    try {
      sweepDeadProbes(dir);
      const name = `.${RECORD}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
      const fd = openSync(dir.at(name), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
      const st = fstatSync(fd);
      return new Probe(dir, name, fd, st.dev, st.ctimeMs);
    } catch {
      dir.close();
      return undefined;
    }
  }

  /** The clock now, once it has moved past every change made before this call; undefined if not within ~50 ms. */
  async after(): Promise<number | undefined> {
    const stamp = (): number => {
      writeSync(this.fd, 'x', 0);
      return fstatSync(this.fd).ctimeMs;
    };
    const first = stamp();
    for (let i = 0; i < 50; i++) {
      const now = stamp();
      if (now > first) return now;
      await new Promise((r) => setTimeout(r, 1));
    }
    return undefined;
  }

  /** Write `text` as the record: the probe file itself, renamed into `.kitbash/cache/`. */
  commit(root: string, text: string): void {
    const buf = Buffer.from(text, 'utf8');
    ftruncateSync(this.fd, 0);
    writeSync(this.fd, buf, 0, buf.length, 0);
    const cache = openProjectDir(root, RECORD_DIR, { create: true });
    try {
      // A cache of this machine's inode numbers: never worth committing.
      try {
        writeNewFile(cache, '.gitignore', '*\n', 0o644, false);
      } catch {
        // there already
      }
      renameSync(this.dir.at(this.name), cache.at(RECORD));
      cache.verify();
    } finally {
      cache.close();
    }
  }

  private closed = false;

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    try {
      unlinkSync(this.dir.at(this.name));
    } catch {
      // committed (renamed), or gone
    }
    this.dir.close();
  }
}

/** Probe files left by a compile that was killed (its process is gone). */
function sweepDeadProbes(dir: ProjectDir): void {
  const prefix = `.${RECORD}.`;
  for (const name of readdirSync(dir.at())) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    try {
      unlinkSync(dir.at(name));
    } catch {
      // gone already
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One recorded compile: started before anything is read, told what the planner and the skill
 * loader read, and finished after the plan is applied — it then writes the record if, and
 * only if, the compile is complete (a re-plan of the project as written has nothing to do)
 * and nothing it read changed while it ran.
 */
export class CompileRecorder {
  private readonly reads = new Reads();
  private readonly sources = new Map<string, number>();
  private readonly configBefore: Stats | undefined;
  private planned: { input: Omit<CompileInput, 'project'>; view: ProjectFiles } | undefined;

  private constructor(
    private readonly root: string,
    private readonly probe: Probe,
  ) {
    this.configBefore = look(at(root, 'kitbash.toml'), true);
  }

  /** Before anything is read. Undefined when there is nothing to record (no `.kitbash/`). */
  static start(root: string): CompileRecorder | undefined {
    // The path as given, not its real path: the plan names the project after it (rootName).
    const abs = resolve(root);
    const probe = Probe.start(abs);
    return probe && new CompileRecorder(abs, probe);
  }

  /** planProject's plan, with every path it reads noted. kitbash.toml errors throw. */
  plan(): CompilePlan {
    const input = loadCompileInput(this.root, (rel, how) => this.sources.set(rel, how === 'listed' ? LIST : READ));
    const view = diskProject(this.root);
    this.planned = { input, view };
    return planCompile({ ...input, project: this.reads.view(view) });
  }

  /**
   * After the plan was applied: write the record when the compile is complete and nothing it
   * read moved meanwhile. Never throws — a record only saves time — and always removes the probe.
   */
  async finish(plan: CompilePlan, applied: Applied): Promise<boolean> {
    try {
      if (!this.planned) return false;
      const text = await this.build(this.planned.input, this.planned.view, plan, applied);
      if (text !== undefined) this.probe.commit(this.root, text);
      return text !== undefined;
    } catch {
      return false;
    } finally {
      this.probe.close();
    }
  }

  private async build(
    input: Omit<CompileInput, 'project'>,
    view: ProjectFiles,
    plan: CompilePlan,
    applied: Applied,
  ): Promise<string | undefined> {
    if (plan.errors.length || plan.failures.length) return undefined;
    const touched = touchedBy(plan, applied);
    let reads = this.reads;
    let final = plan;
    let settled = this.probe.started;
    if (touched.size) {
      // What was written is read back, after the clock has moved past the writes; the rest comes from before.
      const after = await this.probe.after();
      if (after === undefined) return undefined;
      settled = after;
      const fresh = diskProject(this.root);
      const pick = (p: string): ProjectFiles => (touched.has(p) ? fresh : view);
      reads = new Reads();
      final = planCompile({
        ...input,
        project: reads.view({
          rootName: view.rootName,
          exists: (p) => pick(p).exists(p),
          read: (p) => pick(p).read(p),
          list: (d) => pick(d).list(d),
          readBytes: (p) => pick(p).readBytes!(p),
          isExecutable: (p) => pick(p).isExecutable!(p),
        }),
      });
    }
    if (!nothingToDo(final)) return undefined;

    const configNow = look(at(this.root, 'kitbash.toml'), true);
    if (!sameSig(configNow, sigOf(this.configBefore))) return undefined;
    const entries: Entry[] = [];
    const trusted = (sig: Sig | null | undefined, rel: string): boolean =>
      !sig || (sig[0] === this.probe.dev && sig[5] < (touched.has(rel) ? settled : this.probe.started));
    for (const [rel, flags] of reads.flags) {
      const e = entryOf(at(this.root, rel), rel, flags);
      // Found then, gone now (or the other way round for presence): the answer the plan used is not the disk's.
      if (e[2] === null ? reads.found.get(rel) === true : flags === EXISTS && reads.found.get(rel) === false)
        return undefined;
      if (flags !== EXISTS && !(trusted(e[2], rel) && trusted(e[3], rel))) return undefined;
      entries.push(e);
    }
    for (const [rel, flags] of [...this.sources, ['kitbash.toml', READ | FOLLOW] as const]) {
      const e = entryOf(at(this.root, rel), rel, flags);
      if ((e[2] === null && rel !== 'kitbash.toml') || !trusted(e[2], rel) || !trusted(e[3], rel)) return undefined;
      entries.push(e);
    }
    const report: RecordedReport = {
      targets: final.targets,
      explicitTargets: final.explicitTargets,
      compiled: final.compiled,
      warnings: final.warnings,
      notes: final.notes,
      standing: final.standing,
      unchanged: final.write.length + final.merge.length,
    };
    const rec: RecordFile = { format: FORMAT, engine: engine(), root: this.root, report, entries };
    return JSON.stringify(rec);
  }

  /** Give up (a dry run, a refusal, a failed write): the probe goes, no record is written. */
  abandon(): void {
    this.probe.close();
  }
}

/** A plan that writes, merges and prunes nothing, and refuses and skips nothing. */
function nothingToDo(plan: CompilePlan): boolean {
  return (
    plan.errors.length === 0 &&
    plan.failures.length === 0 &&
    plan.prune.length === 0 &&
    plan.write.every((f) => !f.changed) &&
    plan.merge.every((f) => !f.changed)
  );
}

/** Paths the apply changed, with every folder above them (their listings changed). */
function touchedBy(plan: CompilePlan, applied: Applied): Set<string> {
  const out = new Set<string>();
  const add = (p: string): void => {
    out.add(p);
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) out.add(p.slice(0, i));
    out.add('');
  };
  for (const p of [...applied.written, ...applied.rewritten, ...applied.removed]) add(p);
  const removed = new Set(applied.removed);
  for (const p of plan.prune) if (removed.has(p.path)) for (const d of p.removeEmptyDirs ?? []) add(d);
  return out;
}

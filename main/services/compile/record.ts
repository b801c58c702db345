import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { resolve } from 'node:path';
import { planCompile, summarize, type CompileInput, type CompilePlan } from '../../../shared/compile/plan';
import type { ProjectFiles } from '../../../shared/targets/types';
import { openProjectDir, type ProjectDir } from '../fs/inside';
import { loadCompileInput } from './load';
import { look, PRESENT, sameSig, sigOf, type Sig } from '../fs/stamp';
import { diskProject, MAX_READ_BYTES } from './project-files';
import {
  at,
  encodeEntries,
  engine,
  openCacheDir,
  exceptionsInEffect,
  entryOf,
  EXISTS,
  FOLLOW,
  FORMAT,
  LIST,
  READ,
  RECORD,
  type Entry,
  type RecordedReport,
  type RecordFile,
} from './recorded';
import type { Applied } from './writer';

/**
 * Every question a view is asked: how (the flags), whether it found something, and what
 * exists() answered — to check each against the signature the record keeps for the path.
 */
class Reads {
  readonly flags = new Map<string, number>();
  readonly found = new Map<string, boolean>();
  readonly present = new Map<string, boolean>();
  note(rel: string, flag: number, found: boolean): void {
    this.flags.set(rel, (this.flags.get(rel) ?? 0) | flag);
    if (flag === EXISTS) this.present.set(rel, found);
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
    const cache = openCacheDir(root);
    try {
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
  /** The lstat each answer of the planner's disk view was read after; a path seen twice, differently, is unstable. */
  private readonly seen = new Map<string, Sig | null>();
  private readonly unstable = new Set<string>();
  /** For applyPlan's `written`: the bytes it staged, to compare the files with (not encoded twice). */
  readonly written = new Map<string, Uint8Array>();

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
    const view = diskProject(this.root, (rel, st) => {
      if (st && st.dev !== this.probe.dev) this.unstable.add(rel);
      if (!this.seen.has(rel)) this.seen.set(rel, sigOf(st));
      else if (!sameSig(st, this.seen.get(rel))) this.unstable.add(rel);
    });
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
    // A withheld skill is reported on every compile until it is resolved: never answered from a record.
    if (plan.errors.length || plan.failures.length || plan.withheld.length) return undefined;
    const touched = touchedBy(plan, applied);
    let reads = this.reads;
    let final = plan;
    let settled = this.probe.started;
    const verified = new Map<string, Verified>();
    if (touched.size) {
      // The project as written: each written file read back (after the clock has moved past
      // the writes) and compared with what was meant; folders and the rest from the disk.
      const after = await this.probe.after();
      if (after === undefined) return undefined;
      settled = after;
      const scratch = { buf: Buffer.alloc(0) };
      for (const [rel, content] of writtenContent(plan, applied)) {
        const v = readBack(at(this.root, rel), content, this.probe.dev, this.written.get(rel), scratch);
        if (!v) return undefined;
        verified.set(rel, v);
      }
      const fresh = diskProject(this.root);
      const pick = (p: string): ProjectFiles => (touched.has(p) ? fresh : view);
      // A file read back exists, and so does every folder above it.
      const there = new Set<string>();
      for (const rel of verified.keys())
        for (let p = rel; p && !there.has(p); p = p.slice(0, Math.max(0, p.lastIndexOf('/')))) there.add(p);
      reads = new Reads();
      final = planCompile({
        ...input,
        project: reads.view({
          rootName: view.rootName,
          exists: (p) => there.has(p) || pick(p).exists(p),
          read: (p) => verified.get(p)?.text ?? pick(p).read(p),
          list: (d) => pick(d).list(d),
          readBytes: (p) => verified.get(p)?.bytes ?? pick(p).readBytes!(p),
          isExecutable: (p) => {
            const v = verified.get(p);
            return v ? (v.sig[1] & 0o111) !== 0 : pick(p).isExecutable!(p);
          },
        }),
      });
    }
    if (!nothingToDo(final)) return undefined;

    const configNow = look(at(this.root, 'kitbash.toml'), true);
    if (!sameSig(configNow, sigOf(this.configBefore))) return undefined;
    let entries: Entry[] = [];
    const trusted = (sig: Sig | null | undefined, rel: string): boolean =>
      !sig || sig[3] < (touched.has(rel) ? settled : this.probe.started);
    for (const [rel, flags] of reads.flags) {
      const e = this.entry(rel, flags, reads, touched.has(rel), verified.get(rel));
      if (!e || (flags !== EXISTS && !(trusted(e[2], rel) && trusted(e[3], rel)))) return undefined;
      entries.push(e);
    }
    // kitbash.lock decides what may be delivered (its pins), so a changed lock is a changed compile.
    const optional = new Set(['kitbash.toml', 'kitbash.lock']);
    for (const [rel, flags] of [
      ...this.sources,
      ['kitbash.toml', READ | FOLLOW] as const,
      ['kitbash.lock', READ | FOLLOW] as const,
    ]) {
      const e = entryOf(at(this.root, rel), rel, flags, this.probe.dev);
      if (!e || (e[2] === null && !optional.has(rel)) || !trusted(e[2], rel) || !trusted(e[3], rel)) return undefined;
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
      summary: summarize(final),
    };
    entries = withoutImplied(entries);
    const exceptions = exceptionsInEffect(this.root);
    if (exceptions === undefined) return undefined;
    const rec: RecordFile = {
      format: FORMAT,
      engine: engine(),
      root: this.root,
      dev: this.probe.dev,
      report,
      ...encodeEntries(entries),
      exceptions,
    };
    return JSON.stringify(rec);
  }

  /**
   * The record's entry for a path the planner asked about, consistent with every answer it
   * got; undefined when the answers disagree with each other or with the disk. Presence
   * alone is the answer itself. A file read back after the writes has the signature taken
   * then; one the disk view read (and the compile did not touch) the lstat the view read it
   * after; anything else — a touched folder, a symlink — is looked at now.
   */
  private entry(rel: string, flags: number, reads: Reads, touched: boolean, verified?: Verified): Entry | undefined {
    if (flags === EXISTS) return [rel, EXISTS, reads.present.get(rel) ? PRESENT : null];
    if (verified) return [rel, flags, verified.sig];
    const present = reads.present.get(rel);
    if (!touched && this.seen.has(rel) && !this.unstable.has(rel)) {
      const sig = this.seen.get(rel)!;
      const link = sig !== null && (sig[1] & constants.S_IFMT) === constants.S_IFLNK;
      if (!link) return present === undefined || present === (sig !== null) ? [rel, flags, sig] : undefined;
    }
    const e = entryOf(at(this.root, rel), rel, flags, this.probe.dev);
    if (!e) return undefined;
    // Found then, gone now (or the other way round for presence): the answer the plan used is not the disk's.
    if (e[2] === null ? reads.found.get(rel) === true : present === false) return undefined;
    return e;
  }

  /** Give up (a dry run, a refusal, a failed write): the probe goes, no record is written. */
  abandon(): void {
    this.probe.close();
  }
}

/** What the apply wrote, path by path (owned files, merges, and shared files with stale sections cut). */
function writtenContent(plan: CompilePlan, applied: Applied): Map<string, string | Uint8Array> {
  const written = new Set([...applied.written, ...applied.rewritten]);
  const out = new Map<string, string | Uint8Array>();
  for (const f of [...plan.write, ...plan.merge]) if (f.changed && written.has(f.path)) out.set(f.path, f.content);
  for (const p of plan.prune) if (p.action === 'rewrite' && written.has(p.path)) out.set(p.path, p.content ?? '');
  return out;
}

/**
 * A written file read back: its signature (taken before the read, from the same descriptor)
 * if it is a regular file holding exactly `content`, else undefined. With it, what the disk
 * view would answer for it without reading it again: the planned text itself (when decoding
 * the bytes gives it back exactly, and the view would read a file that large), or the bytes.
 */
interface Verified {
  readonly sig: Sig;
  readonly text?: string;
  readonly bytes?: Uint8Array;
}

function readBack(
  abs: string,
  content: string | Uint8Array,
  dev: number,
  staged: Uint8Array | undefined,
  scratch: { buf: Buffer },
): Verified | undefined {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    const want = staged ?? (typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    if (!st.isFile() || st.dev !== dev || st.size !== want.length) return undefined;
    // One buffer for every file read back, grown as needed: no fresh pages per file.
    if (scratch.buf.length < st.size) scratch.buf = Buffer.allocUnsafe(Math.max(st.size, 2 * scratch.buf.length));
    const got = scratch.buf.subarray(0, st.size);
    for (let off = 0; off < got.length;) {
      const n = readSync(fd, got, off, got.length - off, off);
      if (n === 0) return undefined;
      off += n;
    }
    if (!got.equals(want)) return undefined;
    const sig = sigOf(st)!;
    if (st.size > MAX_READ_BYTES) return { sig };
    if (typeof content !== 'string') return { sig, bytes: want };
    // A lone surrogate is written as U+FFFD: without those bytes, the text decodes back from them unchanged.
    return Buffer.from(want.buffer, want.byteOffset, want.length).indexOf(REPLACEMENT) < 0
      ? { sig, text: content }
      : { sig };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');

/**
 * The entries without those others imply, so a compile with nothing to do checks fewer
 * paths: a folder's presence when something under it is recorded present (it resolves,
 * then), and an absence under a path recorded absent (nothing under it can resolve).
 */
function withoutImplied(entries: readonly Entry[]): Entry[] {
  const present = new Set<string>();
  const absent = new Set<string>();
  for (const [rel, , sig] of entries) {
    if (sig === null) absent.add(rel);
    // Folders above are added until one is there already (so were the rest above it).
    else
      for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) {
        const up = rel.slice(0, i);
        if (present.has(up)) break;
        present.add(up);
      }
  }
  const underAbsent = (rel: string): boolean => {
    for (let i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1))
      if (absent.has(rel.slice(0, i))) return true;
    return false;
  };
  return entries.filter(([rel, flags, sig]) =>
    sig === null ? !underAbsent(rel) : !(flags === EXISTS && present.has(rel)),
  );
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

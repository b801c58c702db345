import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { TargetStanding } from '../../../shared/compile/plan';
import type { TargetId } from '../../../shared/targets/types';
import { exceptionId } from '../../../shared/policy/exceptions';
import { openProjectDir, readFileIn, writeNewFile, type ProjectDir } from '../fs/inside';
import { look, PRESENT, sigOf, type Sig } from '../fs/stamp';
import { readProjectConfig } from '../project/config';

/*
 * The compile record: what the last complete compile read, file by file, and what it
 * reported, so that a compile with nothing to do answers from a few thousand lstat calls
 * instead of re-reading and re-emitting every skill and every output.
 *
 * The plan is a pure function of what the planner read — kitbash.toml, the skill folders,
 * and each answer of the project view (exists, read, list) — and of the engine. The record
 * holds, for each path read, the lstat signature (inode, mode, size, ctime, on one device)
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

export const RECORD_DIR = '.kitbash/cache';
export const RECORD = 'compile-record.json';
export const FORMAT = 2;

/** How the planner asked about a path. */
export const EXISTS = 1; // exists(): presence only, through a final symlink
export const READ = 2; // bytes or mode, never through a link
export const LIST = 4; // a folder's entries, through a link
export const FOLLOW = 8; // bytes through a link (kitbash.toml)
/** In a record's `kinds`: the entry keeps its link target's signature too. */
const TARGET = 16;
/** A kind is kept as one character: this plus its flags (and TARGET). */
const KIND_BASE = 64;

/** A path, how it was asked about, and its signature (null: absent) — plus the followed one for a symlink. */
export type Entry = [rel: string, flags: number, sig: Sig | null, followed?: Sig | null];

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
  /** The summary line ("compiled 3 skills for 2 targets"). */
  readonly summary: string;
}

/**
 * The record as kept. The paths and how each was asked about are what a no-op compile must
 * take again; their signatures are kept only as a SHA-256 over them (`sigs`), since the
 * answer needs only "all the same": parsing thousands of small arrays of numbers cost more
 * than the lstat calls they are compared with.
 */
export interface RecordFile {
  readonly format: number;
  readonly engine: string;
  readonly root: string;
  /** The device every recorded path is on (the probe's: its clock timed the signatures). */
  readonly dev: number;
  readonly report: RecordedReport;
  /** Every recorded path, relative to the root ('' is the root). */
  readonly paths: string[];
  /** One character per path: KIND_BASE + its flags, + TARGET when a link's target is signed too. */
  readonly kinds: string;
  /** SHA-256 (hex) over every signature in path order, laid out as putSig lays them out. */
  readonly sigs: string;
  /** exceptionsInEffect when it was written: the user's confirmations live outside the project. */
  readonly exceptions: string;
}

/**
 * The ids of the [[policy.exceptions]] that take effect for this user now (spec D190). The
 * plan depends on them, but the per-user record they come from is no file of the project,
 * so no signature covers it: the record is keyed by them instead.
 */
export function exceptionsInEffect(root: string): string | undefined {
  const config = readProjectConfig(root);
  return config.ok ? config.value.exceptions.map(exceptionId).sort().join(',') : undefined;
}

/**
 * This build of the engine: another build may plan differently, so its record does not
 * count. The bundle's chunk files are named by their content hash, so the names beside this
 * one change with any code that plans; its own size and time tell two builds apart as well.
 */
export function engine(): string {
  const st = statSync(__filename, { throwIfNoEntry: false });
  let beside: string[];
  try {
    beside = readdirSync(dirname(__filename)).sort();
  } catch {
    beside = [];
  }
  return `${FORMAT}:${basename(__filename)}:${st?.size ?? 0}:${st?.mtimeMs ?? 0}:${beside.join(',')}`;
}

/** The entry for `rel` as the disk has it now; undefined if it lies on another device than `dev`. */
export function entryOf(abs: string, rel: string, flags: number, dev: number): Entry | undefined {
  if (flags === EXISTS) return [rel, EXISTS, look(abs, true) ? PRESENT : null];
  const st = look(abs, false);
  const entry: Entry = [rel, flags, sigOf(st)];
  let target: Stats | undefined;
  if (st?.isSymbolicLink() && flags & (EXISTS | LIST | FOLLOW)) entry.push(sigOf((target = look(abs, true))));
  return (st && st.dev !== dev) || (target && target.dev !== dev) ? undefined : entry;
}

/*
 * Signatures as bytes: four doubles each (inode, mode, size, ctime), an absent path with
 * mode -1 (no real mode is negative) and presence alone as PRESENT's zeros. Both the writer
 * (from Sig) and the no-op (from Stats, without building a Sig per path) lay them out here.
 */
const ABSENT_MODE = -1;

function putSig(out: Float64Array, k: number, sig: Sig | null): number {
  if (sig) out.set(sig, k);
  else out[k + 1] = ABSENT_MODE;
  return k + 4;
}

function putStats(out: Float64Array, k: number, st: Stats | undefined): number {
  if (st) {
    out[k] = st.ino;
    out[k + 1] = st.mode;
    out[k + 2] = st.size;
    out[k + 3] = st.ctimeMs;
  } else out[k + 1] = ABSENT_MODE;
  return k + 4;
}

const digestOf = (sigs: Float64Array): string =>
  createHash('sha256')
    .update(new Uint8Array(sigs.buffer, sigs.byteOffset, sigs.byteLength))
    .digest('hex');

/** Entries as the record keeps them. */
export function encodeEntries(entries: readonly Entry[]): Pick<RecordFile, 'paths' | 'kinds' | 'sigs'> {
  const sigs = new Float64Array(4 * entries.reduce((n, e) => n + (e[3] === undefined ? 1 : 2), 0));
  let k = 0;
  let kinds = '';
  for (const [, flags, sig, followed] of entries) {
    kinds += String.fromCharCode(KIND_BASE + flags + (followed === undefined ? 0 : TARGET));
    k = putSig(sigs, k, sig);
    if (followed !== undefined) k = putSig(sigs, k, followed);
  }
  return { paths: entries.map((e) => e[0]), kinds, sigs: digestOf(sigs) };
}

/**
 * Each recorded path taken again as the compile asked about it (an EXISTS through a final
 * link, anything else of the path itself, and of its target too where a link's was kept);
 * the digest of their signatures now, or undefined when a path is on another device than
 * `dev` or the record is not well formed.
 */
function signaturesNow(abs: string, rec: RecordFile, dev: number): string | undefined {
  const { paths, kinds } = rec;
  if (!Array.isArray(paths) || typeof kinds !== 'string' || paths.length !== kinds.length) return undefined;
  let slots = 0;
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds.charCodeAt(i) - KIND_BASE;
    if (kind < 1 || kind >= 2 * TARGET || (kind & (TARGET - 1)) === 0 || typeof paths[i] !== 'string') return undefined;
    slots += kind & TARGET ? 2 : 1;
  }
  const sigs = new Float64Array(4 * slots);
  let k = 0;
  for (let i = 0; i < paths.length; i++) {
    const kind = kinds.charCodeAt(i) - KIND_BASE;
    const path = at(abs, paths[i]!);
    if ((kind & ~TARGET) === EXISTS) {
      k = putSig(sigs, k, existsSync(path) ? PRESENT : null);
      continue;
    }
    const st = look(path, false);
    if (st && st.dev !== dev) return undefined;
    k = putStats(sigs, k, st);
    if (!(kind & TARGET)) continue;
    const target = look(path, true);
    if (target && target.dev !== dev) return undefined;
    k = putStats(sigs, k, target);
  }
  return digestOf(sigs);
}

export const at = (root: string, rel: string): string => (rel ? `${root}/${rel}` : root);

/** `.kitbash/cache/`, made if missing, with its own `.gitignore`: what it holds is this machine's alone. */
export function openCacheDir(root: string): ProjectDir {
  const cache = openProjectDir(root, RECORD_DIR, { create: true });
  try {
    writeNewFile(cache, '.gitignore', '*\n', 0o644, false);
  } catch {
    // there already
  }
  return cache;
}

/**
 * The JSON of `.kitbash/cache/<name>`, read inside the project (no link followed out of it);
 * undefined when it is missing, unreadable or not JSON — a cache that cannot be read is none.
 */
export function readCacheJson(root: string, name: string): unknown {
  try {
    const dir = openProjectDir(root, RECORD_DIR);
    try {
      const bytes = readFileIn(dir, name);
      return bytes ? (JSON.parse(bytes.toString('utf8')) as unknown) : undefined;
    } finally {
      dir.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * The recorded report when nothing the last complete compile read has changed since — a
 * compile now would write nothing and print this; undefined otherwise (no record, another
 * engine, another folder, any path changed). Reads only.
 */
export function recordedReport(root: string): RecordedReport | undefined {
  const rec = readCacheJson(root, RECORD) as RecordFile | undefined;
  if (!rec) return undefined;
  const abs = resolve(root);
  if (rec.format !== FORMAT || rec.engine !== engine() || rec.root !== abs || typeof rec.sigs !== 'string')
    return undefined;
  if (signaturesNow(abs, rec, rec.dev) !== rec.sigs) return undefined;
  if (rec.exceptions !== exceptionsInEffect(abs)) return undefined;
  return rec.report;
}

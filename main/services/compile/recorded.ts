import { existsSync, readdirSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { TargetStanding } from '../../../shared/compile/plan';
import type { TargetId } from '../../../shared/targets/types';
import { exceptionId } from '../../../shared/policy/exceptions';
import { openProjectDir, readFileIn } from '../fs/inside';
import { look, PRESENT, sameSig, sigOf, type Sig } from '../fs/stamp';
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
export const FORMAT = 1;

/** How the planner asked about a path. */
export const EXISTS = 1; // exists(): presence only, through a final symlink
export const READ = 2; // bytes or mode, never through a link
export const LIST = 4; // a folder's entries, through a link
export const FOLLOW = 8; // bytes through a link (kitbash.toml)

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

export interface RecordFile {
  readonly format: number;
  readonly engine: string;
  readonly root: string;
  /** The device every recorded path is on (the probe's: its clock timed the signatures). */
  readonly dev: number;
  readonly report: RecordedReport;
  readonly entries: Entry[];
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

function unchanged(abs: string, [, flags, sig, followed]: Entry, dev: number): boolean {
  if (flags === EXISTS) return existsSync(abs) === (sig !== null);
  const st = look(abs, false);
  if (!sameSig(st, sig) || (st && st.dev !== dev)) return false;
  if (followed === undefined) return true;
  const target = look(abs, true);
  return sameSig(target, followed) && (!target || target.dev === dev);
}

export const at = (root: string, rel: string): string => (rel ? `${root}/${rel}` : root);

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
  for (const e of rec.entries) if (!unchanged(at(abs, e[0]), e, rec.dev)) return undefined;
  if (rec.exceptions !== exceptionsInEffect(abs)) return undefined;
  return rec.report;
}

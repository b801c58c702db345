import { lstat, readdir, readFile, stat, type BigIntStats, type Dirent } from 'node:fs';

/*
 * The few file-system reads the install path makes by the thousand (stamps, listings,
 * small files), through Node's callback API wrapped in a promise: the same thread-pool
 * work as fs/promises at about half its main-thread cost per call, which is what a
 * project of a thousand skills multiplies.
 */

/** lstat with nanosecond times; undefined when nothing is there (or it cannot be read). */
export function lstatNs(p: string): Promise<BigIntStats | undefined> {
  return new Promise((resolve) => lstat(p, { bigint: true }, (e, st) => resolve(e ? undefined : st)));
}

/** stat (through symlinks) with nanosecond times; undefined when nothing is there. */
export function statNs(p: string): Promise<BigIntStats | undefined> {
  return new Promise((resolve) => stat(p, { bigint: true }, (e, st) => resolve(e ? undefined : st)));
}

/** The entries of a folder; rejects like fs.promises.readdir. */
export function readdirEntries(p: string): Promise<Dirent[]> {
  return new Promise((resolve, reject) => readdir(p, { withFileTypes: true }, (e, d) => (e ? reject(e) : resolve(d))));
}

/** A file's bytes; rejects like fs.promises.readFile. */
export function readBytes(p: string): Promise<Buffer> {
  return new Promise((resolve, reject) => readFile(p, (e, b) => (e ? reject(e) : resolve(b))));
}

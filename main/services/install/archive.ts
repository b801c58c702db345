import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ReadEntry } from 'tar';
import { archiveEntryPath, archiveSkillRoot } from '../../../shared/lock/archive-path';
import { formatBytes, plural } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';
import type { SourceCaps } from '../sources/copy';
import { readZip } from './zip';

export type ArchiveFormat = 'tar.gz' | 'zip';

/** One entry read out of an archive, before anything is written. */
export interface ArchiveEntry {
  readonly path: string;
  readonly kind: 'file' | 'dir';
  readonly data: Buffer;
  readonly executable: boolean;
}

/** Throws the one line that names the archive, the entry and why it is refused. */
export type Refuse = (entry: string, why: string) => never;

const GZIP_TYPES = new Set([
  'application/gzip',
  'application/x-gzip',
  'application/tar+gzip',
  'application/x-tar+gzip',
  'application/x-compressed-tar',
]);
const ZIP_TYPES = new Set(['application/zip', 'application/x-zip-compressed']);

/**
 * The archive's format as the RFC decides it: the Content-Type, else the URL's extension
 * (a generic type such as application/octet-stream says nothing), else the leading bytes.
 */
export function archiveFormat(contentType: string | undefined, url: string, bytes: Buffer): ArchiveFormat | undefined {
  if (contentType && GZIP_TYPES.has(contentType)) return 'tar.gz';
  if (contentType && ZIP_TYPES.has(contentType)) return 'zip';
  const path = new URL(url).pathname.toLowerCase();
  if (path.endsWith('.tar.gz') || path.endsWith('.tgz')) return 'tar.gz';
  if (path.endsWith('.zip')) return 'zip';
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'tar.gz';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'zip';
  return undefined;
}

/**
 * Unpack a digest-verified archive into the empty folder `dest` (SPEC D323). Every entry is
 * read and judged in memory first — its path (no absolute path, no `..`), its type (files and
 * folders only: a link or a device is refused, whatever it points at), the entry count and
 * the unpacked bytes against `caps` — so a refused archive writes nothing. The skill is the
 * archive's root, or the one folder holding everything when that folder has the SKILL.md.
 */
export async function unpackArchive(
  bytes: Buffer,
  format: ArchiveFormat,
  dest: string,
  caps: SourceCaps,
  label: string,
): Promise<void> {
  const refuse: Refuse = (entry, why) => {
    throw new CodedError('invalid-input', `${label}: archive entry "${entry}" refused — ${why}`);
  };
  const entries = format === 'zip' ? readZip(bytes, caps, refuse, label) : await readTarGz(bytes, caps, refuse, label);
  const seen = new Set<string>();
  const kept: ArchiveEntry[] = [];
  for (const e of entries) {
    const p = archiveEntryPath(e.path);
    if (!p.ok) refuse(e.path, p.error.message);
    if (p.value === '') continue;
    if (seen.has(p.value)) refuse(e.path, 'the archive holds this path twice');
    seen.add(p.value);
    kept.push({ ...e, path: p.value });
  }
  const root = archiveSkillRoot(kept.filter((e) => e.kind === 'file').map((e) => e.path));
  if (root === undefined)
    throw new CodedError(
      'invalid-input',
      `${label}: the archive has no SKILL.md at its root (nor one folder holding it) — not a skill archive`,
    );
  for (const e of kept) {
    const rel = root === '' ? e.path : e.path.slice(root.length + 1);
    if (rel === '' || (root !== '' && !e.path.startsWith(`${root}/`))) continue;
    const to = join(dest, ...rel.split('/'));
    try {
      if (e.kind === 'dir') await mkdir(to, { recursive: true, mode: 0o755 });
      else {
        await mkdir(join(to, '..'), { recursive: true, mode: 0o755 });
        // 'wx': a path the archive already made (a file where a folder goes) is an error, never overwritten.
        await writeFile(to, e.data, { flag: 'wx', mode: e.executable ? 0o755 : 0o644 });
      }
    } catch (err) {
      refuse(e.path, `cannot be unpacked (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
}

const TAR_TYPES_REFUSED: Readonly<Record<string, string>> = {
  SymbolicLink: 'a symbolic link (links are refused, wherever they point)',
  Link: 'a hard link (links are refused, wherever they point)',
  CharacterDevice: 'a device file',
  BlockDevice: 'a device file',
  FIFO: 'a named pipe',
};

/** A .tar.gz's entries, inflated as a stream so a cap stops it at the entry that crosses it. */
async function readTarGz(bytes: Buffer, caps: SourceCaps, refuse: Refuse, label: string): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  let total = 0;
  let failure: unknown;
  // Loaded only when a tar archive is read: every install opens this module, few unpack one.
  const { Parser } = await import('tar');
  const gunzip = createGunzip();
  const stop = (e: unknown) => {
    failure ??= e;
    gunzip.destroy();
  };
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      try {
        if (entries.length >= caps.maxFiles)
          refuse(entry.path, `the archive holds more than ${plural(caps.maxFiles, 'entry', 'entries')}`);
        const why = TAR_TYPES_REFUSED[entry.type];
        if (why) refuse(entry.path, why);
        if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
          if (entry.type !== 'Directory') refuse(entry.path, `an entry of type ${entry.type}`);
          entries.push({ path: entry.path, kind: 'dir', data: Buffer.alloc(0), executable: false });
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => {
          total += c.length;
          if (total > caps.maxBytes) {
            try {
              refuse(entry.path, `the archive unpacks to more than ${formatBytes(caps.maxBytes)}`);
            } catch (e) {
              stop(e);
            }
            return;
          }
          chunks.push(c);
        });
        entry.on('end', () =>
          entries.push({
            path: entry.path,
            kind: 'file',
            data: Buffer.concat(chunks),
            executable: ((entry.mode ?? 0) & 0o111) !== 0,
          }),
        );
      } catch (e) {
        stop(e);
        entry.resume();
      }
    },
  });
  parser.on('error', (e: Error) =>
    stop(new CodedError('invalid-input', `${label}: not a readable tar archive — ${e.message}`)),
  );
  await new Promise<void>((resolve) => {
    gunzip.on('data', (c: Buffer) => {
      if (failure === undefined) parser.write(c);
    });
    gunzip.on('end', () => {
      if (failure === undefined) parser.end();
      resolve();
    });
    gunzip.on('error', (e) => {
      stop(new CodedError('invalid-input', `${label}: not a readable gzip stream — ${e.message}`));
      resolve();
    });
    gunzip.on('close', () => resolve());
    Readable.from([bytes]).pipe(gunzip);
  });
  if (failure !== undefined) throw failure;
  return entries;
}

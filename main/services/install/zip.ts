import { inflateRawSync } from 'node:zlib';
import { formatBytes, plural } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';
import type { SourceCaps } from '../sources/copy';
import type { ArchiveEntry, Refuse } from './archive';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 64 KiB. */
const EOCD_SEARCH = 22 + 0xffff;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/**
 * The entries of a .zip, read from its central directory (SPEC D324: Skillsmith's own reader,
 * no dependency). Stored and deflated entries only; no ZIP64, no encryption, one disk. Each
 * entry is inflated with the bytes left under the cap as its limit, so a bomb stops at the
 * entry that crosses it, and one whose size differs from what its header says is refused.
 */
export function readZip(bytes: Buffer, caps: SourceCaps, refuse: Refuse, label: string): ArchiveEntry[] {
  const broken = (why: string) => new CodedError('invalid-input', `${label}: not a readable zip archive — ${why}`);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - EOCD_SEARCH); i--)
    if (bytes.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  if (end < 0) throw broken('no end-of-central-directory record');
  const count = bytes.readUInt16LE(end + 10);
  const cdOffset = bytes.readUInt32LE(end + 16);
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 8) !== count) throw broken('a multi-disk archive');
  if (count === 0xffff || cdOffset === 0xffffffff) throw broken('a ZIP64 archive, which Skillsmith does not read');
  const entries: ArchiveEntry[] = [];
  let total = 0;
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw broken(`central directory entry ${i + 1}`);
    const madeBy = bytes.readUInt16LE(at + 4);
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLen = bytes.readUInt16LE(at + 28);
    const skip = nameLen + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const attrs = bytes.readUInt32LE(at + 38);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLen);
    at += 46 + skip;
    if (i >= caps.maxFiles) refuse(name, `the archive holds more than ${plural(caps.maxFiles, 'entry', 'entries')}`);
    const mode = madeBy >> 8 === UNIX_HOST ? attrs >>> 16 : 0;
    const type = mode & S_IFMT;
    if (type === S_IFLNK) refuse(name, 'a symbolic link (links are refused, wherever they point)');
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) refuse(name, 'a device file or other special entry');
    if (name.endsWith('/') || type === S_IFDIR) {
      entries.push({ path: name, kind: 'dir', data: Buffer.alloc(0), executable: false });
      continue;
    }
    if (flags & 1) refuse(name, 'an encrypted entry');
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL) throw broken(`no local header for "${name}"`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + compressed > bytes.length) throw broken(`"${name}" runs past the end of the file`);
    const raw = bytes.subarray(start, start + compressed);
    const room = caps.maxBytes - total;
    const over = () => refuse(name, `the archive unpacks to more than ${formatBytes(caps.maxBytes)}`);
    if (size > room) over();
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) {
      try {
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, room) });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') over();
        throw broken(`"${name}" does not inflate (${(e as Error).message})`);
      }
    } else refuse(name, `compression method ${method} (only stored and deflate are read)`);
    if (data.length !== size) refuse(name, `it unpacks to ${data.length} bytes where its header says ${size}`);
    total += data.length;
    entries.push({ path: name, kind: 'file', data, executable: (mode & 0o111) !== 0 });
  }
  return entries;
}

import { closeSync, fstatSync, openSync, readdirSync, readlinkSync, readSync, statSync, type Dirent } from 'node:fs';
import { sep } from 'node:path';
import { fileError, type SkillsmithError, type Result } from '../../../shared/result';
import { formatBytes } from '../../../shared/text/format';
import { joinDisplay, LIMITS, type SkillTree, type TreeEntry } from '../../../shared/ksf/tree';
import { describeFsError } from '../fs/describe-error';

const MAX_DEPTH = 32;

/**
 * Read a skill folder into memory, walking it the way the lock hash does: names in NFC,
 * per-directory UTF-16 order, depth first, top-level `.git` skipped, symlinks recorded
 * and never followed, special files ignored. Limits are enforced before bytes are read.
 */
export function readSkillTree(absDir: string, displayRoot: string): Result<SkillTree> {
  let st;
  try {
    st = statSync(absDir);
  } catch (e) {
    return { ok: false, error: fileError(displayRoot, describeFsError(e)) };
  }
  if (!st.isDirectory())
    return { ok: false, error: fileError(displayRoot, 'is a file, not a skill folder (a folder with SKILL.md)') };

  const entries: TreeEntry[] = [];
  let total = 0;
  const walk = (abs: string, rel: string, depth: number): SkillsmithError | undefined => {
    if (depth > MAX_DEPTH)
      return fileError(
        joinDisplay(displayRoot, rel),
        `nested deeper than ${MAX_DEPTH} folders — refusing to review it`,
      );
    let dirents: Dirent[];
    try {
      dirents = readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      return fileError(joinDisplay(displayRoot, rel || '.'), describeFsError(e));
    }
    const named = dirents
      .map((d) => ({ d, name: d.name.normalize('NFC') }))
      .filter(({ name }) => !(depth === 0 && name === '.git'))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { d, name } of named) {
      // A name from readdir is one clean segment: no join() (and its normalising) needed.
      const childAbs = `${abs}${sep}${d.name}`;
      const childRel = rel ? `${rel}/${name}` : name;
      if (entries.length >= LIMITS.maxEntries) {
        return fileError(displayRoot, `holds more than ${LIMITS.maxEntries} entries — refusing to review it`);
      }
      try {
        if (d.isSymbolicLink()) {
          entries.push({ kind: 'symlink', path: childRel, target: readlinkSync(childAbs) });
        } else if (d.isDirectory()) {
          entries.push({ kind: 'dir', path: childRel });
          const err = walk(childAbs, childRel, depth + 1);
          if (err) return err;
        } else if (d.isFile()) {
          const read = readBounded(childAbs);
          if (typeof read === 'number') {
            return fileError(
              joinDisplay(displayRoot, childRel),
              `file is ${formatBytes(read)}, over the ${formatBytes(LIMITS.maxFileBytes)} per-file limit — not read`,
            );
          }
          const { bytes, executable } = read;
          total += bytes.length;
          if (total > LIMITS.maxSkillBytes) {
            return fileError(
              displayRoot,
              `skill is over the ${formatBytes(LIMITS.maxSkillBytes)} total size limit — not read`,
            );
          }
          entries.push({ kind: 'file', path: childRel, bytes, ...(executable ? { executable: true } : {}) });
        }
      } catch (e) {
        return fileError(joinDisplay(displayRoot, childRel), describeFsError(e));
      }
    }
    return undefined;
  };
  const err = walk(absDir, '', 0);
  return err ? { ok: false, error: err } : { ok: true, value: { root: displayRoot, entries } };
}

/** The file's bytes and execute bit, or its size when that is over the per-file limit (nothing is read then). */
function readBounded(path: string): { bytes: Uint8Array; executable: boolean } | number {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const executable = (st.mode & 0o111) !== 0;
    if (size > LIMITS.maxFileBytes) return size;
    const buf = Buffer.allocUnsafe(size);
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
    return { bytes: off === size ? buf : buf.subarray(0, off), executable };
  } finally {
    closeSync(fd);
  }
}

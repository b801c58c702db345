import { constants, type Dirent } from 'node:fs';
import { copyFile, mkdir, open, readdir, readlink, stat, symlink } from 'node:fs/promises';
import { type ProjectDir } from '../fs/inside';
import type { SkillTree } from '../../../shared/ksf/tree';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { formatBytes } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';
import { mapLimit, READ_LANES } from '../skills/limit';

/** Caps on what a source may hold; a skill is text a person must be able to review. */
export interface SourceCaps {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** 5,000 files and 50 MB, overridable with SKILLSMITH_MAX_SOURCE_FILES / SKILLSMITH_MAX_SOURCE_BYTES. */
export function sourceCaps(env: NodeJS.ProcessEnv = process.env): SourceCaps {
  const num = (v: string | undefined, d: number) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : d);
  return {
    maxFiles: num(env.SKILLSMITH_MAX_SOURCE_FILES, 5000),
    maxBytes: num(env.SKILLSMITH_MAX_SOURCE_BYTES, 50 * 1024 * 1024),
  };
}

type Planned =
  | { kind: 'dir'; to: string }
  | { kind: 'file'; from: string; to: string }
  | { kind: 'link'; target: string; to: string };

/**
 * Copy a skill folder into `dest`, leaving out every `.git` entry at any depth.
 * Symlinks are copied as links only when they point inside the skill; anything else
 * is refused, as is a folder over the caps — both found by walking the source first, so
 * nothing is copied from a source that is refused. `label` names the source in errors.
 */
export async function copySkillFolder(src: string, dest: string, caps: SourceCaps, label: string): Promise<CopyResult> {
  let files = 0;
  let bytes = 0;
  const executable: string[] = [];
  const planned: Planned[] = [];
  const tooMany = () =>
    new CodedError(
      'invalid-input',
      `${label}: holds more than ${caps.maxFiles} files — refusing to stage it (SKILLSMITH_MAX_SOURCE_FILES raises the cap)`,
    );
  const walk = async (from: string, to: string, rel: string): Promise<void> => {
    planned.push({ kind: 'dir', to });
    const dirents: Dirent[] = await readdir(from, { withFileTypes: true });
    for (const d of dirents) {
      if (d.name === '.git') continue;
      const a = join(from, d.name);
      const b = join(to, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) {
        const target = await readlink(a);
        const landed = resolve(dirname(a), target);
        const inside = relative(src, landed);
        if (
          isAbsolute(target) ||
          inside === '' ||
          inside.startsWith(`..${sep}`) ||
          inside === '..' ||
          isAbsolute(inside)
        ) {
          throw new CodedError(
            'invalid-input',
            `${label}: symlink ${r} → ${target} points outside the skill — refusing to install it`,
          );
        }
        planned.push({ kind: 'link', target, to: b });
        files++;
      } else if (d.isDirectory()) {
        await walk(a, b, r);
      } else if (d.isFile()) {
        files++;
        const st = await stat(a);
        bytes += st.size;
        if (files > caps.maxFiles) throw tooMany();
        if (bytes > caps.maxBytes)
          throw new CodedError(
            'invalid-input',
            `${label}: is larger than ${formatBytes(caps.maxBytes)} — refusing to stage it (SKILLSMITH_MAX_SOURCE_BYTES raises the cap)`,
          );
        planned.push({ kind: 'file', from: a, to: b });
        if (st.mode & 0o111) executable.push(r.split(sep).join('/'));
      }
      if (files > caps.maxFiles) throw tooMany();
    }
  };
  await walk(src, dest, '');
  // Folders first, in walk order (parents before children); then every file and link.
  for (const p of planned) if (p.kind === 'dir') await mkdir(p.to, { recursive: true });
  await mapLimit(
    planned.filter((p) => p.kind !== 'dir'),
    READ_LANES,
    (p) =>
      p.kind === 'file' ? copyFile(p.from, p.to) : p.kind === 'link' ? symlink(p.target, p.to) : Promise.resolve(),
  ); // copyFile gives the copy the source's mode
  return { files, bytes, executable };
}

export interface CopyResult {
  readonly files: number;
  readonly bytes: number;
  /** '/'-separated paths of files with an execute bit. */
  readonly executable: readonly string[];
}

const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Write a verified in-memory tree as the new folder `name` of `parent` (files 0644, or
 * 0755 when listed executable). Each folder is made and then opened never through a
 * symlink, and every file is created exclusively in the folder it was opened as — a
 * folder swapped for a symlink while the tree is written fails the write, it never
 * lands outside. File contents are written through promises.
 */
export async function writeTree(
  tree: SkillTree,
  parent: ProjectDir,
  name: string,
  executable: ReadonlySet<string>,
): Promise<void> {
  const top = parent.child(name, true);
  // Folders opened so far by '/'-path ('' is the tree's root); closed together at the end.
  const opened = new Map<string, ProjectDir>([['', top]]);
  const dirOf = (path: string): ProjectDir => {
    const known = opened.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    const d = dirOf(cut < 0 ? '' : path.slice(0, cut)).child(path.slice(cut + 1), true);
    opened.set(path, d);
    return d;
  };
  try {
    const writes: Array<() => Promise<void>> = [];
    for (const e of tree.entries) {
      const cut = e.path.lastIndexOf('/');
      const dir = dirOf(cut < 0 ? '' : e.path.slice(0, cut));
      const base = e.path.slice(cut + 1);
      if (e.kind === 'dir') dirOf(e.path);
      else if (e.kind === 'symlink') writes.push(() => symlink(e.target, dir.at(base)));
      else
        writes.push(async () => {
          const fh = await open(dir.at(base), NEW_FILE, executable.has(e.path) ? 0o755 : 0o644);
          try {
            await fh.writeFile(e.bytes);
          } finally {
            await fh.close();
          }
        });
    }
    await mapLimit(writes, READ_LANES, (w) => w());
  } finally {
    for (const d of opened.values()) d.close();
  }
}

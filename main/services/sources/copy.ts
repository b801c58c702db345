import { copyFileSync, mkdirSync, readdirSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { writeNewFile, type ProjectDir } from '../fs/inside';
import type { SkillTree } from '../../../shared/ksf/tree';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { formatBytes } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';

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

/**
 * Copy a skill folder into `dest`, leaving out every `.git` entry at any depth.
 * Symlinks are copied as links only when they point inside the skill; anything else
 * is refused, as is a folder over the caps. `label` names the source in errors.
 */
export function copySkillFolder(src: string, dest: string, caps: SourceCaps, label: string): CopyResult {
  let files = 0;
  let bytes = 0;
  const executable: string[] = [];
  const walk = (from: string, to: string, rel: string): void => {
    mkdirSync(to, { recursive: true });
    for (const d of readdirSync(from, { withFileTypes: true })) {
      if (d.name === '.git') continue;
      const a = join(from, d.name);
      const b = join(to, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) {
        const target = readlinkSync(a);
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
        symlinkSync(target, b);
        files++;
      } else if (d.isDirectory()) {
        walk(a, b, r);
      } else if (d.isFile()) {
        files++;
        const st = statSync(a);
        bytes += st.size;
        if (files > caps.maxFiles)
          throw new CodedError(
            'invalid-input',
            `${label}: holds more than ${caps.maxFiles} files — refusing to stage it (SKILLSMITH_MAX_SOURCE_FILES raises the cap)`,
          );
        if (bytes > caps.maxBytes)
          throw new CodedError(
            'invalid-input',
            `${label}: is larger than ${formatBytes(caps.maxBytes)} — refusing to stage it (SKILLSMITH_MAX_SOURCE_BYTES raises the cap)`,
          );
        copyFileSync(a, b); // libuv gives the copy the source's mode
        if (st.mode & 0o111) executable.push(r.split(sep).join('/'));
      }
      if (files > caps.maxFiles)
        throw new CodedError(
          'invalid-input',
          `${label}: holds more than ${caps.maxFiles} files — refusing to stage it (SKILLSMITH_MAX_SOURCE_FILES raises the cap)`,
        );
    }
  };
  walk(src, dest, '');
  return { files, bytes, executable };
}

export interface CopyResult {
  readonly files: number;
  readonly bytes: number;
  /** '/'-separated paths of files with an execute bit. */
  readonly executable: readonly string[];
}

/**
 * Write a verified in-memory tree as the new folder `name` of `parent` (files 0644, or
 * 0755 when listed executable). Each folder is made and then opened never through a
 * symlink, and every file is created exclusively in the folder it was opened as — a
 * folder swapped for a symlink while the tree is written fails the write, it never
 * lands outside.
 */
export function writeTree(tree: SkillTree, parent: ProjectDir, name: string, executable: ReadonlySet<string>): void {
  const top = parent.child(name, true);
  // Folders opened so far by '/'-path ('' is the tree's root); closed together at the end.
  const open = new Map<string, ProjectDir>([['', top]]);
  const dirOf = (path: string): ProjectDir => {
    const known = open.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    const d = dirOf(cut < 0 ? '' : path.slice(0, cut)).child(path.slice(cut + 1), true);
    open.set(path, d);
    return d;
  };
  try {
    for (const e of tree.entries) {
      const cut = e.path.lastIndexOf('/');
      const dir = dirOf(cut < 0 ? '' : e.path.slice(0, cut));
      const base = e.path.slice(cut + 1);
      if (e.kind === 'dir') dirOf(e.path);
      else if (e.kind === 'symlink') symlinkSync(e.target, dir.at(base));
      else writeNewFile(dir, base, e.bytes, executable.has(e.path) ? 0o755 : 0o644, false);
    }
  } finally {
    for (const d of open.values()) d.close();
  }
}

/**
 * Loading a skill.spec.yml from disk the way the reference's load pipeline does: read,
 * UTF-8, strict YAML → model, validateSpec, then the import-file and sidecar checks.
 * The first failure is thrown as a SpecError whose message the CLI prints verbatim.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SpecError, invalidInput } from '../../../shared/skillspec/errors';
import { fail, ok } from '../../../shared/result';
import {
  checkImports,
  validateImports,
  validateSidecars,
  type ImportCheckReport,
  type SpecFiles,
} from '../../../shared/skillspec/files';
import type { SkillSpec } from '../../../shared/skillspec/model';
import { validateSpec } from '../../../shared/skillspec/validate';
import { MAX_SPEC_BYTES, readSpecYaml } from '../../../shared/skillspec/yaml';

export interface LoadedSpec {
  spec: SkillSpec;
  /** The path as the user gave it (used in messages, like the reference). */
  path: string;
  /** Absolute path of the spec file. */
  absPath: string;
  files: SpecFiles;
}

export interface LoadOptions {
  /** Resolve relative paths against this folder (default: process.cwd()). */
  cwd?: string;
  /** Skip the import-file and sidecar checks (the reference's "unresolved" load). */
  unresolved?: boolean;
}

const OS_ERRORS: Record<string, [number, string]> = {
  ENOENT: [2, 'No such file or directory'],
  EACCES: [13, 'Permission denied'],
  EPERM: [1, 'Operation not permitted'],
  EISDIR: [21, 'Is a directory'],
  ENOTDIR: [20, 'Not a directory'],
  ELOOP: [40, 'Too many levels of symbolic links'],
  ENAMETOOLONG: [36, 'File name too long'],
  EMFILE: [24, 'Too many open files'],
};

/** An I/O error in the words the reference prints (`No such file or directory (os error 2)`). */
export function ioErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const known = code ? OS_ERRORS[code] : undefined;
  if (known) return `${known[1]} (os error ${known[0]})`;
  return e instanceof Error ? e.message : String(e);
}

/** Index of the first byte that is not valid UTF-8, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let need = 0;
    let min = 0;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const decoder = new TextDecoder('utf-8');

/** The Node host for the file checks: paths relative to the spec's folder, joined lexically. */
export function nodeSpecFiles(specPath: string, cwd: string): SpecFiles {
  const shownDir = dirname(specPath) === '.' && !specPath.startsWith('./') ? '' : dirname(specPath);
  const absDir = resolve(cwd, dirname(specPath));
  return {
    resolve: (rel) => (shownDir === '' ? rel : `${shownDir.replace(/\/$/, '')}/${rel}`),
    readText(rel) {
      try {
        const bytes = readFileSync(resolve(absDir, rel));
        if (firstInvalidUtf8(bytes) !== -1) return fail('invalid-input', 'stream did not contain valid UTF-8');
        return ok(decoder.decode(bytes));
      } catch (e) {
        return fail('invalid-input', ioErrorText(e));
      }
    },
    stat(rel) {
      try {
        const st = statSync(resolve(absDir, rel));
        return ok({ isFile: st.isFile(), size: st.size });
      } catch (e) {
        return fail('invalid-input', ioErrorText(e));
      }
    },
  };
}

/** Read and parse the spec file (no validation). */
export function parseSpecFile(path: string, cwd: string = process.cwd()): { spec: SkillSpec; absPath: string } {
  const absPath = resolve(cwd, path);
  let bytes: Buffer;
  try {
    const st = statSync(absPath);
    if (st.isFile() && st.size > MAX_SPEC_BYTES) {
      throw invalidInput(
        `skill spec ${path} is ${st.size} bytes; a skill spec may be at most ${MAX_SPEC_BYTES / 1024 / 1024} MiB`,
      );
    }
    bytes = readFileSync(absPath);
  } catch (e) {
    if (e instanceof SpecError) throw e;
    throw new SpecError('read', `failed to read ${path}: ${ioErrorText(e)}`);
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) throw invalidInput(`skill spec ${path} is not valid UTF-8: invalid utf-8 sequence from index ${bad}`);
  return { spec: readSpecYaml(decoder.decode(bytes), path), absPath };
}

export function loadSpec(path: string, opts: LoadOptions = {}): LoadedSpec {
  const cwd = opts.cwd ?? process.cwd();
  const { spec, absPath } = parseSpecFile(path, cwd);
  validateSpec(spec);
  const files = nodeSpecFiles(path, cwd);
  if (!opts.unresolved) {
    validateImports(spec, path, files);
    validateSidecars(spec, files);
  }
  return { spec, path, absPath, files };
}

/** The `imports check` report: parse and validate, then report every import's status. */
export function importReport(path: string, cwd: string = process.cwd()): ImportCheckReport {
  const loaded = loadSpec(path, { cwd, unresolved: true });
  return checkImports(loaded.spec, path, loaded.files);
}

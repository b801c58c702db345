/**
 * The checks that look at files next to the spec — import files and their sections,
 * resource and code files, the deps.toml ledger — written against a small host interface
 * so they stay pure. main/services/skillspec supplies the Node host.
 */
import { debugStr, invalidInput } from './errors';
import { sortedEntries, type SkillSpec } from './model';
import { importLoadOrder } from './validate';
import type { Result } from '../result';

/** A failure's message is the OS error text, as the reference prints it. */
export type ReadResult = Result<string>;
export type StatResult = Result<{ isFile: boolean; size: number }>;

/** Paths are relative to the spec's folder, exactly as written in the spec. */
export interface SpecFiles {
  /** The spec folder joined with `rel` (lexically), for reports. */
  resolve(rel: string): string;
  /** Read as UTF-8; failures carry the OS error text. */
  readText(rel: string): ReadResult;
  stat(rel: string): StatResult;
}

export type ImportStatus = 'ok' | 'invalid_path' | 'missing_file' | 'missing_section';

export interface ImportCheckEntry {
  id: string;
  path: string;
  resolved_path: string | null;
  role: string;
  load: string;
  section: string | null;
  section_found: boolean | null;
  requires: string[];
  status: ImportStatus;
  error: string | null;
}

export interface ImportCheckReport {
  ok: boolean;
  spec: string;
  imports: ImportCheckEntry[];
  load_order: string[];
}

export function checkImports(spec: SkillSpec, specPath: string, files: SpecFiles): ImportCheckReport {
  const imports = sortedEntries(spec.imports).map(([id, imp]): ImportCheckEntry => {
    const entry: ImportCheckEntry = {
      id,
      path: imp.path,
      resolved_path: null,
      role: imp.role,
      load: imp.load,
      section: imp.section,
      section_found: null,
      requires: [...imp.requires.imports],
      status: 'ok',
      error: null,
    };
    if (imp.path.startsWith('/') || imp.path.includes('://')) {
      entry.status = 'invalid_path';
      entry.error = 'import path must be local and relative';
      return entry;
    }
    entry.resolved_path = files.resolve(imp.path);
    const r = files.readText(imp.path);
    if (!r.ok) {
      entry.status = 'missing_file';
      entry.error = r.error.message;
    } else if (imp.section !== null) {
      entry.section_found = hasSection(r.value, imp.section);
      if (!entry.section_found) {
        entry.status = 'missing_section';
        entry.error = `section ${debugStr(imp.section)} not found`;
      }
    }
    return entry;
  });
  return { ok: imports.every((e) => e.status === 'ok'), spec: specPath, imports, load_order: importLoadOrder(spec) };
}

/** Throws `import validation failed: ...` when any import does not resolve. */
export function validateImports(spec: SkillSpec, specPath: string, files: SpecFiles): void {
  const report = checkImports(spec, specPath, files);
  if (report.ok) return;
  const failures = report.imports
    .filter((e) => e.status !== 'ok')
    .map((e) => `${e.id}: ${e.status}${e.error !== null ? ` (${e.error})` : ''}`);
  throw invalidInput(`import validation failed: ${failures.join('; ')}`);
}

/**
 * A heading is any line whose left-trimmed text starts with `#` (code fences included);
 * both sides are compared with the `#`s and spaces stripped and ASCII letters lowered.
 */
export function hasSection(markdown: string, section: string): boolean {
  const want = normalizeHeading(section);
  for (const line of markdown.split('\n')) {
    const t = line.replace(/^\s+/, '');
    if (t.startsWith('#') && normalizeHeading(t.replace(/^#+/, '')) === want) return true;
  }
  return false;
}

function normalizeHeading(h: string): string {
  return h
    .trim()
    .replace(/^#+|#+$/g, '')
    .trim()
    .replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * Sidecar files: every resource, every code `source.file`, and the deps.toml ledger must
 * be files inside the skill folder. All failures are reported together.
 */
export function validateSidecars(spec: SkillSpec, files: SpecFiles): void {
  const failures: string[] = [];
  const check = (field: string, path: string, nonEmpty: boolean): void => {
    const rel = sidecarPath(field, path, failures);
    if (rel === undefined) return;
    const st = files.stat(rel);
    if (!st.ok) failures.push(`${field}: ${path} missing (${st.error.message})`);
    else if (!st.value.isFile) failures.push(`${field}: ${path} is not a file`);
    else if (nonEmpty && st.value.size === 0) failures.push(`${field}: ${path} exists but is empty`);
  };
  for (const [id, d] of sortedEntries(spec.dependencies)) {
    if (d.kind !== 'file') continue;
    const path = d.check?.path ?? d.path;
    if (path === null) continue;
    if (id === 'dependency_ledger' || path.endsWith('deps.toml'))
      check(`dependencies.${id}`, path, path.endsWith('deps.toml'));
  }
  for (const [id, r] of sortedEntries(spec.resources)) check(`resources.${id}`, r.path, false);
  for (const [id, c] of sortedEntries(spec.code)) {
    if (!('file' in c.source)) continue;
    check(`code.${id}.source.file`, c.source.file, false);
    const rid = c.source.from_resource;
    const res =
      rid !== null && Object.prototype.hasOwnProperty.call(spec.resources, rid) ? spec.resources[rid] : undefined;
    if (res && res.path !== c.source.file) {
      failures.push(
        `code.${id}.source.from_resource: resource ${debugStr(rid!)} path ${res.path} does not match code file ${c.source.file}`,
      );
    }
  }
  if (failures.length) throw invalidInput(`package sidecar validation failed: ${failures.join('; ')}`);
}

/** Undefined when the path is skipped (blank, URL, home-relative, absolute) or escapes the folder. */
function sidecarPath(field: string, path: string, failures: string[]): string | undefined {
  const t = path.trim();
  if (t === '' || t.includes('://') || t.startsWith('~/') || t.startsWith('/')) return undefined;
  if (t.split('/').includes('..')) {
    failures.push(`${field}: ${path} must stay within the skill folder`);
    return undefined;
  }
  return t;
}

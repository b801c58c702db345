/**
 * Live diagnostics for the editor: the unsaved buffers of one skill go through the same
 * shared/ engine as `skillsmith lint` (loadSkill → lintSkill) and the SkillSpec reader
 * (readSpecYaml → validateSpec, what checkSpecText runs), and every finding comes back
 * on an exact range of one file, with a quick fix where the fix is certain.
 *
 * Pure (no DOM, no Monaco): runs in the diagnostics Web Worker, in tests and in the bench.
 */
import { parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import { formatError, type SkillsmithError } from '../../../../shared/result';
import { loadSkill } from '../../../../shared/ksf/load';
import type { Skill } from '../../../../shared/ksf/model';
import { standingStub } from '../../../../shared/ksf/stub';
import { LineIndex } from '../../../../shared/ksf/text';
import { estimateTokens } from '../../../../shared/ksf/tokens';
import type { TreeEntry } from '../../../../shared/ksf/tree';
import { lintSkill } from '../../../../shared/lint/checks';
import { SAFETY_CHECK_IDS, type Check, type CheckId } from '../../../../shared/lint/types';
import { readSpecYaml, SpecError, validateSpec } from '../../../../shared/skillspec';

export type Severity = 'error' | 'warning' | 'info';

/** 1-based lines and UTF-16 columns, end exclusive (Monaco's convention). */
export interface Range {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface TextEdit {
  readonly range: Range;
  readonly text: string;
}

export interface QuickFix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
}

export interface Diagnostic {
  readonly file: string;
  readonly severity: Severity;
  /** The check id (`secrets`, `references`, `toml`, `manifest`, `spec`, …). */
  readonly code: string;
  readonly message: string;
  readonly range: Range;
  /** A safety finding: blocks an install whatever the user answers. */
  readonly blocking: boolean;
  readonly fixes: readonly QuickFix[];
}

export interface Meter {
  readonly bodyTokens: number;
  readonly budget: number;
  readonly stubTokens: number;
  readonly standing: number;
  readonly disclosure: 'lazy' | 'eager';
}

export interface Analysis {
  readonly diagnostics: readonly Diagnostic[];
  /** Checks that passed/failed, for the summary line (same ids as the CLI). */
  readonly summary: { readonly errors: number; readonly warnings: number; readonly blocking: number };
  /** Null when the skill does not load (the hard error is among the diagnostics). */
  readonly meter: Meter | null;
  /** The standing stub inside SKILL.md (what a lazy agent keeps in every session). */
  readonly stub: Range | null;
  /** Milliseconds the engine took. */
  readonly ms: number;
}

export interface AnalyzeInput {
  /** Folder name, for a bare skill's derived name. */
  readonly dir: string;
  /** Every text file of the skill, skill-relative path → current (possibly unsaved) text. */
  readonly texts: Readonly<Record<string, string>>;
  /** Files that are not text, with their bytes (scripts in other encodings, images). */
  readonly binaries?: Readonly<Record<string, Uint8Array>>;
  /** Sub-folders, so an empty folder is part of the tree. */
  readonly dirs?: readonly string[];
}

const enc = new TextEncoder();

/** The skill as a tree in walk order (per-directory UTF-16 order, depth first). */
export function treeOf(input: AnalyzeInput): { root: string; entries: TreeEntry[] } {
  const entries: TreeEntry[] = [];
  const dirs = new Set(input.dirs ?? []);
  const addParents = (p: string) => {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  };
  for (const p of Object.keys(input.texts)) addParents(p);
  for (const p of Object.keys(input.binaries ?? {})) addParents(p);
  for (const d of dirs) entries.push({ kind: 'dir', path: d });
  for (const [path, text] of Object.entries(input.texts)) entries.push({ kind: 'file', path, bytes: enc.encode(text) });
  for (const [path, bytes] of Object.entries(input.binaries ?? {})) entries.push({ kind: 'file', path, bytes });
  const segs = new Map(entries.map((e) => [e.path, e.path.split('/')]));
  entries.sort((a, b) => {
    const x = segs.get(a.path)!;
    const y = segs.get(b.path)!;
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    }
    return x.length - y.length;
  });
  return { root: '', entries };
}

export function analyze(input: AnalyzeInput, now: () => number = () => Date.now()): Analysis {
  const t0 = now();
  const out: Diagnostic[] = [];
  let meter: Meter | null = null;
  let stub: Range | null = null;

  const loaded = loadSkill(treeOf(input), { nameHint: input.dir });
  if (!loaded.ok) {
    out.push(...loadErrorDiagnostics(loaded.error, input.texts));
  } else {
    const skill = loaded.value;
    const checks = lintSkill(skill);
    for (const c of checks) out.push(...checkDiagnostics(c, skill, input.texts));
    meter = meterOf(skill, checks);
    stub = stubRange(skill);
  }

  const spec = input.texts['skill.spec.yml'];
  if (spec !== undefined) out.push(...specDiagnostics(spec));

  out.sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
        ? 1
        : a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn,
  );
  return {
    diagnostics: out,
    summary: {
      errors: out.filter((d) => d.severity === 'error').length,
      warnings: out.filter((d) => d.severity === 'warning').length,
      blocking: out.filter((d) => d.blocking).length,
    },
    meter,
    stub,
    ms: now() - t0,
  };
}

// ---------------------------------------------------------------------------------------
// Hard errors: the skill does not load.

function loadErrorDiagnostics(error: SkillsmithError, texts: Readonly<Record<string, string>>): Diagnostic[] {
  const file = (error.file ?? '').replace(/^\.\//, '');
  const text = texts[file];
  if (file === 'skill.toml' && text !== undefined && error.detail) {
    const index = tomlKeys(text);
    return error.detail.map((p) => ({
      file,
      severity: 'error' as const,
      code: 'manifest',
      message: `invalid manifest: ${p}`,
      range: locateKey(index, text, p) ?? lineRange(text, 1),
      blocking: false,
      fixes: [],
    }));
  }
  if (text !== undefined && error.line !== undefined) {
    return [
      {
        file,
        severity: 'error',
        code: file === 'skill.toml' ? 'toml' : 'load',
        message: error.message,
        range: tokenAt(text, error.line, error.column ?? 1),
        blocking: false,
        fixes: [],
      },
    ];
  }
  const target = text !== undefined ? file : texts['skill.toml'] !== undefined ? 'skill.toml' : 'SKILL.md';
  return [
    {
      file: target,
      severity: 'error',
      code: 'load',
      message: formatError(error).split('\n')[0]!,
      range: lineRange(texts[target] ?? '', 1),
      blocking: false,
      fixes: [],
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Lint checks: the same list `skillsmith lint` prints.

function checkDiagnostics(c: Check, skill: Skill, texts: Readonly<Record<string, string>>): Diagnostic[] {
  if (c.status === 'pass') return [];
  const severity: Severity = c.status === 'fail' ? 'error' : 'warning';
  const blocking = c.status === 'fail' && SAFETY_CHECK_IDS.includes(c.id);
  const message = `${c.id}: ${(c.detail ?? c.status).replace(/^[^\s:]+:\d+:\d+: /, '')}${blocking ? ' — blocks install' : ''}`;
  if (c.locations && c.locations.length > 0) {
    return c.locations.map((l) => {
      const file = l.file.replace(/^\.\//, '');
      const range = {
        startLine: l.line,
        startColumn: l.column,
        endLine: l.endLine,
        endColumn: Math.max(l.endColumn, l.line === l.endLine ? l.column + 1 : l.endColumn),
      };
      return { file, severity, code: c.id, message, range, blocking, fixes: fixesFor(c.id, file, range, texts[file]) };
    });
  }
  const [file, range] = anchorFor(c.id, c.detail ?? '', skill, texts);
  return [{ file, severity, code: c.id, message, range, blocking, fixes: [] }];
}

/** Where a finding without a location belongs. */
function anchorFor(
  id: CheckId,
  detail: string,
  skill: Skill,
  texts: Readonly<Record<string, string>>,
): [string, Range] {
  const toml = texts['skill.toml'];
  if (toml !== undefined) {
    const index = tomlKeys(toml);
    const byKey: Partial<Record<CheckId, string>> = {
      budget: 'context.budget',
      standing: 'context.standing',
      'name-convention': 'skill.name',
      'gate-verdict': 'targets.mode',
      artifacts: 'artifacts',
      mcp: 'mcp',
    };
    const at = locateKey(index, toml, detail) ?? (byKey[id] ? locateKey(index, toml, byKey[id]!) : undefined);
    if (at) return ['skill.toml', at];
    if (id === 'standing') {
      const s = stubRange(skill);
      if (s) return ['SKILL.md', s];
    }
    if (id !== 'references' && id !== 'injection' && id !== 'evals') return ['skill.toml', lineRange(toml, 1)];
  }
  return ['SKILL.md', lineRange(texts['SKILL.md'] ?? '', 1)];
}

function fixesFor(id: CheckId, file: string, range: Range, text: string | undefined): QuickFix[] {
  if (id !== 'visible-text' || text === undefined) return [];
  const fixes: QuickFix[] = [{ title: 'Remove the invisible characters here', edits: [{ range, text: '' }] }];
  const all = invisibleRuns(text);
  if (all.length > 1)
    fixes.push({
      title: `Remove all ${all.length} invisible-character runs in ${file}`,
      edits: all.map((r) => ({ range: r, text: '' })),
    });
  return fixes;
}

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]+/gu;

function invisibleRuns(text: string): Range[] {
  const idx = new Lines(text);
  const out: Range[] = [];
  for (const m of text.matchAll(INVISIBLE)) {
    // A BOM at the very start is the encoding mark, not content.
    if (m.index === 0 && m[0] === '\uFEFF') continue;
    out.push(idx.range(m.index, m[0].length));
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// The budget meter and the standing stub.

/** The lint measures the resolved body (prompts inlined); its budget/standing details carry the figures. */
function meterOf(skill: Skill, checks: readonly Check[]): Meter {
  const figure = (id: CheckId) => {
    const m = /~(\d+) tok/.exec(checks.find((c) => c.id === id)?.detail ?? '');
    return m ? Number(m[1]) : undefined;
  };
  return {
    bodyTokens: figure('budget') ?? estimateTokens(skill.body),
    budget: skill.manifest.context.budget,
    stubTokens: figure('standing') ?? estimateTokens(standingStub(skill.body)),
    standing: skill.manifest.context.standing,
    disclosure: skill.manifest.context.disclosure,
  };
}

function stubRange(skill: Skill): Range | null {
  const body = skill.body;
  const stub = standingStub(body);
  if (stub === '') return null;
  const firstLine = stub.split('\n')[0]!;
  const lastLine = stub.split('\n').at(-1)!;
  const start = body.indexOf(firstLine);
  if (start < 0) return null;
  const endAt = body.indexOf(lastLine, start);
  const end = (endAt < 0 ? start + firstLine.length : endAt + lastLine.length) - start;
  return new Lines(skill.skillMd).range(skill.bodyOffset + start, end);
}

// ---------------------------------------------------------------------------------------
// skill.spec.yml: the strict SkillSpec reader and validator.

function specDiagnostics(text: string): Diagnostic[] {
  try {
    const spec = readSpecYaml(text, 'skill.spec.yml');
    validateSpec(spec);
    return [];
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    const range = e.position
      ? tokenAt(text, e.position.line, e.position.column)
      : ((e.field ? locateYamlField(text, e.field, e.value) : undefined) ?? lineRange(text, 1));
    return [
      {
        file: 'skill.spec.yml',
        severity: 'error',
        code: `spec/${e.kind}`,
        message: e.message,
        range,
        blocking: false,
        fixes: yamlQuoteFix(text, range),
      },
    ];
  }
}

/** `key: text with: a colon` → `key: "text with: a colon"`, when the line is exactly that shape. */
function yamlQuoteFix(text: string, range: Range): QuickFix[] {
  const line = text.split(/\r?\n/)[range.startLine - 1];
  if (line === undefined) return [];
  const m = /^(\s*(?:-\s+)?[A-Za-z_][\w-]*:\s+)([^'"\s[{|>&*!#][^#]*?:\s.*?)\s*$/.exec(line);
  if (!m) return [];
  const value = m[2]!;
  return [
    {
      title: 'Quote the value (it contains ": ")',
      edits: [
        {
          range: {
            startLine: range.startLine,
            startColumn: m[1]!.length + 1,
            endLine: range.startLine,
            endColumn: m[1]!.length + value.length + 1,
          },
          text: JSON.stringify(value),
        },
      ],
    },
  ];
}

/** A dotted field path (`routes.id`, `entry.phrases`) to the first node it names. */
function locateYamlField(text: string, field: string, value: string | undefined): Range | undefined {
  let doc;
  try {
    doc = parseDocument(text);
  } catch {
    return undefined;
  }
  const lines = new Lines(text);
  const parts = field.split('.').map((p) => p.replace(/\[\d+\]$/, ''));
  let found: YamlNode | undefined;
  const walk = (node: unknown, i: number): void => {
    if (found) return;
    if (isSeq(node)) {
      for (const item of node.items) walk(item, i);
      return;
    }
    if (!isMap(node) || i >= parts.length) return;
    for (const pair of node.items) {
      const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
      if (k?.value !== parts[i]) continue;
      if (i === parts.length - 1) {
        const v = pair.value as { value?: unknown; range?: [number, number, number] } | null;
        if (value === undefined || v?.value === value || isSeq(v)) {
          const target = v && v.range && (value === undefined || v.value === value) ? v : k;
          found = target as unknown as YamlNode;
          if (isSeq(v) && value !== undefined) {
            const hit = v.items.find((it) => (it as { value?: unknown }).value === value);
            if (hit) found = hit as YamlNode;
          }
          return;
        }
        continue;
      }
      walk(pair.value, i + 1);
    }
  };
  walk(doc.contents, 0);
  const r = (found as { range?: [number, number, number] } | undefined)?.range;
  return r ? lines.range(r[0], Math.max(1, r[1] - r[0])) : undefined;
}

// ---------------------------------------------------------------------------------------
// Small text helpers.

/** Offsets to Monaco ranges, over the same line index the engine uses. */
class Lines extends LineIndex {
  range(offset: number, length: number): Range {
    const a = this.position(offset);
    const b = this.position(offset + length);
    return { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column };
  }
}

function lineRange(text: string, line: number): Range {
  const l = text.split(/\r?\n/)[line - 1] ?? '';
  const indent = l.length - l.trimStart().length;
  return { startLine: line, startColumn: indent + 1, endLine: line, endColumn: Math.max(l.length + 1, indent + 2) };
}

/** The token at a parser's line/column (to the next space or the end of the line). */
function tokenAt(text: string, line: number, column: number): Range {
  const l = text.split(/\r?\n/)[line - 1];
  if (l === undefined) return lineRange(text, Math.max(1, text.split(/\r?\n/).length));
  const rest = l.slice(column - 1);
  const len = /^\S+/.exec(rest)?.[0].length ?? 0;
  if (len === 0)
    return { startLine: line, startColumn: Math.max(1, column - 1), endLine: line, endColumn: Math.max(column, 2) };
  return { startLine: line, startColumn: column, endLine: line, endColumn: column + len };
}

interface TomlKey {
  readonly path: string;
  readonly line: number;
  /** Columns of the value after `=` (or the header's brackets). */
  readonly start: number;
  readonly end: number;
  readonly header: boolean;
}

/** Every key (full dotted path under its table header) and header of a TOML text, by line. */
export function tomlKeys(text: string): TomlKey[] {
  const keys: TomlKey[] = [];
  let table = '';
  const lines = text.split(/\r?\n/);
  // Segments split on dots outside quotes; quotes dropped.
  const clean = (k: string) =>
    (k.match(/"[^"]*"|'[^']*'|[^.\s"']+/g) ?? [])
      .map((s) => s.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'))
      .join('.');
  lines.forEach((l, i) => {
    const header = /^(\s*)(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(l);
    if (header) {
      table = clean(header[3]!);
      keys.push({ path: table, line: i + 1, start: header[1]!.length + 1, end: l.trimEnd().length + 1, header: true });
      return;
    }
    const kv = /^(\s*)((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=\s*/.exec(
      l,
    );
    if (kv) {
      const path = (table ? `${table}.` : '') + clean(kv[2]!);
      const valueStart = kv[0].length + 1;
      const valueEnd = Math.max(l.replace(/\s+#[^"']*$/, '').trimEnd().length + 1, valueStart + 1);
      keys.push({ path, line: i + 1, start: valueStart, end: valueEnd, header: false });
    }
  });
  return keys;
}

/**
 * The range a message is about: the longest `table.key` path it names that the text
 * defines (its value), else the `[table]` header of that path, else undefined.
 */
function locateKey(index: readonly TomlKey[], _text: string, message: string): Range | undefined {
  const candidates = [...message.matchAll(/\[?([a-z_][a-z0-9_-]*(?:\.[a-z0-9_][a-z0-9_-]*)*)\]?/g)].map((m) => m[1]!);
  let best: TomlKey | undefined;
  for (const c of candidates) {
    const exact = index.find((k) => k.path === c && !k.header) ?? index.find((k) => k.path === c);
    if (exact && (!best || c.length > best.path.length)) best = exact;
  }
  if (!best) {
    for (const c of candidates.filter((c) => c.includes('.'))) {
      const table = c.slice(0, c.lastIndexOf('.'));
      const header = index.find((k) => k.header && k.path === table);
      if (header) {
        best = header;
        break;
      }
    }
  }
  return best ? { startLine: best.line, startColumn: best.start, endLine: best.line, endColumn: best.end } : undefined;
}

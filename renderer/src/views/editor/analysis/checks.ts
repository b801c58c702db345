/**
 * Lint checks (the same list `skillsmith lint` prints) as diagnostics on the ranges they
 * name, with the quick fixes that are certain: invisible characters removed, a budget or
 * standing limit raised to what the body needs, an unknown key renamed to the known one it
 * is a typo of (or removed).
 */
import type { Skill } from '../../../../../shared/ksf/model';
import { parseToml } from '../../../../../shared/ksf/toml';
import { budgetFor, standingFor } from '../../../../../shared/ksf/repair';
import { schemaFindings, type SchemaFinding } from '../../../../../shared/lint/schema-warnings';
import { SAFETY_CHECK_IDS, type Check, type CheckId } from '../../../../../shared/lint/types';
import { nearest } from '../../../../../shared/text/distance';
import { stubRange } from './meter';
import { Lines, lineOf, lineRange, removeLines } from './text';
import { keyRange, locateKey, tableSpan, tomlKeys, type TomlKey } from './toml-index';
import type { Diagnostic, QuickFix, Range, Severity } from './types';

type Texts = Readonly<Record<string, string>>;

export function checkDiagnostics(c: Check, skill: Skill, texts: Texts): Diagnostic[] {
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
      const fixes = c.id === 'visible-text' ? invisibleFixes(file, range, texts[file]) : [];
      return { file, severity, code: c.id, message, range, blocking, fixes };
    });
  }
  const toml = texts['skill.toml'];
  if (c.id === 'schema' && skill.rawManifest && toml !== undefined) {
    const schema = schemaDiagnostics(schemaFindings(skill.rawManifest), toml, severity);
    if (schema) return schema;
  }
  const [file, range] = anchorFor(c.id, c.detail ?? '', skill, texts);
  const fixes = c.id === 'budget' || c.id === 'standing' ? limitFixes(c, skill, file, range) : [];
  return [{ file, severity, code: c.id, message, range, blocking, fixes }];
}

/** Where a finding without a location belongs. */
function anchorFor(id: CheckId, detail: string, skill: Skill, texts: Texts): [string, Range] {
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
    const at = locateKey(index, detail) ?? (byKey[id] ? locateKey(index, byKey[id]!) : undefined);
    if (at) return ['skill.toml', at];
    if (id === 'standing') {
      const s = stubRange(skill);
      if (s) return ['SKILL.md', s];
    }
    if (id !== 'references' && id !== 'injection' && id !== 'evals') return ['skill.toml', lineRange(toml, 1)];
  }
  return ['SKILL.md', lineRange(texts['SKILL.md'] ?? '', 1)];
}

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]+/gu;

function invisibleFixes(file: string, range: Range, text: string | undefined): QuickFix[] {
  if (text === undefined) return [];
  const fixes: QuickFix[] = [{ title: 'Remove the invisible characters here', edits: [{ range, text: '' }] }];
  const idx = new Lines(text);
  const all: Range[] = [];
  for (const m of text.matchAll(INVISIBLE)) {
    // A BOM at the very start is the encoding mark, not content.
    if (m.index === 0 && m[0] === '\uFEFF') continue;
    all.push(idx.range(m.index, m[0].length));
  }
  if (all.length > 1)
    fixes.push({
      title: `Remove all ${all.length} invisible-character runs in ${file}`,
      edits: all.map((r) => ({ range: r, text: '' })),
    });
  return fixes;
}

/** Over budget (or standing limit): raise it in the manifest to what the body needs, or see what it costs. */
function limitFixes(c: Check, skill: Skill, file: string, range: Range): QuickFix[] {
  const tokens = Number(/~(\d+) tok/.exec(c.detail ?? '')?.[1] ?? NaN);
  const fixes: QuickFix[] = [];
  if (skill.manifested && file === 'skill.toml' && Number.isFinite(tokens)) {
    const key = c.id === 'budget' ? 'budget' : 'standing';
    const to = c.id === 'budget' ? budgetFor(tokens) : standingFor(tokens);
    if (to !== undefined)
      fixes.push({
        title: `Raise ${key} to ${to} tokens`,
        edits: [{ range, text: String(to) }],
      });
  }
  fixes.push({
    title: 'Open the Costs view for this skill',
    edits: [],
    command: { kind: 'navigate', view: 'costs', arg: skill.manifest.skill.name },
  });
  return fixes;
}

/**
 * One diagnostic per unknown table, key or value, on its key; undefined when one of them
 * cannot be placed (then the check stays one diagnostic, as the CLI prints it).
 */
function schemaDiagnostics(findings: readonly SchemaFinding[], toml: string, severity: Severity) {
  const index = tomlKeys(toml);
  const out: Diagnostic[] = [];
  for (const f of findings) {
    const path = f.path.join('.');
    const at =
      f.kind === 'table'
        ? index.find((k) => k.header && k.path === path)
        : index.find((k) => !k.header && k.path === path);
    if (!at) return undefined;
    const base = { file: 'skill.toml', severity, code: 'schema', message: `schema: ${f.message}`, blocking: false };
    if (f.kind === 'value') {
      const range = valueSpan(toml, at, f.value!);
      out.push({ ...base, range: range ?? keyRange(at), fixes: range ? valueFixes(f, range) : [] });
    } else out.push({ ...base, range: keyRange(at), fixes: unknownKeyFixes(f, at, toml, index) });
  }
  return out;
}

/** `netwrok` → `network` when that is what it is a typo of (and not set already); or the line removed. */
function unknownKeyFixes(f: SchemaFinding, at: TomlKey, toml: string, index: readonly TomlKey[]): QuickFix[] {
  const fixes: QuickFix[] = [];
  const name = f.path[f.path.length - 1]!;
  const parent = f.path.slice(0, -1).join('.');
  const taken = (k: string) => index.some((x) => x.path === (parent ? `${parent}.${k}` : k));
  const near = nearest(
    name,
    f.known.filter((k) => !taken(k)),
  );
  const range = keyRange(at);
  if (near) fixes.push({ title: `Rename ${name} to ${near}`, edits: [{ range, text: near }] });
  if (f.kind === 'table') {
    const span = tableSpan(toml, index, f.path[0]!);
    if (span)
      fixes.push({ title: `Remove the [${name}] table`, edits: [removeLines(toml, span.header.line, span.end)] });
  } else if (parseToml(lineOf(toml, at.line)!.trim()).ok) {
    // Only a key whose value ends on its own line: removing one line of a longer value would break the file.
    fixes.push({ title: `Remove ${name}`, edits: [removeLines(toml, at.line)] });
  }
  return fixes;
}

function valueFixes(f: SchemaFinding, range: Range): QuickFix[] {
  const near = nearest(f.value!, f.known);
  return near ? [{ title: `Change to "${near}"`, edits: [{ range, text: JSON.stringify(near) }] }] : [];
}

/** The quoted value `"v"` on the key's line (an array item or the value itself). */
function valueSpan(toml: string, at: TomlKey, value: string): Range | undefined {
  const line = lineOf(toml, at.line) ?? '';
  for (const q of [JSON.stringify(value), `'${value}'`]) {
    const i = line.indexOf(q, at.start - 1);
    if (i >= 0) return { startLine: at.line, startColumn: i + 1, endLine: at.line, endColumn: i + 1 + q.length };
  }
  return undefined;
}

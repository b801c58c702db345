/**
 * The skill does not load. For skill.toml, every problem at its place — each syntax error,
 * then each field that does not validate, with the fix where the value is certain (a valid
 * version, a name from the folder, a missing field inserted, a budget in range); for another
 * file, its hard error.
 */
import { formatError, type SkillsmithError } from '../../../../../shared/result';
import {
  budgetFor,
  clampContext,
  descriptionFrom,
  nameFor,
  problemField,
  semverFor,
} from '../../../../../shared/ksf/repair';
import { NEW_SKILL_DEFAULTS } from '../../../../../shared/ksf/model';
import { splitFrontmatter } from '../../../../../shared/ksf/frontmatter';
import { BUDGET_RANGE } from '../../../../../shared/ksf/manifest';
import { manifestProblems } from '../../../../../shared/ksf/manifest-problems';
import { estimateTokens } from '../../../../../shared/ksf/tokens';
import { insertLines, lineRange, tokenAt } from './text';
import { locateKey, tableSpan, tomlKeys, valueRange, type TomlKey } from './toml-index';
import type { Diagnostic, QuickFix } from './types';

type Texts = Readonly<Record<string, string>>;

export function loadErrorDiagnostics(error: SkillsmithError, texts: Texts, dir: string): Diagnostic[] {
  const file = (error.file ?? '').replace(/^\.\//, '');
  const text = texts[file];
  // The load stops at the manifest's first error; the author sees them all.
  const problems = file === 'skill.toml' && text !== undefined ? manifestProblems(text) : [];
  if (problems.length > 0) {
    const index = tomlKeys(text!);
    return problems.map((p) =>
      p.kind === 'toml'
        ? {
            file,
            severity: 'error' as const,
            code: 'toml',
            message: `invalid TOML: ${p.message}`,
            range: tokenAt(text!, p.line, p.column),
            blocking: false,
            fixes: [],
          }
        : {
            file,
            severity: 'error' as const,
            code: 'manifest',
            message: `invalid manifest: ${p.problem}`,
            range: locateKey(index, p.problem) ?? lineRange(text!, 1),
            blocking: false,
            fixes: manifestFixes(p.problem, text!, index, texts, dir),
          },
    );
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

const toml = (s: string): string => JSON.stringify(s);

/** The quick fixes for one manifest problem (`skill.version "one" is not semver`, …). */
function manifestFixes(problem: string, text: string, index: readonly TomlKey[], texts: Texts, dir: string) {
  const field = problemField(problem);
  if (!field) return [];
  const [table, key] = field.split('.') as [string, string];
  const at = index.find((k) => !k.header && k.path === field);
  const body = bodyOf(texts['SKILL.md'] ?? '');
  const fixes: QuickFix[] = [];
  const set = (value: string, title: string): void => {
    if (at) fixes.push({ title, edits: [{ range: valueRange(at), text: value }] });
    else fixes.push({ title, edits: [insertKey(text, index, table, `${key} = ${value}`)] });
  };
  const current = at ? text.split(/\r?\n/)[at.line - 1]!.slice(at.start - 1, at.end - 1) : undefined;
  const written = current === undefined ? '' : unquote(current);
  const verb = at ? 'Set' : 'Insert';
  if (field === 'skill.version') {
    const v = semverFor(written);
    set(toml(v), `${verb} version = "${v}"`);
  } else if (field === 'skill.name') {
    const n = nameFor(written, dir);
    if (n) set(toml(n), `${verb} name = "${n}"`);
  } else if (field === 'skill.description' && !at) {
    const d = descriptionFrom(body) ?? 'Describe what the skill does and when an agent should use it.';
    set(toml(d), 'Insert a description (from SKILL.md)');
  } else if (field === 'context.budget') {
    const n = Number(written);
    const b = at && written !== '' && Number.isFinite(n) ? clampContext('budget', n) : budgetForNew(body);
    set(String(b), `${verb} budget = ${b}`);
  } else if (field === 'context.standing' && at && Number.isFinite(Number(written))) {
    const s = clampContext('standing', Number(written));
    set(String(s), `Set standing = ${s}`);
  }
  return fixes;
}

/** Insert `line` at the end of `[table]`, or add the table (a new `[skill]` goes first, any other last). */
function insertKey(text: string, index: readonly TomlKey[], table: string, line: string) {
  const span = tableSpan(text, index, table);
  if (span) return insertLines(text, span.end, [line]);
  if (table === 'skill') return insertLines(text, 0, ['[skill]', line, '']);
  const lines = text.split(/\r?\n/);
  let last = lines.length;
  while (last > 0 && lines[last - 1]!.trim() === '') last--;
  return insertLines(text, last, last === 0 ? [`[${table}]`, line] : ['', `[${table}]`, line]);
}

/** A budget for a skill that had none: the new-skill default, or more when the body needs more. */
function budgetForNew(body: string): number {
  const need = budgetFor(estimateTokens(body));
  return need === undefined ? BUDGET_RANGE.max : Math.max(need, NEW_SKILL_DEFAULTS.budget);
}

function unquote(v: string): string {
  const t = v.trim();
  return /^(["']).*\1$/.test(t) ? t.slice(1, -1) : t;
}

function bodyOf(md: string): string {
  const { frontmatter, rest } = splitFrontmatter(md, false);
  return frontmatter ? rest.trimStart() : md;
}

/**
 * Every problem of a skill.toml at once, for the editor. The TOML parser stops at its first
 * syntax error, so an author with three mistakes would fix them one save at a time: here the
 * line it stopped at is set aside and the rest parsed again, until the text parses, and what
 * then parses is validated too. `skillsmith lint` keeps reporting the first error only, as
 * kitbash does.
 */
import { validateManifest } from './manifest';
import { problemField } from './repair';
import { isTable, parseToml, type TomlTable } from './toml';

export type ManifestProblem =
  { kind: 'toml'; message: string; line: number; column: number } | { kind: 'manifest'; problem: string };

/** Enough for any manifest a person writes; past it, the text is not TOML at all. */
const MAX_SYNTAX_ERRORS = 20;

export function manifestProblems(text: string): ManifestProblem[] {
  const lines = text.split(/\r?\n/);
  const out: ManifestProblem[] = [];
  const setAside = new Set<number>();
  for (;;) {
    const parsed = parseToml(lines.join('\n'));
    if (parsed.ok) {
      const validated = validateManifest(parsed.value);
      if (validated.ok) return out;
      for (const problem of validated.error.detail ?? [])
        if (setAside.size === 0 || present(parsed.value, problemField(problem)))
          out.push({ kind: 'manifest', problem });
      return out;
    }
    const { line, column } = parsed.error;
    // A failure without a line, or at a line already set aside, cannot be stepped past.
    if (line === undefined || setAside.has(line) || line > lines.length) {
      if (out.length === 0)
        out.push({ kind: 'toml', message: parsed.error.message, line: line ?? 1, column: column ?? 1 });
      return out;
    }
    out.push({ kind: 'toml', message: parsed.error.message, line, column: column ?? 1 });
    if (out.length >= MAX_SYNTAX_ERRORS) return out;
    setAside.add(line);
    lines[line - 1] = '';
  }
}

/**
 * Whether the field has a value: once a line is set aside, a missing field may be the one
 * that stood there, and its syntax error already says what is wrong with it.
 */
function present(table: TomlTable, field: string | undefined): boolean {
  if (!field) return false;
  const [t, key] = field.split('.') as [string, string];
  const v = table[t];
  return isTable(v) && v[key] !== undefined;
}

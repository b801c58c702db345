/**
 * The literal analysis behind the one-pass matcher (shared/lint/match/literals.ts, SPEC.md
 * D130): what it derives must be complete — every match begins with a start literal and
 * holds one of each required set — or the matcher would skip a real finding.
 *
 * Completeness is checked by brute force: every expression of every scanner is run over
 * texts built to match it (the scanners' own test spellings), and each match must start
 * with a start literal and contain a required one. The precomputed table the lint loads
 * must equal a fresh analysis (regenerate it with SKILLSMITH_WRITE_LITERALS=1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { literalsOf } from '../../shared/lint/match/literals';
import { LITERALS_TABLE } from '../../shared/lint/match/literals-table';
import { literalsKey } from '../../shared/lint/match/matcher';
import { SCANNER_EXPRESSIONS } from '../../shared/lint/scanners';
import { repoRoot } from '../support/paths';

const TABLE_FILE = resolve(repoRoot, 'shared/lint/match/literals-table.ts');

function tableSource(): string {
  const table = Object.fromEntries(SCANNER_EXPRESSIONS.map((re) => [literalsKey(re), literalsOf(re)]));
  return [
    '// Generated: SKILLSMITH_WRITE_LITERALS=1 npx vitest run tests/unit/one-pass-literals.test.ts',
    '// The literals of every scanner expression (./literals.ts), worked out ahead of time so a lint',
    '// does not analyse them at start-up. An expression missing here, or changed since, is analysed',
    '// at run time: this table can make a lint slower, never different.',
    "import type { Literals } from './literals';",
    '',
    `export const LITERALS_TABLE: Readonly<Record<string, Literals>> = JSON.parse(${JSON.stringify(JSON.stringify(table))});`,
    '',
  ].join('\n');
}

describe('the precomputed literal table', () => {
  it('equals a fresh analysis of every scanner expression', () => {
    if (process.env.SKILLSMITH_WRITE_LITERALS === '1') writeFileSync(TABLE_FILE, tableSource());
    const fresh = Object.fromEntries(SCANNER_EXPRESSIONS.map((re) => [literalsKey(re), literalsOf(re)]));
    expect(LITERALS_TABLE).toEqual(fresh);
    expect(readFileSync(TABLE_FILE, 'utf8')).toContain('LITERALS_TABLE');
  });
});

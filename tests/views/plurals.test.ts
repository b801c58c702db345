/**
 * The app and the CLI count in words: "1 skill", "3 skills" through `plural`
 * (shared/text/format.ts), never "skill(s)". Scans every string a user can be shown — string
 * and template literals and JSX text, not comments or regular expressions — in the renderer,
 * main (the CLI and the services whose messages reach the app), preload and shared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { plural } from '../../shared/text/format';
import { repoRoot } from '../support/paths';
import { parseTs } from './renderer-sources';

/** A word with "(s)", "(es)" or "(ies)" glued on: `file(s)`, `process(es)`. */
const HEDGED = /[A-Za-z]\((?:s|es|ies)\)/;

/**
 * Wordings kept byte for byte, because another tool's output is the contract and a test pins
 * it: the file, a fragment of the literal, and why.
 */
const KEPT: readonly (readonly [file: string, fragment: string, why: string])[] = [
  [
    'shared/lint/report/human.ts',
    ' skill(s) · ',
    "kitbash's lint/test totals (SPEC §10.3), parsed by CI scripts; tests/cli",
  ],
  ['shared/lint/report/human.ts', ' failure(s) · ', 'the same totals line'],
  ['shared/lint/report/human.ts', ' warning(s)', 'the same totals line'],
  ['main/cli/commands/check.ts', ' warning(s)\n', "kitbash's --strict line (SPEC §10.3); tests/cli/exit-codes.test.ts"],
  [
    'main/cli/commands/spec.ts',
    ' event(s) to ',
    "the SkillSpec reference's trace line (SKILLSPEC.md §6); tests/skillspec",
  ],
  [
    'shared/compile/plan.ts',
    ' skill(s) are installed',
    "kitbash's refusal, tests/compile; shared/compile is reworked elsewhere",
  ],
  ['shared/compile/prune.ts', 'stale section(s) ', 'a plan reason; shared/compile is reworked elsewhere'],
  [
    'shared/targets/registry.ts',
    'unknown target(s) in ',
    "kitbash's error, pinned by tests/compile/plan.test.ts and cli.test.ts",
  ],
];

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Every literal holding a hedged plural in the text a file can show. */
function hedged(file: string): { file: string; text: string }[] {
  const rel = relative(repoRoot, file).split('\\').join('/');
  const found: { file: string; text: string }[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isStringLiteralLike(n) || ts.isTemplateLiteralToken(n) || ts.isJsxText(n)) && HEDGED.test(n.text))
      found.push({ file: rel, text: n.text });
    ts.forEachChild(n, visit);
  };
  visit(parseTs(rel, readFileSync(file, 'utf8')));
  return found;
}

describe('plural', () => {
  it('counts with the noun made plural', () => {
    expect(plural(1, 'skill')).toBe('1 skill');
    expect(plural(0, 'skill')).toBe('0 skills');
    expect(plural(3, 'generated file')).toBe('3 generated files');
    expect(plural(2, 'process', 'processes')).toBe('2 processes');
  });

  it('no "(s)" in any text the app or the CLI shows, but the pinned wordings of other tools', () => {
    const found = ['renderer/src', 'main', 'preload', 'shared'].flatMap((d) =>
      sources(join(repoRoot, d)).flatMap(hedged),
    );
    const kept = (f: { file: string; text: string }, [file, fragment]: (typeof KEPT)[number]) =>
      f.file === file && f.text.includes(fragment);
    expect(found.filter((f) => !KEPT.some((k) => kept(f, k))).map((f) => `${f.file}: ${f.text.trim()}`)).toEqual([]);
    // The list stays true: each kept wording is still there.
    expect(
      KEPT.filter((k) => !found.some((f) => kept(f, k))).map(([file, fragment]) => `${file}: ${fragment}`),
    ).toEqual([]);
  });
});

/** The renderer's source files, read for the house-rule tests (query keys, CSS prefixes). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../support/paths';

export const RENDERER_SRC = join(repoRoot, 'renderer', 'src');

/** Paths under renderer/src (forward slashes) whose name matches `ext`. */
export function rendererFiles(ext: RegExp): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(dir, e.name), r);
      else if (ext.test(e.name)) out.push(r);
    }
  };
  walk(RENDERER_SRC, '');
  return out.sort();
}

export const readRenderer = (rel: string): string => readFileSync(join(RENDERER_SRC, rel), 'utf8');

export function parseTs(rel: string, text: string): ts.SourceFile {
  return ts.createSourceFile(
    rel,
    text,
    ts.ScriptTarget.Latest,
    true,
    rel.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

/** `e` without the parentheses, `as` / `satisfies` casts and non-null marks around it. */
export function unwrap(e: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e)
  )
    e = e.expression;
  return e;
}

/** Where a node is, as `file:line`. */
export function at(sf: ts.SourceFile, node: ts.Node): string {
  return `${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
}

/**
 * IPC handlers are thin adapters: they shape arguments, call a service and map its answer.
 * State that spans calls, file-system and process access belong to `main/services/`, so a
 * handler file may not hold module-level mutable state, may not import node:fs or
 * node:child_process, and stays short.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

const HANDLERS_DIR = join(repoRoot, 'main', 'ipc', 'handlers');
const MAX_LINES = 150;
const FORBIDDEN_MODULES = new Set([
  'node:fs',
  'fs',
  'node:fs/promises',
  'fs/promises',
  'node:child_process',
  'child_process',
]);
const MUTABLE_CONSTRUCTORS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array']);

/** Why `text` (a handler file) breaks the rules; empty when it keeps them. */
function problems(file: string, text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES) out.push(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  for (const st of source.statements) {
    const where = `${file}:${source.getLineAndCharacterOfPosition(st.getStart()).line + 1}`;
    if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier) {
      const spec = (st.moduleSpecifier as ts.StringLiteral).text;
      if (FORBIDDEN_MODULES.has(spec)) out.push(`${where}: imports ${spec} (file and process access go in a service)`);
    }
    if (!ts.isVariableStatement(st)) continue;
    const flags = st.declarationList.flags;
    if (flags & ts.NodeFlags.Let || !(flags & (ts.NodeFlags.Const | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing)))
      out.push(`${where}: top-level ${flags & ts.NodeFlags.Let ? 'let' : 'var'} (module state goes in a service)`);
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      if (!init) continue;
      const mutable =
        (ts.isNewExpression(init) &&
          ts.isIdentifier(init.expression) &&
          MUTABLE_CONSTRUCTORS.has(init.expression.text)) ||
        (ts.isArrayLiteralExpression(init) && init.elements.length === 0) ||
        (ts.isObjectLiteralExpression(init) && init.properties.length === 0);
      if (mutable) out.push(`${where}: top-level ${init.getText(source)} (module state goes in a service)`);
    }
  }
  return out;
}

describe('layering: IPC handlers are thin adapters', () => {
  const files = readdirSync(HANDLERS_DIR).filter((f) => f.endsWith('.ts'));

  it('finds the handler files', () => {
    expect(files).toEqual(expect.arrayContaining(['install.ts', 'runs.ts', 'compile.ts', 'review.ts']));
  });

  it.each(files)('%s holds no module state, no fs/child_process import, and is short', (f) => {
    expect(problems(`main/ipc/handlers/${f}`, readFileSync(join(HANDLERS_DIR, f), 'utf8'))).toEqual([]);
  });

  it.each([
    ['let', 'let n = 0;\n'],
    ['var', 'var n = 0;\n'],
    ['exported let', 'export let n = 0;\n'],
    ['a Map', 'const m = new Map<string, number>();\n'],
    ['a WeakMap', 'export const m = new WeakMap();\n'],
    ['a Set', 'const s = new Set();\n'],
    ['an Array', 'const a = new Array<number>();\n'],
    ['an empty array', 'const a: string[] = [];\n'],
    ['an empty object', 'const o: Record<string, number> = {};\n'],
    ['node:fs', "import { readFileSync } from 'node:fs';\n"],
    ['fs/promises', "import { readFile } from 'fs/promises';\n"],
    ['node:child_process', "import { spawn } from 'node:child_process';\n"],
    ['a re-export of node:fs', "export { statSync } from 'node:fs';\n"],
    ['too many lines', 'export const x = 1;\n'.repeat(MAX_LINES + 1)],
  ])('rejects %s', (_what, code) => {
    expect(problems('main/ipc/handlers/x.ts', code)).toHaveLength(1);
  });

  it('accepts a handler table, constants, functions and state inside functions', () => {
    const code = [
      "import { thing } from '../../services/thing';",
      'const MAX = 10;',
      'const label = (n: number): string => `n${n}`;',
      'function local() {',
      '  let n = 0;',
      '  const m = new Map();',
      '  m.set(n++, 1);',
      '  return m;',
      '}',
      'export const handlers = { get: () => thing(MAX, label(1), local()) };',
      '',
    ].join('\n');
    expect(problems('main/ipc/handlers/x.ts', code)).toEqual([]);
  });
});

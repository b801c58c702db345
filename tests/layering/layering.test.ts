/**
 * The layering rules in eslint.config.mjs actually fire. Each case lints a snippet as if
 * it lived at a given path (nothing is written to disk), through ESLint's Node API and
 * the repository's own flat config.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

const eslint = new ESLint({ cwd: repoRoot });

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, filePath) });
  if (!result) throw new Error(`no lint result for ${filePath}`);
  return result.messages;
}

/** Errors raised by one rule. */
async function errorsOf(filePath: string, code: string, ruleId: string): Promise<Linter.LintMessage[]> {
  const messages = await lint(filePath, code);
  const fatal = messages.filter((m) => m.fatal);
  if (fatal.length) throw new Error(`${filePath} did not parse: ${fatal.map((m) => m.message).join('; ')}`);
  return messages.filter((m) => m.ruleId === ruleId && m.severity === 2);
}

const imports = (spec: string) => `import * as m from '${spec}';\nexport const x = m;\n`;

describe('layering: shared/ is pure', () => {
  const file = 'shared/x.ts';

  it.each([
    'node:fs',
    'fs',
    'fs/promises',
    'path',
    'electron',
    '../main/cli/io',
    '../renderer/src/App',
    '../preload/index',
  ])('rejects importing %s', async (spec) => {
    const errs = await errorsOf(file, imports(spec), 'no-restricted-imports');
    expect(errs).toHaveLength(1);
  });

  it('rejects type-only imports and re-exports of node:* too', async () => {
    expect(
      await errorsOf(file, `import type { Stats } from 'node:fs';\nexport type U = Stats;\n`, 'no-restricted-imports'),
    ).toHaveLength(1);
    expect(await errorsOf(file, `export { readFileSync } from 'node:fs';\n`, 'no-restricted-imports')).toHaveLength(1);
  });

  it.each([
    ['window', 'export const w = window;\n'],
    ['document', 'export const d = document.title;\n'],
    ['process', 'export const e = process.env;\n'],
    ['navigator', 'export const n = navigator.userAgent;\n'],
    ['Buffer', "export const b = Buffer.from('x');\n"],
    ['fetch', "export const f = () => fetch('x');\n"],
  ])('rejects the %s global', async (name, code) => {
    const errs = await errorsOf(file, code, 'no-restricted-globals');
    expect(errs).toHaveLength(1);
    expect(errs[0]!.message).toContain(name);
  });

  it('accepts a clean shared module', async () => {
    const code = [
      "import { parse } from 'smol-toml';",
      "import { resolveTemplates } from './ksf/templates';",
      '',
      'export function names(text: string): string[] {',
      '  const doc = parse(text) as Record<string, unknown>;',
      "  void resolveTemplates('', 'x', () => ({ kind: 'missing', path: 'p' }));",
      '  return Object.keys(doc).sort();',
      '}',
      '',
    ].join('\n');
    const messages = await lint(file, code);
    expect(messages.filter((m) => m.severity === 2)).toEqual([]);
  });
});

describe('layering: renderer/ reaches neither main/ nor Node nor electron', () => {
  it.each(['electron', '../../main/cli/io', 'node:path', '../../main'])(
    'rejects importing %s from renderer/src/x.tsx',
    async (spec) => {
      const code = `import * as m from '${spec}';\nexport function X() { return <div>{String(m)}</div>; }\n`;
      expect(await errorsOf('renderer/src/x.tsx', code, 'no-restricted-imports')).toHaveLength(1);
    },
  );

  it('allows the renderer to import React and its own modules', async () => {
    const code = `import { useState } from 'react';\nimport { App } from './App';\nexport function X() { const [s] = useState(0); return <App workspace={String(s)} />; }\n`;
    expect((await lint('renderer/src/x.tsx', code)).filter((m) => m.severity === 2)).toEqual([]);
  });
});

describe('layering: electron only in the Electron entry files and the preload', () => {
  it.each(['main/services/x.ts', 'main/cli/x.ts', 'main/x.ts'])('rejects electron in %s', async (file) => {
    const errs = await errorsOf(file, imports('electron'), 'no-restricted-imports');
    expect(errs).toHaveLength(1);
    expect(errs[0]!.message).toContain('electron may be imported only by');
  });

  it.each(['main/electron/x.ts', 'preload/x.ts', 'main/index.ts'])('allows electron in %s', async (file) => {
    const code = "import { app } from 'electron';\nexport const ready = app.whenReady();\n";
    expect((await lint(file, code)).filter((m) => m.severity === 2)).toEqual([]);
  });

  it('allows Node built-ins in main/services/', async () => {
    const code =
      "import { readFile } from 'node:fs/promises';\nexport const read = (p: string) => readFile(p, 'utf8');\n";
    expect((await lint('main/services/x.ts', code)).filter((m) => m.severity === 2)).toEqual([]);
  });
});

describe('layering: shared/tsconfig.json', () => {
  it('compiles shared/ with no DOM lib and no ambient types', () => {
    // tsconfig allows comments and trailing commas; strip them before parsing.
    const raw = readFileSync(join(repoRoot, 'shared/tsconfig.json'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/,(\s*[}\]])/g, '$1');
    const config = JSON.parse(raw) as { compilerOptions?: { lib?: string[]; types?: string[] } };
    const lib = config.compilerOptions?.lib;
    expect(Array.isArray(lib)).toBe(true);
    expect(lib!.filter((l) => /^dom/i.test(l) || /^webworker/i.test(l))).toEqual([]);
    expect(config.compilerOptions?.types).toEqual([]);
  });
});

describe('layering: no stray electron imports in the source tree', () => {
  const allowed = (rel: string) =>
    rel === 'main/index.ts' || rel.startsWith('main/electron/') || rel.startsWith('preload/');

  function sources(dir: string): string[] {
    const out: string[] = [];
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') out.push(...sources(rel));
      } else if (/\.(ts|tsx|mts|cts)$/.test(entry.name)) out.push(rel);
    }
    return out;
  }

  it('finds electron only in main/index.ts, main/electron/ and preload/', () => {
    const files = ['shared', 'main', 'renderer', 'preload'].flatMap(sources);
    expect(files.length).toBeGreaterThan(10);
    const electronRef =
      /\bfrom\s*['"]electron(\/[^'"]*)?['"]|\b(require|import)\s*\(\s*['"]electron(\/[^'"]*)?['"]\s*\)/;
    const offenders = files
      .filter((rel) => !allowed(rel))
      .filter((rel) => electronRef.test(readFileSync(join(repoRoot, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the entry files it allows do import electron (the scan is looking at the right thing)', () => {
    const electronRef = /\bfrom\s*['"]electron['"]/;
    expect(electronRef.test(readFileSync(join(repoRoot, 'main/index.ts'), 'utf8'))).toBe(true);
    expect(electronRef.test(readFileSync(join(repoRoot, 'preload/index.ts'), 'utf8'))).toBe(true);
  });
});

describe('exit codes: main/cli returns through the EXIT table', () => {
  const file = 'main/cli/commands/x.ts';
  const header = "import { EXIT, type ExitCode } from '../io';\n";

  it.each([
    ['a bare return', 'export function run(): ExitCode {\n  return 1;\n}\n', 1],
    [
      'a conditional return (each number)',
      'export function run(bad: boolean): ExitCode {\n  return bad ? 1 : 0;\n}\n',
      2,
    ],
    ['a code field', 'export function pick(): { code: ExitCode } {\n  return { code: 2 };\n}\n', 1],
    [
      'a typed exit variable',
      'export function run(): ExitCode {\n  const worst: ExitCode = 0;\n  return worst;\n}\n',
      1,
    ],
    [
      'an assigned code',
      'export function run(n: number): ExitCode {\n  let code = EXIT.ok;\n  if (n) code = 1;\n  return code;\n}\n',
      1,
    ],
  ] as const)('rejects %s', async (_, code, count) => {
    expect(await errorsOf(file, header + code, 'no-restricted-syntax')).toHaveLength(count);
  });

  it('accepts the EXIT names, and numbers that are not exit codes', async () => {
    const code = [
      'export function run(bad: boolean): ExitCode {',
      '  const width = [1, 2].length + 1;',
      '  return bad || width > 3 ? EXIT.failed : EXIT.ok;',
      '}',
      'export const pick = (): { code: ExitCode } => ({ code: EXIT.usage });',
      '',
    ].join('\n');
    expect(await errorsOf(file, header + code, 'no-restricted-syntax')).toEqual([]);
  });

  it('applies only under main/cli', async () => {
    expect(
      await errorsOf(
        'main/services/x.ts',
        'export const f = (): number => {\n  return 1;\n};\n',
        'no-restricted-syntax',
      ),
    ).toEqual([]);
  });
});

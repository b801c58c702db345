// Fenced code blocks for bench/generate.mjs's skill bodies, one builder per language,
// all drawn from the generator's seeded PRNG so output stays byte-identical per seed.

import { camel, pascal, PROTECTED } from './vocabulary.mjs';

function shellBlock(r, ctx) {
  const lines = r.sample([...new Set(ctx.commands)], r.int(2, 5));
  if (r.chance(0.4)) lines.unshift('set -euo pipefail');
  if (r.chance(0.3)) lines.push(`git diff --name-only origin/main...HEAD -- ${ctx.obj.file}`);
  if (r.chance(0.2)) lines.push('curl -fsS http://localhost:8080/healthz');
  return '```sh\n' + lines.join('\n') + '\n```';
}

function tsBlock(r, ctx) {
  const fn = camel(ctx.verb.base, ctx.obj.slug);
  const type = pascal(ctx.obj.slug, 'finding');
  const forms = [
    () => [
      `export interface ${type} {`,
      '  file: string;',
      '  line: number;',
      `  severity: "info" | "warn" | "error";`,
      '  message: string;',
      '}',
      '',
      `export function ${fn}(files: readonly string[]): ${type}[] {`,
      `  const findings: ${type}[] = [];`,
      '  for (const file of files) {',
      `    if (!file.startsWith("${ctx.obj.file.replace(/\/$/, '')}")) continue;`,
      `    findings.push({ file, line: 1, severity: "info", message: "review ${ctx.obj.slug}" });`,
      '  }',
      '  return findings;',
      '}',
    ],
    () => [
      `import { readFile } from "node:fs/promises";`,
      '',
      `export async function load${pascal(ctx.obj.slug)}(path: string): Promise<Record<string, unknown>> {`,
      '  const text = await readFile(path, "utf8");',
      '  try {',
      '    return JSON.parse(text) as Record<string, unknown>;',
      '  } catch (err) {',
      '    throw new Error(`cannot parse ${path}: ${(err as Error).message}`);',
      '  }',
      '}',
    ],
    () => [
      `import { describe, expect, it } from "vitest";`,
      `import { ${fn} } from "../src/${ctx.obj.slug}";`,
      '',
      `describe("${fn}", () => {`,
      '  it("returns nothing for an empty input", () => {',
      `    expect(${fn}([])).toEqual([]);`,
      '  });',
      '',
      `  it("${r.pick(['keeps the original order', 'ignores unrelated files', 'reports one finding per file'])}", () => {`,
      `    const result = ${fn}(["${ctx.obj.file.replace(/\/$/, '')}/a.ts", "other/b.ts"]);`,
      '    expect(result).toHaveLength(1);',
      '  });',
      '});',
    ],
    () => [
      `export async function withRetry<T>(fn: () => Promise<T>, attempts = ${r.int(2, 5)}): Promise<T> {`,
      '  let last: unknown;',
      '  for (let i = 0; i < attempts; i++) {',
      '    try {',
      '      return await fn();',
      '    } catch (err) {',
      '      last = err;',
      `      await new Promise((resolve) => setTimeout(resolve, ${r.pick([100, 250, 500])} * 2 ** i));`,
      '    }',
      '  }',
      '  throw last;',
      '}',
    ],
    () => [
      `type Result<T> = { ok: true; value: T } | { ok: false; error: string };`,
      '',
      `export function parse${pascal(ctx.obj.slug)}Line(line: string): Result<[string, string]> {`,
      '  const eq = line.indexOf("=");',
      '  if (eq < 0) return { ok: false, error: `missing "=" in ${line}` };',
      '  return { ok: true, value: [line.slice(0, eq).trim(), line.slice(eq + 1).trim()] };',
      '}',
    ],
  ];
  return '```ts\n' + r.pick(forms)().join('\n') + '\n```';
}

function pyBlock(r, ctx) {
  const fn = `${ctx.verb.base.replace(/-/g, '_')}_${ctx.obj.slug.replace(/-/g, '_')}`;
  const lines = [
    'from pathlib import Path',
    '',
    '',
    `def ${fn}(root: Path) -> list[str]:`,
    `    """Return the files under root that need attention."""`,
    '    found = []',
    `    for path in sorted(root.rglob("*.${r.pick(['py', 'sql', 'yaml', 'json', 'md'])}")):`,
    `        if "${r.pick(['TODO', 'deprecated', 'legacy', 'FIXME'])}" in path.read_text(encoding="utf-8"):`,
    '            found.append(str(path))',
    '    return found',
  ];
  return '```python\n' + lines.join('\n') + '\n```';
}

function yamlBlock(r, ctx) {
  const lines = [
    `name: ${ctx.obj.slug}`,
    'on:',
    '  pull_request:',
    '    paths:',
    `      - "${ctx.obj.file}**"`,
    'jobs:',
    '  check:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    `      - run: ${r.pick(ctx.commands)}`,
  ];
  return '```yaml\n' + lines.join('\n') + '\n```';
}

function jsonBlock(r, ctx) {
  const obj = {
    name: ctx.obj.slug,
    severity: r.pick(['warn', 'error']),
    include: [ctx.obj.file],
    exclude: [r.pick(PROTECTED)],
    maxFindings: r.int(10, 200),
  };
  return '```json\n' + JSON.stringify(obj, null, 2) + '\n```';
}

function sqlBlock(r) {
  const table = r.pick(['orders', 'users', 'invoices', 'events', 'sessions', 'accounts']);
  const col = r.pick(['created_at', 'status', 'owner_id', 'archived_at', 'region']);
  const lines = [
    `-- add the index concurrently so writes to ${table} keep flowing`,
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_${table}_${col} ON ${table} (${col});`,
    '',
    `SELECT ${col}, count(*) FROM ${table} GROUP BY ${col} ORDER BY 2 DESC LIMIT 20;`,
  ];
  return '```sql\n' + lines.join('\n') + '\n```';
}

export function codeBlock(r, ctx) {
  const byLang = {
    ts: tsBlock,
    sh: shellBlock,
    py: pyBlock,
    yaml: yamlBlock,
    json: jsonBlock,
    sql: sqlBlock,
    md: shellBlock,
  };
  if (r.chance(0.5)) return byLang[ctx.obj.lang](r, ctx);
  return r.pick([shellBlock, shellBlock, tsBlock, tsBlock, pyBlock, yamlBlock, jsonBlock])(r, ctx);
}

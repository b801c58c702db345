/**
 * Issue 13 item 10: target knowledge lives in shared/targets/. Nothing else spells a target
 * id to decide behaviour, and a new target is one module plus one registry line: every
 * consumer reads the module's declared data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { managedDirs } from '../../shared/compile/plan';
import { importDirs, importFiles } from '../../shared/targets/import';
import { emitMcp, mcpGaps, mcpSurfaces } from '../../shared/mcp/emit';
import { adoptLocations } from '../../shared/targets/adopt';
import { compatibilityMatrix } from '../../shared/targets/matrix';
import { TARGET_IDS, TARGETS, watchRoots } from '../../shared/targets/registry';
import type { TargetDef, TargetId } from '../../shared/targets/types';
import type { McpServer } from '../../shared/ksf/model';
import { memProject, skill } from './helpers';

const ROOT = join(__dirname, '..', '..');
const SCANNED = ['shared', 'main', 'renderer', 'preload'];

/**
 * Literals that equal a target id but do not name the target. Each entry is pinned to a
 * count, so a new use in the same file still fails.
 */
const ALLOWED: readonly { file: string; literal: string; count: number; why: string }[] = [
  // A Claude Code plugin's `agents/` folder and plugin.json field (its subagents), counted as a
  // power the plugin would bring (SPEC D313) — not the `agents` target.
  {
    file: 'shared/lock/marketplace.ts',
    literal: 'agents',
    count: 2,
    why: "a plugin's agents/ folder and field, not a target",
  },
  // Eval runner presets and transcript formats name the agent CLI that is run and the JSON
  // stream it prints (next to 'codex', which is no target) — not a compile target.
  {
    file: 'shared/evals/runners.ts',
    literal: 'claude-code',
    count: 3,
    why: 'eval runner id, preset and transcript format',
  },
  {
    file: 'shared/evals/runners.ts',
    literal: 'gemini',
    count: 4,
    why: 'eval runner id, preset, its command and transcript format',
  },
  { file: 'shared/evals/model.ts', literal: 'claude-code', count: 1, why: 'transcript format' },
  { file: 'shared/evals/model.ts', literal: 'gemini', count: 1, why: 'transcript format' },
  { file: 'shared/evals/transcript.ts', literal: 'claude-code', count: 1, why: 'transcript format' },
  { file: 'shared/evals/usage.ts', literal: 'claude-code', count: 1, why: 'transcript format (token usage)' },
  // The commented-out example line of the kitbash.toml that init writes (kitbash writes the same text).
  { file: 'main/services/project/init.ts', literal: 'claude-code', count: 1, why: 'sample config text' },
  { file: 'main/services/project/init.ts', literal: 'cursor', count: 1, why: 'sample config text' },
  { file: 'main/services/project/init.ts', literal: 'agentsmd', count: 1, why: 'sample config text' },
  // data-field="agents": the review's property, not the .agents target.
  { file: 'renderer/src/views/install/PermissionTable.tsx', literal: 'agents', count: 1, why: 'a property name' },
];

/** `file:line literal` for every quoted string (', ", `) whose whole text is one of `ids`. */
export function idLiterals(file: string, text: string, ids: readonly string[]): { at: string; literal: string }[] {
  const out: { at: string; literal: string }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(['"`])([a-z0-9-]+)\1/g))
      if (ids.includes(m[2]!)) out.push({ at: `${file}:${i + 1}`, literal: m[2]! });
  });
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(abs);
    return /\.tsx?$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [abs] : [];
  });
}

describe('nothing outside shared/targets/ spells a target id', () => {
  it('the scanner finds a quoted id in any quote style, and only a whole-string one', () => {
    const text =
      "if (t.id === 'cursor') x();\nconst a = \"zed\";\nconst b = `aider`;\nconst c = 'cursor-rules';\n// cursor\n";
    expect(idLiterals('f.ts', text, TARGET_IDS)).toEqual([
      { at: 'f.ts:1', literal: 'cursor' },
      { at: 'f.ts:2', literal: 'zed' },
      { at: 'f.ts:3', literal: 'aider' },
    ]);
  });

  it('no source file names a registered target, bar the commented allowlist', () => {
    const counts = new Map<string, { n: number; at: string[] }>();
    for (const top of SCANNED) {
      for (const abs of sources(join(ROOT, top))) {
        const file = relative(ROOT, abs).split('\\').join('/');
        if (file.startsWith('shared/targets/')) continue;
        for (const hit of idLiterals(file, readFileSync(abs, 'utf8'), TARGET_IDS)) {
          const key = `${file}\0${hit.literal}`;
          const c = counts.get(key) ?? { n: 0, at: [] };
          c.n++;
          c.at.push(`${hit.at} '${hit.literal}'`);
          counts.set(key, c);
        }
      }
    }
    const unexpected: string[] = [];
    for (const [key, c] of counts) {
      const [file, literal] = key.split('\0');
      const allowed = ALLOWED.find((a) => a.file === file && a.literal === literal);
      if (!allowed || c.n > allowed.count) unexpected.push(...c.at);
    }
    expect(unexpected).toEqual([]);
    // An allowlist entry that no longer matches anything is stale and goes.
    for (const a of ALLOWED) expect(counts.get(`${a.file}\0${a.literal}`)?.n, `${a.file} '${a.literal}'`).toBe(a.count);
  });
});

describe('a new target is one module and one registry line', () => {
  const acme: TargetDef = {
    id: 'acme' as TargetId,
    agent: 'Acme Agent',
    markers: ['.acme'],
    outputs: ['.acme/skills/<n>/SKILL.md'],
    shape: 'skill-dir',
    loading: 'lazy',
    capabilities: [],
    vendorDoc: { title: 'Acme', url: 'https://example.invalid/acme', checked: '2026-12-02' },
    skillDir: '.acme/skills',
    alwaysLoaded: [],
    frontmatterKeys: 'any',
    userInvocation: false,
    importFrom: [{ dir: '.acme/skills', layout: 'skill-dir' }],
    watchRoots: ['.acme', 'ACME.md'],
    servesAgentsMdReaders: false,
    mcp: { path: '.acme/mcp.json', shape: 'cursor-mcp-json', merged: false },
    instructions: [
      { path: 'ACME.md', loading: 'eager' },
      { path: '.acme/rules', suffix: '.md', loading: 'lazy' },
    ],
    managedDirs: [{ dir: '.acme/skills', suffix: '/SKILL.md', wholeDir: true }],
    detect: (p) => p.exists('.acme'),
    constraints: () => [],
    emit: (p) => ({
      files: [{ path: `.acme/skills/${p.name}/SKILL.md`, content: p.emitBody }],
      warnings: [],
      notes: [],
    }),
  };
  const registry = [...TARGETS, acme];

  it('compile prunes its folder, import reads its files, the watcher and adoption see its roots', () => {
    expect(managedDirs(registry).at(-1)).toEqual({ dir: '.acme/skills', suffix: '/SKILL.md', wholeDir: true });
    expect(managedDirs(TARGETS).some((d) => d.dir === '.acme/skills')).toBe(false);
    expect(importFiles(registry).at(-1)).toEqual({ path: 'ACME.md', agent: 'acme', loading: 'eager' });
    expect(importDirs(registry).at(-1)).toEqual({ dir: '.acme/rules', suffix: '.md', agent: 'acme', loading: 'lazy' });
    expect(watchRoots(registry)).toEqual(expect.arrayContaining(['.acme', 'ACME.md']));
    expect(adoptLocations(registry)).toContainEqual({ dir: '.acme/skills', shape: 'skill-dir', targets: ['acme'] });
  });

  it('MCP lands where it declares, and the matrix has its column', () => {
    expect(mcpSurfaces(registry)).toMatchObject({ acme: '.acme/mcp.json' });
    expect(mcpGaps(registry)).not.toHaveProperty('acme');
    const server = {
      name: 'srv',
      transport: 'stdio',
      command: 'srv',
      args: [],
      env: {},
      headers: {},
      tools: ['*'],
    } as unknown as McpServer;
    const out = emitMcp(acme, [server], () => undefined);
    expect(out.files.map((f) => f.path)).toEqual(['.acme/mcp.json']);
    const m = compatibilityMatrix([skill('tidy')], registry, memProject({ '.acme/x': '' }), [acme]);
    expect(m.cells.filter((c) => c.target === acme.id)).toHaveLength(1);
  });
});

/**
 * tooling/monaco-stages.ts: Monaco's core is evaluated in stages, one task each, and the
 * stages must run every module in exactly the order the core's entry alone would. These
 * tests hold the planner to that on hand-made graphs (cycles included) and on the real
 * monaco-editor tree, and check the built renderer preloads every stage at the first.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  esmImportGraph,
  evaluationOrder,
  monacoStages,
  planStages,
  type ImportGraph,
} from '../../tooling/monaco-stages';
import { repoRoot, requireOrSkip } from '../support/paths';

const graphOf =
  (edges: Record<string, string[]>): ImportGraph =>
  (f) =>
    edges[f] ?? [];
const unit = (): number => 1;

/** What the stages followed by the entry evaluate, next to what the entry alone does. */
function orders(graph: ImportGraph, entry: string, stages: readonly (readonly string[])[]) {
  return {
    staged: evaluationOrder(graph, [...stages.flat(), entry]),
    reference: evaluationOrder(graph, [entry]),
  };
}

describe('the import graph and the evaluation order', () => {
  it('reads every static import form, and no dynamic import, stylesheet or package', () => {
    const files: Record<string, string> = {
      '/m/entry.js': [
        "import a from './a.js';",
        'import {',
        '  b1,',
        '  b2,',
        '} from "./b.js";',
        "export * from './c.js';",
        "export { d } from './sub/d.js';",
        "import './e.js';",
        "import './style.css';",
        "import pkg from 'some-package';",
        "const lazy = () => import('./dynamic.js');",
      ].join('\n'),
    };
    const graph = esmImportGraph((f) => files[f] ?? '');
    expect(graph('/m/entry.js')).toEqual(['/m/a.js', '/m/b.js', '/m/c.js', '/m/sub/d.js', '/m/e.js']);
  });

  it('runs each module after its imports, in source order, a cycle entered once', () => {
    const graph = graphOf({ e: ['a', 'b'], a: ['c'], b: ['c', 'e'], c: ['a'] });
    // e → a → c (a is in progress: skipped) → c, a; then b (c done, e in progress) → b; e.
    expect(evaluationOrder(graph, ['e'])).toEqual(['c', 'a', 'b', 'e']);
  });
});

describe('planStages', () => {
  it('cuts a long evaluation into stages that keep its order', () => {
    const edges: Record<string, string[]> = { entry: [] };
    for (let i = 0; i < 40; i++) {
      edges.entry!.push(`m${i}`);
      edges[`m${i}`] = i > 0 ? [`m${i - 1}`, `leaf${i}`] : [`leaf${i}`];
    }
    const graph = graphOf(edges);
    const plan = planStages(graph, 'entry', unit, 10);
    expect(plan.stages.length).toBeGreaterThanOrEqual(7);
    const { staged, reference } = orders(graph, 'entry', plan.stages);
    expect(staged).toEqual(reference);
    // What each stage runs, end to end: the reference's order up to the last cut.
    const run = plan.modules.flat();
    expect(run).toEqual(reference.slice(0, run.length));
    expect(plan.weights.reduce((a, b) => a + b, 0)).toBe(reference.length);
    // Each stage is about the limit: a cut is checked after every completed import.
    expect(Math.max(...plan.weights)).toBeLessThanOrEqual(11);
  });

  it('moves a cut that would enter a module still being evaluated', () => {
    // x imports q, and q imports x back. Evaluated from the entry, q runs before x; a stage
    // importing q alone would run x first. With a limit of 2 the first chance to cut is
    // right after q: the planner must not cut there.
    const graph = graphOf({ entry: ['x', 'y'], x: ['p', 'q'], q: ['x'], y: ['z'] });
    const plan = planStages(graph, 'entry', unit, 2);
    expect(plan.stages).not.toContainEqual(['q']);
    expect(plan.stages.length).toBeGreaterThan(0);
    const { staged, reference } = orders(graph, 'entry', plan.stages);
    expect(reference).toEqual(['p', 'q', 'x', 'z', 'y', 'entry']);
    expect(staged).toEqual(reference);
  });

  it('makes no stage when the whole evaluation is under the limit', () => {
    const graph = graphOf({ entry: ['a', 'b'] });
    expect(planStages(graph, 'entry', unit, 10)).toEqual({ stages: [], modules: [], weights: [3] });
  });
});

describe('the real monaco-editor core', () => {
  const entry = join(repoRoot, 'node_modules', 'monaco-editor', 'esm', 'vs', 'editor', 'edcore.main.js');
  const graph = esmImportGraph();
  const size = (f: string): number => statSync(f).size;
  const MAX = 350_000;

  it('is staged in its own evaluation order, every stage near the limit', () => {
    const plan = planStages(graph, entry, size, MAX);
    const { staged, reference } = orders(graph, entry, plan.stages);
    expect(reference.length).toBeGreaterThan(500);
    expect(staged).toEqual(reference);
    const total = reference.reduce((a, f) => a + size(f), 0);
    expect(plan.stages.length).toBeGreaterThanOrEqual(Math.floor(total / MAX) - 1);
    const largest = Math.max(...reference.map(size));
    for (const w of plan.weights) expect(w).toBeLessThanOrEqual(MAX + largest);
  });

  it('puts each module in one stage chunk, importing only the same or earlier stages', () => {
    const { chunkGroups } = monacoStages({ entry, maxStageBytes: MAX });
    const stageOf = (f: string): number[] => chunkGroups.flatMap((g, k) => (g.test(f) ? [k] : []));
    const plan = planStages(graph, entry, size, MAX);
    const seen = new Set<string>();
    let modules = 0;
    plan.stages.forEach((imports, k) => {
      for (const f of evaluationOrder(graph, imports, seen)) {
        modules++;
        expect(stageOf(f)).toEqual([k]);
        for (const dep of graph(f)) expect(stageOf(dep)[0]).toBeLessThanOrEqual(k);
      }
    });
    expect(modules).toBeGreaterThan(500);
    // Higher priority first: an earlier stage's group claims its modules before a later one.
    const priorities = chunkGroups.map((g) => g.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
  });

  it('serves no stages in the dev server, whose Monaco is pre-bundled', async () => {
    const { plugin } = monacoStages({ entry, maxStageBytes: MAX });
    const call = <T>(hook: unknown, ...args: unknown[]): T => (hook as (...a: unknown[]) => T).call({}, ...args);
    const id = call<string>(plugin.resolveId, 'virtual:monaco-stages');
    call(plugin.configResolved, { command: 'build' });
    expect(await call<string>(plugin.load, id)).toMatch(/^export const STAGES = \[\(\) => import\(/);
    call(plugin.configResolved, { command: 'serve' });
    expect(await call<string>(plugin.load, id)).toBe('export const STAGES = [];\n');
  });
});

describe('the built renderer', () => {
  const assets = join(repoRoot, 'out', 'renderer', 'assets');
  const built = requireOrSkip('the built renderer (npm run build)', existsSync(assets));

  it.runIf(built)('preloads every stage chunk when the first stage is requested', () => {
    const files = readdirSync(assets);
    const stageChunks = files.filter((f) => /^monaco-\d+-.*\.js$/.test(f));
    expect(stageChunks.length).toBeGreaterThan(10);
    const editorView = files.find((f) => /^EditorView-.*\.js$/.test(f));
    expect(editorView).toBeDefined();
    const code = readFileSync(join(assets, editorView!), 'utf8');
    // Vite's dependency table (`__vite__mapDeps`) and the first stage's preload list in it.
    const table = /m\.f=\[([^\]]*)\]/.exec(code)?.[1];
    expect(table).toBeDefined();
    const names = [...table!.matchAll(/"\.\/([^"]+)"/g)].map((m) => m[1]);
    const first = /import\(`\.\/monaco-0-[^`]+`\)[^,]{0,40},__vite__mapDeps\(\[([\d,]+)\]\)/.exec(code)?.[1];
    expect(first).toBeDefined();
    const preloaded = new Set(first!.split(',').map((i) => names[Number(i)]));
    for (const chunk of stageChunks) expect(preloaded).toContain(chunk);
  });
});

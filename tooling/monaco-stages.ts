/**
 * Monaco's editor core is ~900 ES modules whose top-level code registers commands,
 * contributions and services. Loaded as one module graph it is evaluated in one
 * main-thread task: 400–650 ms on the bench machine (bench/desktop.mjs, "editor (one
 * skill)"), during which the page neither paints nor answers input.
 *
 * This plugin cuts that evaluation into stages without changing it: stage k imports the
 * subtrees that a depth-first evaluation of the entry completes next, so evaluating the
 * stages one after another, then the entry, runs every module in exactly the order the
 * entry alone would. `planStages` proves that for every plan it returns (the build fails
 * otherwise), and the renderer awaits the stages with a yield between them
 * (renderer/src/monaco/load.ts). The stages' chunks are all preloaded when the first is
 * requested, so only evaluation is sequential, not the fetching.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** A module's static imports (evaluated before it), in source order. */
export type ImportGraph = (file: string) => readonly string[];

/** Every static `import … from`, `import '…'` and `export … from` of an ES module. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/**
 * The static import graph of a package's ES modules. Relative specifiers resolve against
 * the importer; bare ones (other packages) and stylesheets are leaves to it: they carry no
 * evaluation order this plan must keep.
 */
export function esmImportGraph(read: (file: string) => string = (f) => readFileSync(f, 'utf8')): ImportGraph {
  const memo = new Map<string, string[]>();
  return (file) => {
    let deps = memo.get(file);
    if (!deps) {
      deps = [];
      for (const m of read(file).matchAll(STATIC_IMPORT)) {
        const spec = m[1] ?? '';
        if (spec.startsWith('.') && !spec.endsWith('.css')) deps.push(resolve(dirname(file), spec));
      }
      memo.set(file, deps);
    }
    return deps;
  };
}

/**
 * The order in which an ES module loader runs the modules of `entries` imported one after
 * another: depth first, each module after its imports, a module already started (a cycle)
 * not entered again — the spec's InnerModuleEvaluation.
 */
export function evaluationOrder(graph: ImportGraph, entries: readonly string[], seen = new Set<string>()): string[] {
  const out: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of graph(file)) visit(dep);
    out.push(file);
  };
  for (const e of entries) visit(e);
  return out;
}

export interface StagePlan {
  /** What each stage imports; evaluated in this order, then `entry`. */
  readonly stages: readonly (readonly string[])[];
  /** The modules each stage evaluates, in order (what its imports reach that no earlier stage ran). */
  readonly modules: readonly (readonly string[])[];
  /** The weight each stage evaluates (the last entry: what the entry itself still runs). */
  readonly weights: readonly number[];
}

/**
 * Cuts the evaluation of `entry` into stages of about `maxWeight` each (cuts fall between
 * modules, so a heavy module makes its stage heavier). A cut is made only where the stages
 * so far reproduce the entry's evaluation order exactly; a cycle through a module still
 * being evaluated moves the cut to the next place where they do.
 */
export function planStages(
  graph: ImportGraph,
  entry: string,
  weight: (file: string) => number,
  maxWeight: number,
): StagePlan {
  const reference = evaluationOrder(graph, [entry]);
  const stages: string[][] = [];
  const modules: string[][] = [];
  const weights: number[] = [];
  const seen = new Set<string>();
  // Per module being visited: its imports completed since the last cut.
  const frames: string[][] = [];
  let evaluated = 0;
  let cutAt = 0;
  let sinceCut = 0;
  const cutHere = (): void => {
    const imports = frames.flat();
    const staged = evaluationOrder(graph, stages.concat([imports]).flat());
    if (staged.length !== evaluated || staged.some((f, i) => f !== reference[i])) return;
    // The stages so far run exactly the reference's first `evaluated` modules.
    modules.push(reference.slice(cutAt, evaluated));
    cutAt = evaluated;
    stages.push(imports);
    weights.push(sinceCut);
    sinceCut = 0;
    for (const f of frames) f.length = 0;
  };
  const visit = (file: string): boolean => {
    if (seen.has(file)) return false;
    seen.add(file);
    const done: string[] = [];
    frames.push(done);
    for (const dep of graph(file)) {
      if (!visit(dep)) continue;
      done.push(dep);
      if (sinceCut >= maxWeight) cutHere();
    }
    frames.pop();
    evaluated++;
    sinceCut += weight(file);
    return true;
  };
  visit(entry);
  weights.push(sinceCut);
  const all = evaluationOrder(graph, [...stages.flat(), entry]);
  if (all.length !== reference.length || all.some((f, i) => f !== reference[i]))
    throw new Error(`monaco stages: the staged evaluation of ${entry} differs from the entry's own order`);
  return { stages, modules, weights };
}

const STAGE_PREFIX = '\0monaco-stage:';
const LIST_ID = 'virtual:monaco-stages';

type BundleEntry = { type: string; code?: string; moduleIds?: string[]; imports?: string[] };

/**
 * The build side of the stages, for the renderer's Vite config:
 * - `plugin` serves `virtual:monaco-stages`, whose `STAGES` holds one loader per stage, a
 *   dynamic import of a module importing that stage's subtrees (none in the dev server,
 *   whose pre-bundled Monaco must not be imported a second time by file path);
 * - `chunkGroups` puts each module in the chunk of the stage that evaluates it first;
 * - `resolveDependencies` (for `build.modulePreload`) has the first stage's request
 *   preload every stage's chunk.
 */
export function monacoStages(options: { entry: string; maxStageBytes: number }): {
  plugin: Plugin;
  chunkGroups: { name: string; test: (id: string) => boolean; priority: number }[];
  resolveDependencies: (file: string, deps: string[]) => string[];
} {
  const plan = planStages(esmImportGraph(), options.entry, (f) => statSync(f).size, options.maxStageBytes);
  // A stage's modules import only modules of the same or earlier stages (the plan proves
  // it), so a chunk per stage imports only earlier chunks: no cycle between chunks, and
  // one file per stage to fetch.
  const stageOf = new Map<string, number>();
  plan.modules.forEach((files, k) => {
    stageOf.set(STAGE_PREFIX + k, k);
    for (const f of files) stageOf.set(f, k);
  });
  const chunkGroups = plan.stages.map((_, k) => ({
    name: `monaco-${k}`,
    test: (id: string) => stageOf.get(id) === k,
    // Earlier stages first, so a later group never takes an earlier stage's module.
    priority: plan.stages.length - k,
  }));

  let serving = false;
  let bundle: Record<string, BundleEntry> = {};
  const plugin: Plugin = {
    name: 'skillsmith:monaco-stages',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    resolveId: (id) => (id === LIST_ID ? `\0${LIST_ID}` : id.startsWith(STAGE_PREFIX) ? id : null),
    load(id) {
      if (id === `\0${LIST_ID}`) {
        const loaders = serving ? [] : plan.stages.map((_, k) => `() => import(${JSON.stringify(STAGE_PREFIX + k)})`);
        return `export const STAGES = [${loaders.join(', ')}];\n`;
      }
      if (!id.startsWith(STAGE_PREFIX)) return null;
      const stage = plan.stages[Number(id.slice(STAGE_PREFIX.length))];
      if (!stage) throw new Error(`monaco stages: no stage ${id}`);
      return stage.map((f) => `import ${JSON.stringify(f)};`).join('\n');
    },
    // Vite computes the preload lists in its own generateBundle, after this one.
    generateBundle: {
      order: 'pre',
      handler(_options, output) {
        bundle = output as Record<string, BundleEntry>;
      },
    },
  };

  // A chunk with no code is one Vite deletes later (it held only CSS, which each stage's
  // own import still brings): there is nothing in it to preload.
  const closure = (file: string, into: Set<string>): void => {
    const chunk = bundle[file];
    if (into.has(file) || !chunk || chunk.code?.trim() === '') return;
    into.add(file);
    for (const dep of chunk.imports ?? []) closure(dep, into);
  };
  // The stage modules are captured by their stage's chunk group: no chunk has one as its
  // facade, so a stage's chunk is the one that holds its module.
  const holdsStage = (chunk: BundleEntry | undefined, k?: number): boolean =>
    chunk?.moduleIds?.some((id) => (k === undefined ? id.startsWith(STAGE_PREFIX) : id === STAGE_PREFIX + k)) ?? false;
  const resolveDependencies = (file: string, deps: string[]): string[] => {
    if (!holdsStage(bundle[file], 0)) return deps;
    const all = new Set<string>(deps);
    for (const [name, chunk] of Object.entries(bundle)) if (holdsStage(chunk)) closure(name, all);
    return [...all];
  };
  return { plugin, chunkGroups, resolveDependencies };
}

/**
 * Live diagnostics for the editor: the unsaved buffers of one skill go through the same
 * shared/ engine as `skillsmith lint` (loadSkill → lintSkill) and the SkillSpec reader
 * (readSpecYaml → validateSpec, what checkSpecText runs), and every finding comes back
 * on an exact range of one file, with a quick fix where the fix is certain.
 *
 * While the manifest does not load, its error is shown at its place and the checks that
 * read only files (SKILL.md, prompts, scripts) keep running over a stand-in manifest.
 *
 * Pure (no DOM, no Monaco): runs in the diagnostics Web Worker, in tests and in the bench.
 */
import { loadSkill, loadSkillFiles } from '../../../../shared/ksf/load';
import type { TreeEntry } from '../../../../shared/ksf/tree';
import { lintFiles, lintSkill } from '../../../../shared/lint/checks';
import { checkDiagnostics } from './analysis/checks';
import { driftDiagnostic } from './analysis/lock';
import { loadErrorDiagnostics } from './analysis/manifest';
import { meterOf, stubRange } from './analysis/meter';
import { specDiagnostics } from './analysis/spec';
import type { Analysis, AnalyzeInput, Diagnostic, Meter, Range } from './analysis/types';

export type * from './analysis/types';
export { tomlKeys } from './analysis/toml-index';

const enc = new TextEncoder();

/** The skill as a tree in walk order (per-directory UTF-16 order, depth first). */
export function treeOf(input: AnalyzeInput): { root: string; entries: TreeEntry[] } {
  const entries: TreeEntry[] = [];
  const dirs = new Set(input.dirs ?? []);
  const addParents = (p: string) => {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  };
  for (const p of Object.keys(input.texts)) addParents(p);
  for (const p of Object.keys(input.binaries ?? {})) addParents(p);
  for (const d of dirs) entries.push({ kind: 'dir', path: d });
  for (const [path, text] of Object.entries(input.texts)) entries.push({ kind: 'file', path, bytes: enc.encode(text) });
  for (const [path, bytes] of Object.entries(input.binaries ?? {})) entries.push({ kind: 'file', path, bytes });
  const segs = new Map(entries.map((e) => [e.path, e.path.split('/')]));
  entries.sort((a, b) => {
    const x = segs.get(a.path)!;
    const y = segs.get(b.path)!;
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    }
    return x.length - y.length;
  });
  return { root: '', entries };
}

export function analyze(input: AnalyzeInput, now: () => number = () => Date.now()): Analysis {
  const t0 = now();
  const out: Diagnostic[] = [];
  let meter: Meter | null = null;
  let stub: Range | null = null;

  const tree = treeOf(input);
  const loaded = loadSkill(tree, { nameHint: input.dir });
  if (!loaded.ok) {
    out.push(...loadErrorDiagnostics(loaded.error, input.texts, input.dir));
    // The manifest is what failed: the files can still be read and checked.
    const files =
      (loaded.error.file ?? '').replace(/^\.\//, '') === 'skill.toml'
        ? loadSkillFiles(tree, { nameHint: input.dir })
        : null;
    if (files?.ok) for (const c of lintFiles(files.value)) out.push(...checkDiagnostics(c, files.value, input.texts));
  } else {
    const skill = loaded.value;
    const checks = lintSkill(skill);
    for (const c of checks) out.push(...checkDiagnostics(c, skill, input.texts));
    meter = meterOf(skill, checks);
    stub = stubRange(skill);
  }

  const spec = input.texts['skill.spec.yml'];
  if (spec !== undefined) out.push(...specDiagnostics(spec));
  if (input.drift) out.push(driftDiagnostic(input.dir, input.texts));

  out.sort((a, b) =>
    a.file < b.file
      ? -1
      : a.file > b.file
        ? 1
        : a.range.startLine - b.range.startLine || a.range.startColumn - b.range.startColumn,
  );
  return {
    diagnostics: out,
    summary: {
      errors: out.filter((d) => d.severity === 'error').length,
      warnings: out.filter((d) => d.severity === 'warning').length,
      blocking: out.filter((d) => d.blocking).length,
    },
    meter,
    stub,
    ms: now() - t0,
  };
}

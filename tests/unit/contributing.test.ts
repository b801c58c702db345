/**
 * CONTRIBUTING.md is a map of the repository: every file or folder it names in backticks
 * must exist, so a rename that forgets the document fails here instead of misleading the
 * next engineer. A name with a `/` is read from the repository's root; a bare file name
 * (`gemini.ts`, said beside its folder) must be the name of some file in the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

const DOC = join(repoRoot, 'CONTRIBUTING.md');

// Build and test output, the reference material beside the repository, and URL routes: not files here.
const ELSEWHERE = /^(?:out\/|e2e\/artifacts|\.\.\/|#\/|node:|https?:)/;
const FILE_NAME = /^[\w.-]+\.(?:ts|tsx|mjs|cjs|js|json|yml|md|css|toml)$/;
// A path: segments of name characters, at least one `/`; no placeholder (`<id>`, `…`, `*`).
const PATH = /^\.?[\w@-][\w.@-]*(?:\/[\w.@-]+)*\/[\w.@-]*$/;

/** The backticked spans of the document that name a repository path or a bare file name. */
function namedPaths(markdown: string): { paths: string[]; names: string[] } {
  const spans = [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  const paths = new Set<string>();
  const names = new Set<string>();
  for (const span of spans) {
    if (ELSEWHERE.test(span)) continue;
    if (PATH.test(span) && /^[\w.@/-]+$/.test(span)) paths.add(span.replace(/\/$/, ''));
    else if (FILE_NAME.test(span)) names.add(span);
  }
  return { paths: [...paths], names: [...names] };
}

function fileNames(dir: string, into = new Set<string>()): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'out' || e.name === '.git') continue;
    if (e.isDirectory()) fileNames(join(dir, e.name), into);
    else into.add(e.name);
  }
  return into;
}

describe('CONTRIBUTING.md names only paths that exist', () => {
  const { paths, names } = namedPaths(readFileSync(DOC, 'utf8'));

  it('finds the paths it names (the scan is not vacuous)', () => {
    expect(paths).toContain('shared/result.ts');
    expect(paths).toContain('main/ipc/handlers');
    expect(paths.length).toBeGreaterThan(80);
    expect(names).toContain('eslint.config.mjs');
  });

  it('every path, read from the repository root, exists', () => {
    expect(paths.filter((p) => !existsSync(join(repoRoot, p)))).toEqual([]);
  });

  it('every bare file name is a file somewhere in the repository', () => {
    const all = fileNames(repoRoot);
    expect(names.filter((n) => !all.has(n))).toEqual([]);
  });

  it('the extraction skips placeholders and build output, and keeps real paths', () => {
    const doc = 'a `shared/targets/<id>.ts`, `out/renderer`, `bench/<area>.mjs`, `#/editor`, `main/ipc/` and `x.ts`';
    expect(namedPaths(doc)).toEqual({ paths: ['main/ipc'], names: ['x.ts'] });
  });
});

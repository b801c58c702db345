/**
 * The app counts in words: "1 skill", "3 skills" through `plural` (shared/text/format.ts),
 * never "skill(s)". Scans the renderer and the dashboard's cards (main/services/dashboard),
 * the text of the screens a new user sees first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plural } from '../../shared/text/format';
import { repoRoot } from '../support/paths';
import { readRenderer, rendererFiles } from './renderer-sources';

/** A lowercase word with "(s)" glued on, as text (not a call like `fields(s).some`). */
const HEDGED = /(?<![.\w])[a-z]+\(s\)(?![.;,)}\]])/g;

/**
 * Left as they are for now: the Runs, Previews and Install review screens were reworked on other
 * branches when this test was written (their "(s)" go with that work).
 */
const LATER = [/^views\/runs\//, /^views\/previews\//, /^views\/install\//];

describe('plural', () => {
  it('counts with the noun made plural', () => {
    expect(plural(1, 'skill')).toBe('1 skill');
    expect(plural(0, 'skill')).toBe('0 skills');
    expect(plural(3, 'generated file')).toBe('3 generated files');
  });

  it('no "(s)" in the renderer or the dashboard cards', () => {
    const found: string[] = [];
    for (const rel of rendererFiles(/\.tsx?$/)) {
      if (LATER.some((r) => r.test(rel))) continue;
      for (const m of readRenderer(rel).matchAll(HEDGED)) found.push(`renderer/src/${rel}: ${m[0]}`);
    }
    const dash = join(repoRoot, 'main', 'services', 'dashboard');
    for (const f of readdirSync(dash).filter((n) => n.endsWith('.ts')))
      for (const m of readFileSync(join(dash, f), 'utf8').matchAll(HEDGED))
        found.push(`main/services/dashboard/${f}: ${m[0]}`);
    expect(found).toEqual([]);
  });
});

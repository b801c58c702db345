// The real-skills corpus (../shared/corpus/real-skills, 185 skills with their bundled files)
// copied into a project of its own, as bench/real-skills.mjs and bench/desktop.mjs use it.
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './env.mjs';

export const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real-skills');

/** Every agent's marker folder: a project made with all of them compiles for every target. */
export const MARKERS = [
  '.claude',
  '.cursor',
  '.agents',
  '.zed',
  '.github',
  '.clinerules',
  '.devin',
  '.gemini',
  'agent-plugin',
];

/** Every folder under `dir` that holds a SKILL.md, in name order (not below one that does). */
export function skillFolders(dir, out = []) {
  const names = readdirSync(dir);
  if (names.includes('SKILL.md')) return (out.push(dir), out);
  for (const n of names.sort()) if (lstatSync(join(dir, n)).isDirectory()) skillFolders(join(dir, n), out);
  return out;
}

/** The corpus skills as `{ dir, name }`, the name being the folder's. */
export const corpusSources = () => skillFolders(CORPUS).map((dir) => ({ dir, name: dir.split('/').pop() }));

/**
 * A fresh project (in a new temporary folder, on /dev/shm when there is one) with every source
 * copied, bundled files and all, to `.kitbash/skills/<name>/`, and the given marker folders.
 */
export function makeCorpusProject(sources, markers) {
  const root = join(
    mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'skillsmith-bench-real-')),
    'corpus-project',
  );
  for (const s of sources) cpSync(s.dir, join(root, '.kitbash', 'skills', s.name), { recursive: true });
  for (const m of markers) mkdirSync(join(root, m), { recursive: true });
  return root;
}

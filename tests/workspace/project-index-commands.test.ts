/**
 * The project index as the commands use it: updated, not rebuilt — a command loads only
 * the installed folders that are new to the index or changed since it saw them — and
 * correct after every install, remove and update, and after files change outside the app
 * (a hand edit within the same tick, a folder deleted or added by hand). Correct means:
 * what a command reads through the index is what a command with no index at all reads.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadFolderAsync } from '../../main/services/skills/folder';
import { cacheDir } from '../../main/services/skills/index-file';
import { ProjectIndex } from '../../main/services/skills/project-index';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

// Every loadFolderAsync call still runs the real loader; the mock only records which folder it read.
vi.mock('../../main/services/skills/folder', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../main/services/skills/folder')>();
  return { ...real, loadFolderAsync: vi.fn(real.loadFolderAsync) };
});
const loads = vi.mocked(loadFolderAsync);

afterAll(cleanupTemps);

beforeEach(() => {
  process.env.SKILLSMITH_CACHE_DIR = temp('skillsmith-cache-');
});

const hasGit = requireOrSkip('git', gitAvailable());

/** Stamps younger than a file-system tick are never trusted: wait until the project's have settled. */
const settle = () => new Promise((r) => setTimeout(r, 2700));

/** The installed folders (by folder name, each once, sorted) that were loaded since the last call. */
function installedLoads(p: string): string[] {
  const skills = join(p, '.kitbash', 'skills') + sep;
  const names = loads.mock.calls.map((c) => c[0]).filter((abs) => abs.startsWith(skills));
  loads.mockClear();
  return [...new Set(names.map((abs) => relative(skills, abs)))].sort();
}

function project(): string {
  const p = temp('skillsmith-index-cmd-');
  write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
  return p;
}

/** Each installed folder as one command's index reads it: name@version with its dependencies, or why it fails. */
async function viaIndex(p: string): Promise<string[]> {
  const index = await ProjectIndex.open(p);
  const seen = (await index.summaries()).map((s) =>
    s.ok
      ? `${s.summary.name}@${s.summary.version}${Object.entries(s.summary.dependencies)
          .map(([n, r]) => ` ${n} ${r}`)
          .join('')}`
      : `${s.loc.nameHint}: ${s.message}`,
  );
  await index.save();
  return seen;
}

/** The same, read by a command that has never seen the project (an empty cache folder). */
async function withoutIndex(p: string): Promise<string[]> {
  const kept = process.env.SKILLSMITH_CACHE_DIR;
  process.env.SKILLSMITH_CACHE_DIR = temp('skillsmith-cache-empty-');
  try {
    return await viaIndex(p);
  } finally {
    process.env.SKILLSMITH_CACHE_DIR = kept;
  }
}

/** What the index holds and what a fresh read finds agree, and are `expected`. */
async function agrees(p: string, expected: string[]): Promise<void> {
  expect(await viaIndex(p)).toEqual(expected);
  expect(await withoutIndex(p)).toEqual(expected);
}

describe('updated, not rebuilt', () => {
  it('a command loads only the installed folders new to the index or changed since it saw them', async () => {
    const p = project();
    const names = Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    for (const n of names) write(p, skillFiles(`v/${n}`, n));
    const batch = await cli(p, 'install', 'file:./v', ...names.flatMap((n) => ['--skill', n]), '--yes', '--no-compile');
    expect(batch.code).toBe(0);
    write(p, {
      ...skillFiles('v/one', 'one', { deps: { s03: '^1' } }),
      ...skillFiles('v/two', 'two', { deps: { s07: '^1' } }),
    });
    await settle();
    process.env.SKILLSMITH_CACHE_DIR = temp('skillsmith-cache-cold-');
    loads.mockClear();

    // Cold: the index has never seen the project, so every installed folder is read once.
    const first = await cli(p, 'install', 'file:./v/one', '--yes', '--no-compile');
    expect(first.code).toBe(0);
    expect(installedLoads(p)).toEqual(names);
    await settle();

    // Warm: only `one` (installed by the last command, too young then to be kept) is new;
    // s07 is read once more because the resolver chose it, to stage it into the review.
    expect((await cli(p, 'install', 'file:./v/two', '--yes', '--no-compile')).code).toBe(0);
    expect(installedLoads(p)).toEqual(['one', 's07']);

    // A hand edit outside the app, at once (within the same tick): that folder and `two` are read, nothing else.
    writeFileSync(join(p, '.kitbash/skills/s05/SKILL.md'), '# s05\n\nEdited by hand.\n');
    const removed = await cli(p, 'remove', 'one', '--yes', '--no-compile');
    expect(removed.code).toBe(0);
    expect(installedLoads(p)).toEqual(['s05', 'two']);
    await agrees(
      p,
      [...names, 'two'].map((n) => (n === 'two' ? 'two@1.0.0 s07 ^1' : `${n}@1.0.0`)),
    );
  });
});

describe.skipIf(!hasGit)('correct after every command and every change outside the app', () => {
  it('install, remove refused and allowed, update, a same-tick hand edit, folders deleted and added by hand', async () => {
    const p = project();
    write(p, {
      ...skillFiles('v/alpha', 'alpha'),
      ...skillFiles('v/beta', 'beta', { deps: { alpha: '^1' } }),
    });
    const repo = gitRepo(skillFiles('s/tool', 'tool'));
    expect((await cli(p, 'install', 'file:./v/alpha', '--yes', '--no-compile')).code).toBe(0);
    expect((await cli(p, 'install', 'file:./v/beta', '--yes', '--no-compile')).code).toBe(0);
    await settle();
    expect((await cli(p, 'install', `${repo.url}#:s/tool`, '--yes', '--no-compile')).code).toBe(0);
    await agrees(p, ['alpha@1.0.0', 'beta@1.0.0 alpha ^1', 'tool@1.0.0']);

    const refused = await cli(p, 'remove', 'alpha', '--yes', '--no-compile');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('cannot remove alpha: beta depends on it — remove that first.\n');

    // beta's dependency dropped by hand, and remove run at once: the index does not answer with the old entry.
    writeFileSync(join(p, '.kitbash/skills/beta/skill.toml'), skillFiles('', 'beta')['skill.toml']!);
    const allowed = await cli(p, 'remove', 'alpha', '--yes', '--no-compile');
    expect(allowed.code).toBe(0);
    await agrees(p, ['beta@1.0.0', 'tool@1.0.0']);

    await settle();
    repo.commit(skillFiles('s/tool', 'tool', { version: '1.1.0' }));
    const updated = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(updated.code).toBe(0);
    await agrees(p, ['beta@1.0.0', 'tool@1.1.0']);
    await settle();
    await agrees(p, ['beta@1.0.0', 'tool@1.1.0']);
    // Settled, the update is what the index keeps for the next command.
    const dir = join(cacheDir(), 'skill-index');
    const file = join(
      dir,
      readdirSync(dir).find((n) => n.endsWith('.json'))!,
    );
    expect(JSON.parse(readFileSync(file, 'utf8')).skills.tool.summary.version).toBe('1.1.0');

    rmSync(join(p, '.kitbash/skills/beta'), { recursive: true });
    write(p, {
      ...skillFiles('.kitbash/skills/hand', 'hand', { version: '2.0.0', deps: { tool: '^1' } }),
      '.kitbash/skills/broken/skill.toml': 'not toml [',
      '.kitbash/skills/broken/SKILL.md': '# broken\n',
    });
    const after = await viaIndex(p);
    expect(after.map((s) => s.replace(/:\d+:\d+: .*/, ': …'))).toEqual([
      'broken: .kitbash/skills/broken/skill.toml: …',
      'hand@2.0.0 tool ^1',
      'tool@1.1.0',
    ]);
    expect(await withoutIndex(p)).toEqual(after);
    // remove consults the same index: tool is now depended on by the folder added by hand.
    const blocked = await cli(p, 'remove', 'tool', '--yes', '--no-compile');
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toBe('cannot remove tool: hand depends on it — remove that first.\n');
  });
});

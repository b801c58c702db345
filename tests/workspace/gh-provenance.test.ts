import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLock } from '../../main/services/lock';
import { parseLock, serializeLock } from '../../shared/lock/lockfile';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

const hasGit = requireOrSkip('git', gitAvailable());

/** SKILL.md as `gh skill install` leaves it: gh's provenance under the frontmatter's metadata. */
const ghSkillMd = (treeSha: string) =>
  [
    '---',
    'name: tool',
    'description: The tool skill, for tests.',
    'metadata:',
    '    github-path: skills/tool',
    '    github-pinned: v1.0.0',
    '    github-ref: refs/tags/v1.0.0',
    '    github-repo: https://github.com/example/skills',
    `    github-tree-sha: ${treeSha}`,
    '---',
    '# tool',
    '',
    'Helps with tool tasks.',
    '',
  ].join('\n');

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);

describe.skipIf(!hasGit)("gh skill's metadata.github-* keys", () => {
  it('are recorded in the lock as provenance, and stay inside the content hash', async () => {
    const pins = [];
    for (const sha of [SHA_A, SHA_B]) {
      const repo = gitRepo(skillFiles('', 'tool', { body: ghSkillMd(sha) }));
      const p = temp();
      write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
      expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
      const l = readLock(p);
      if (!l.ok) throw new Error(l.error.message);
      pins.push(l.value.entries[0]!);
      const text = readFileSync(join(p, 'kitbash.lock'), 'utf8');
      expect(text).toContain(
        `github_repo = "https://github.com/example/skills"\ngithub_ref = "refs/tags/v1.0.0"\ngithub_path = "skills/tool"\ngithub_tree_sha = "${sha}"\ngithub_pinned = "v1.0.0"\n`,
      );
    }
    expect(pins[0]!.github).toEqual({
      repo: 'https://github.com/example/skills',
      ref: 'refs/tags/v1.0.0',
      path: 'skills/tool',
      treeSha: SHA_A,
      pinned: 'v1.0.0',
    });
    // The same skill with other provenance is other bytes: an agent reads the frontmatter too.
    expect(pins[0]!.integrity).not.toBe(pins[1]!.integrity);
    // The source stays what Skillsmith fetched from; gh's keys never replace it.
    expect(pins[0]!.source).toMatch(/^file:\/\//);
  });

  it('round-trips through kitbash.lock, and a skill without them has no github keys', () => {
    const entry = {
      name: 'tool',
      version: '1.0.0',
      source: 'gh:example/skills/skills/tool',
      integrity: `sha256-${'0'.repeat(64)}`,
      github: { repo: 'https://github.com/example/skills', treeSha: SHA_A },
    };
    const { github: _, ...plain } = { ...entry, name: 'plain' };
    const text = serializeLock([entry, plain]);
    expect(text.split('[[skill]]')[1]).not.toContain('github_');
    const back = parseLock(text);
    expect(back.ok && back.value).toEqual([plain, entry]);
  });
});

/**
 * `preview <git source>` of a skill that is not installed: the install review, then each target's output; nothing
 * written.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

describe.skipIf(!requireOrSkip('git', gitAvailable()))('preview of an uninstalled git source', () => {
  it('shows the same review install shows, then the per-target output, and writes nothing', async () => {
    const repo = gitRepo(skillFiles('skills/a', 'alpha', { network: true }));
    const project = temp();
    write(project, { 'AGENTS.md': '# Agents\n' });
    const before = readdirSync(project).sort();

    const source = `${repo.url}#:skills/a`;
    const text = await cli(project, 'preview', source);
    expect(text.code, text.stderr).toBe(0);
    const install = await cli(project, 'install', source, '--json', '--dry-run');
    const review = JSON.parse(install.stdout) as { integrity: string };
    expect(review.integrity).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(text.stdout).toContain(review.integrity);
    expect(text.stdout).toContain('preview: alpha@1.0.0 (nothing is written)');
    expect(text.stdout).toContain('agentsmd');

    const json = await cli(project, 'preview', source, '--json');
    const doc = JSON.parse(json.stdout) as {
      review: { integrity: string };
      skill: string;
      targets: { target: string }[];
    };
    expect(doc.skill).toBe('alpha');
    expect(doc.review.integrity).toBe(review.integrity);
    expect(doc.targets.map((t) => t.target)).toContain('agentsmd');

    expect(readdirSync(project).sort()).toEqual(before);
    expect(existsSync(join(project, '.kitbash'))).toBe(false);
  });
});

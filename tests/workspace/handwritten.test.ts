import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemps, cli, temp, write } from './helpers';

afterAll(cleanupTemps);

describe('install beside a hand-written skill of the same name (issue 13, item 4)', () => {
  it("leaves the user's file byte for byte and says how to resolve the conflict", async () => {
    const p = temp();
    const mine = '# mine\n\nHand-written, not generated.\n';
    write(p, {
      'kitbash.toml': '[project]\ntargets = ["claude-code"]\n',
      '.claude/skills/foo/SKILL.md': mine,
      'src/foo/SKILL.md': '---\nname: foo\ndescription: A skill named foo, to meet the hand-written one.\n---\nBody.\n',
    });
    const r = await cli(p, 'install', './src/foo', '--yes');
    expect(r.code).toBe(0);
    expect(readFileSync(join(p, '.claude/skills/foo/SKILL.md'), 'utf8')).toBe(mine);
    expect(r.stdout + r.stderr).toMatch(
      /\.claude\/skills\/foo was written by hand — foo is not delivered to claude-code; adopt it \(skillsmith import --write\), rename one of them, or remove \.claude\/skills\/foo/,
    );
  });
});

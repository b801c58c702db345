/**
 * One repository, two tools: kitbash 0.24.1 accepts a project Skillsmith installed into,
 * and Skillsmith accepts one kitbash installed into (doctor on both sides), down to the
 * lock bytes and integrity values.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLock, skillIntegrity } from '../../main/services/lock';
import { kitbashEntry, requireOrSkip, runKitbash } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

const ok = requireOrSkip('kitbash (node_modules/kitbash)', existsSync(kitbashEntry));

function fixture(): string {
  const p = temp('skillsmith-diff-');
  write(p, {
    'kitbash.toml': '[project]\ntargets = ["claude-code", "agentsmd"]\n\n[policy]\ndeny_write = true\n',
    ...skillFiles('v/alpha', 'alpha'),
    'v/alpha/prompts/extra.md': 'Windows line endings.\r\nSecond line.\r\n',
    ...skillFiles('v/beta', 'beta', { tools: ['read', 'grep'] }),
    'v/beta/.git/HEAD': 'ref: refs/heads/main\n',
    'v/bare/SKILL.md': '---\nname: bare-one\ndescription: a bare skill\n---\n# bare\n\nJust instructions.\n',
  });
  return p;
}

describe.skipIf(!ok)('kitbash ⇄ Skillsmith on one project', () => {
  it('kitbash doctor accepts what Skillsmith installed, and agrees on drift', async () => {
    const p = fixture();
    for (const s of ['file:./v/alpha', 'file:./v/beta', 'file:./v/bare'])
      expect((await cli(p, 'install', s, '--yes')).code, s).toBe(0);
    const kb = runKitbash(['doctor'], { cwd: p });
    expect(kb.stderr).toBe('');
    expect(kb.code).toBe(0);
    expect(kb.stdout).toContain('installed skills: 3');
    expect(kb.stdout).toContain('lock integrity: ok');
    expect(kb.stdout).toContain('policy: ok');
    const ours = await cli(p, 'doctor');
    expect(ours.code).toBe(0);
    // Same standing-cost line on both sides.
    const line = (s: string) => s.split('\n').find((l) => l.startsWith('standing context cost:'));
    expect(line(ours.stdout)).toBe(line(kb.stdout));

    writeFileSync(join(p, '.kitbash', 'skills', 'beta', 'SKILL.md'), '# beta\n\nTampered by hand.\n');
    const kbDrift = runKitbash(['doctor'], { cwd: p });
    expect(kbDrift.code).toBe(1);
    expect(kbDrift.stderr).toContain('✗ beta: integrity drift — installed files differ from kitbash.lock');
    const ourDrift = await cli(p, 'doctor');
    expect(ourDrift.code).toBe(1);
    expect(ourDrift.stderr).toContain('✗ beta: integrity drift — installed files differ from kitbash.lock');
  });

  it('Skillsmith doctor accepts what kitbash installed; the lock bytes and hashes are identical', async () => {
    const p = fixture();
    const q = temp('skillsmith-diff-');
    write(q, { 'kitbash.toml': readFileSync(join(p, 'kitbash.toml'), 'utf8') });
    // Same sources, absolute, so both lock files carry the same text.
    for (const s of ['v/alpha', 'v/beta', 'v/bare']) {
      const kb = runKitbash(['install', `file:${join(p, s)}`, '--yes'], { cwd: q });
      expect(kb.code, kb.stderr).toBe(0);
    }
    const ours = await cli(q, 'doctor');
    expect(ours.stderr).toBe('');
    expect(ours.code).toBe(0);
    expect(ours.stdout).toContain('lock integrity: ok\npolicy: ok\n');

    const r = temp('skillsmith-diff-');
    write(r, { 'kitbash.toml': readFileSync(join(p, 'kitbash.toml'), 'utf8') });
    for (const s of ['v/alpha', 'v/beta', 'v/bare'])
      expect((await cli(r, 'install', `file:${join(p, s)}`, '--yes', '--no-compile')).code).toBe(0);
    const kbLock = readLock(q);
    const ourLock = readLock(r);
    if (!kbLock.ok || !ourLock.ok) throw new Error('lock');
    // Same four reference keys for every pin; ours adds only keys kitbash ignores.
    expect(
      ourLock.value.entries.map(({ name, version, source, integrity }) => ({ name, version, source, integrity })),
    ).toEqual(kbLock.value.entries);
    for (const e of kbLock.value.entries)
      expect(skillIntegrity(join(r, '.kitbash', 'skills', e.name))).toEqual({ ok: true, value: e.integrity });
    // kitbash's copy keeps no nested .git either.
    expect(existsSync(join(q, '.kitbash', 'skills', 'beta', '.git'))).toBe(false);
  });

  it('kitbash compile output is what Skillsmith doctor expects (no compiled-output drift) when no tools are lowered', async () => {
    // Skillsmith's compile also lowers declared tools into Claude's allowed-tools; kitbash
    // does not, so a skill declaring tools would (rightly) show as drift on that one file.
    const p = temp('skillsmith-diff-');
    write(p, {
      'kitbash.toml': '[project]\ntargets = ["claude-code", "agentsmd"]\n',
      ...skillFiles('v/plain', 'plain', { tools: [] }),
      ...skillFiles('v/other', 'other', { tools: [] }),
    });
    for (const s of ['file:./v/plain', 'file:./v/other'])
      expect(runKitbash(['install', s, '--yes'], { cwd: p }).code).toBe(0);
    expect(runKitbash(['compile'], { cwd: p }).code).toBe(0);
    const ours = await cli(p, 'doctor');
    expect(ours.stderr).toBe('');
    expect(ours.stdout).toContain('lock integrity: ok\ncompiled output: in sync\n');
    writeFileSync(join(p, 'AGENTS.md'), `${readFileSync(join(p, 'AGENTS.md'), 'utf8').replace('plain', 'PLAIN')}`);
    const drift = await cli(p, 'doctor');
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('✗ compiled output drift: AGENTS.md — differs from what compile writes');
  });

  it('diff of two folders prints what kitbash prints (exit code, manifest delta, file list, hunks)', async () => {
    const p = temp('skillsmith-diff-');
    const body = (lines: string[]) => `${lines.join('\n')}\n`;
    const base = [
      '# dd',
      '',
      'Step one: read.',
      'Step two: report.',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
    ];
    write(p, {
      ...skillFiles('a', 'dd', { version: '0.1.0', tools: [] }),
      ...skillFiles('b', 'dd', {
        version: '0.2.0',
        network: true,
        budget: 2500,
        tools: ['read', 'grep'],
        description: 'Changed description.',
      }),
      'a/SKILL.md': body(base),
      'b/SKILL.md': body([...base.slice(0, 3), 'Step two: fetch remote data.', ...base.slice(4, 11), 'TEN', 'eleven']),
      'a/REFERENCE.md': 'Old reference line.\n',
      'b/NEW.md': 'brand new\n',
      'a/crlf.md': 'same\r\ntext\r\n',
      'b/crlf.md': 'same\ntext\n',
      'a/eol.md': 'no final newline',
      'b/eol.md': 'no final newline\n',
      'a/x.bin': new Uint8Array([0, 1, 2]),
      'b/x.bin': new Uint8Array([0, 1, 3]),
      'a/link': { symlink: 'SKILL.md' },
      'b/link': { symlink: 'NEW.md' },
    });
    const kb = runKitbash(['diff', './a', './b'], { cwd: p });
    const ours = await cli(p, 'diff', './a', './b');
    expect(ours.code).toBe(kb.code);
    expect(kb.code).toBe(1);
    expect(ours.stdout).toBe(kb.stdout);
    const same = await cli(p, 'diff', './a', './a');
    expect(same).toMatchObject({ code: 0, stdout: runKitbash(['diff', './a', './a'], { cwd: p }).stdout });
  });

  it('diff reports MCP changes as kitbash does (new server, new program, wider tools, new env key, removal)', async () => {
    const p = temp('skillsmith-diff-');
    const a =
      '[mcp.servers.fs]\ntransport = "stdio"\ncommand = "npx"\nargs = ["-y", "fs-server@1.0.0"]\ntools = ["read"]\n\n[mcp.servers.old]\ntransport = "stdio"\ncommand = "old-server"\ntools = ["x"]\n';
    const b =
      '[mcp.servers.fs]\ntransport = "stdio"\ncommand = "npx"\nargs = ["-y", "fs-server@2.0.0"]\ntools = ["read", "write"]\n\n[mcp.servers.fs.env]\nTOKEN = "${FS_TOKEN}"\n\n[mcp.servers.web]\ntransport = "streamable-http"\nurl = "https://mcp.example.com/x"\ntools = ["search"]\n';
    write(p, { ...skillFiles('a', 'mm', { extra: a }), ...skillFiles('b', 'mm', { extra: b }) });
    const kb = runKitbash(['diff', './a', './b'], { cwd: p });
    const ours = await cli(p, 'diff', './a', './b');
    expect(kb.stdout).toContain('mcp.servers.web: (absent) → streamable-http https://mcp.example.com/x  ⚠ escalation');
    expect(ours.code).toBe(kb.code);
    expect(ours.stdout).toBe(kb.stdout);
  });

  it('import dry run prints what kitbash prints (drift report, proposed manifest), bar the tool name', async () => {
    const p = temp('skillsmith-diff-');
    // An always-applied rule is an instruction file; an agent-requested one is a skill (D65, below).
    write(p, {
      'CLAUDE.md': '# Rules\n\nUse tabs.\n',
      'AGENTS.md': '# Rules\n\nUse   tabs.\n',
      '.cursor/rules/style.mdc': '---\ndescription: x\nalwaysApply: true\n---\n# Rules\n\nUse spaces.\n',
      '.github/instructions/a.instructions.md': 'Use tabs.\n',
    });
    const kb = runKitbash(['import'], { cwd: p });
    const ours = await cli(p, 'import');
    expect(ours.code).toBe(kb.code);
    expect(ours.stdout).toBe(kb.stdout.replaceAll('kitbash compile', 'skillsmith compile'));
  });

  it('SPEC D65: an agent-requested Cursor rule is adopted as a skill of its own, where kitbash merges it into the imported instructions', async () => {
    const p = temp('skillsmith-diff-');
    write(p, {
      'CLAUDE.md': '# Rules\n\nUse tabs.\n',
      '.cursor/rules/react-style.mdc':
        '---\ndescription: Use when writing React components\n---\n# Style\n\nUse function components.\n',
    });
    const kb = runKitbash(['import'], { cwd: p });
    const ours = await cli(p, 'import');
    expect(kb.stdout).toContain('found 2 agent config files:');
    expect(kb.stdout).toContain('  .cursor/rules/react-style.mdc  → cursor');
    expect(ours.code).toBe(0);
    expect(ours.stdout).toContain('found 1 agent config file:\n  CLAUDE.md  → claude-code');
    expect(ours.stdout).toContain(
      '  → adopt react-style into .kitbash/skills/react-style/ (from .cursor/rules/react-style.mdc)',
    );
  });

  it.skipIf(!requireOrSkip('git', gitAvailable()))(
    'kitbash doctor accepts a Skillsmith install with a dependency closure (additive lock keys)',
    async () => {
      const repo = gitRepo({ ...skillFiles('s/top', 'top', { deps: { lib: '^1' } }), ...skillFiles('s/lib', 'lib') });
      const p = temp('skillsmith-diff-');
      write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
      expect((await cli(p, 'install', `${repo.url}#:s/top`, '--yes')).code).toBe(0);
      expect(readFileSync(join(p, 'kitbash.lock'), 'utf8')).toContain('direct = false');
      const kb = runKitbash(['doctor'], { cwd: p });
      expect(kb.code).toBe(0);
      expect(kb.stdout).toContain('installed skills: 2');
      expect(kb.stdout).toContain('lock integrity: ok');

      // kitbash rewrites the lock without the additive keys; Skillsmith still knows the graph from the manifests.
      write(p, skillFiles('v/extra', 'extra'));
      expect(runKitbash(['install', 'file:./v/extra', '--yes'], { cwd: p }).code).toBe(0);
      expect(readFileSync(join(p, 'kitbash.lock'), 'utf8')).not.toContain('direct = false');
      expect((await cli(p, 'doctor')).code).toBe(0);
      const refused = await cli(p, 'remove', 'lib');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe('cannot remove lib: top depends on it — remove that first.\n');
    },
  );
});

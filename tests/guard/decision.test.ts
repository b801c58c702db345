/**
 * The script guard's decision (shared/sandbox/guard.ts, SPEC D200): which shell commands an
 * agent sends are runs of a delivered skill's script (routed through `skillsmith run`), which
 * touch a delivered skill's folder some other way (refused), and which are none of its
 * business (passed untouched).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findsAnyCase } from '../../main/cli/commands/agent-hook';
import { guardCommand, simpleWords } from '../../shared/sandbox/guard';

const root = '/home/u/proj';
const ask = (command: string, cwd = root, guarded = ['audit', 'notes']) =>
  guardCommand({ command, cwd, root, skillDir: '.claude/skills', guarded: new Set(guarded) });

describe('the script guard decision', () => {
  it('routes a run of a delivered script by path, with or without an interpreter', () => {
    for (const cmd of [
      'sh .claude/skills/audit/scripts/check.sh --deep x',
      './.claude/skills/audit/scripts/check.sh --deep x',
      `${root}/.claude/skills/audit/scripts/check.sh --deep x`,
      'bash ".claude/skills/audit/scripts/check.sh" --deep x',
      "python3 .claude/skills/audit/scripts/../scripts/check.sh '--deep' x",
    ])
      expect(ask(cmd), cmd).toEqual({
        kind: 'route',
        skill: 'audit',
        script: 'scripts/check.sh',
        args: ['--deep', 'x'],
      });
    // From inside the skill's folder, a relative path counts the same.
    expect(ask('./scripts/check.sh', `${root}/.claude/skills/audit`)).toEqual({
      kind: 'route',
      skill: 'audit',
      script: 'scripts/check.sh',
      args: [],
    });
  });

  it('passes what names no delivered skill, and reading a skill file', () => {
    for (const cmd of [
      'npm test',
      'git status && ls docs/notes',
      'cat .claude/skills/audit/SKILL.md',
      'grep -n TODO .claude/skills/audit/reference.md',
      'sh .claude/skills/hand-made/scripts/x.sh',
      'echo "$HOME" | wc -c',
    ])
      expect(ask(cmd), cmd).toEqual({ kind: 'pass' });
  });

  it('refuses any other touch of a delivered skill folder, naming the way to run it', () => {
    for (const cmd of [
      'cat .claude/skills/audit/scripts/check.sh | sh',
      'bash -c "$(cat .claude/skills/audit/scripts/check.sh)"',
      'source .claude/skills/audit/scripts/check.sh',
      'cp .claude/skills/audit/scripts/check.sh /tmp/x.sh',
      'sh .claude/skills/audit/tools/other.sh',
      'sh .claude/skills/audit/scripts/check.sh > out.txt',
      'FOO=1 sh .claude/skills/audit/scripts/check.sh',
      'python3 -u .claude/skills/audit/scripts/check.py',
      'sh .claude/skills/audit/scripts/a.sh .claude/skills/notes/scripts/b.sh',
      `cd ${root}/.claude/skills/notes; ./scripts/x.sh`,
    ]) {
      const d = ask(cmd);
      expect(d.kind, cmd).toBe('deny');
      expect(d.kind === 'deny' && d.reason).toMatch(/skillsmith run (audit|notes) scripts\/<file>/);
    }
    // A program named by path is not the reader or interpreter its name suggests.
    expect(ask('./cat .claude/skills/audit/scripts/check.sh').kind).toBe('deny');
    expect(ask('/tmp/python3 .claude/skills/audit/scripts/check.sh').kind).toBe('deny');
    // Working inside a delivered folder: anything that is not a reader or a script run.
    expect(ask('rm -rf scripts', `${root}/.claude/skills/audit`).kind).toBe('deny');
    expect(ask('ls', `${root}/.claude/skills/audit`).kind).toBe('pass');
  });

  it('matches any spelling of the folder where the file system ignores case', () => {
    const folded = (command: string, cwd = root) =>
      guardCommand({
        command,
        cwd,
        root,
        skillDir: '.claude/skills',
        guarded: new Set(['audit']),
        caseFold: true,
      });
    // The script's own spelling is kept, so the run names the file the agent named.
    expect(folded('sh .CLAUDE/Skills/AUDIT/scripts/Check.sh -x')).toEqual({
      kind: 'route',
      skill: 'audit',
      script: 'scripts/Check.sh',
      args: ['-x'],
    });
    for (const cmd of [
      'cat .Claude/skills/Audit/scripts/check.sh | sh',
      'sh .claude/SKILLS/audit/Scripts/check.sh',
      'cp .CLAUDE/SKILLS/AUDIT/scripts/check.sh /tmp/x.sh',
    ])
      expect(folded(cmd).kind, cmd).toBe('deny');
    expect(folded('rm -rf scripts', `${root}/.Claude/Skills/Audit`).kind).toBe('deny');
    // Where case tells names apart, another spelling is another folder, none of the guard's business.
    expect(ask('sh .CLAUDE/Skills/AUDIT/scripts/check.sh').kind).toBe('pass');
  });

  it('asks the disk whether a folder is found under another case', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillsmith-case-'));
    try {
      mkdirSync(join(dir, 'skills'));
      expect(findsAnyCase(join(dir, 'skills'))).toBe(false);
      // The same folder under its upper-cased name, as a case-insensitive volume resolves it.
      symlinkSync(join(dir, 'skills'), join(dir, 'SKILLS'));
      expect(findsAnyCase(join(dir, 'skills'))).toBe(true);
      rmSync(join(dir, 'SKILLS'));
      mkdirSync(join(dir, 'SKILLS'));
      expect(findsAnyCase(join(dir, 'skills'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads only literal words as a plain command', () => {
    expect(simpleWords(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(['a', 'b c', 'd "e"', 'f g']);
    for (const s of ['a | b', 'a; b', 'a && b', 'a > f', 'a $(b)', 'a `b`', '"$x"', 'a *', 'X=1 a', "a 'b", 'a ~/x'])
      expect(simpleWords(s), s).toBeUndefined();
    expect(simpleWords('a --opt=1')).toEqual(['a', '--opt=1']);
  });
});

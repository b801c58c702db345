/**
 * The script guard's decision (shared/sandbox/guard.ts, SPEC D200): which shell commands an
 * agent sends are runs of a delivered skill's script (routed through `skillsmith run`), which
 * touch a delivered skill's folder some other way (refused), and which are none of its
 * business (passed untouched).
 */
import { describe, expect, it } from 'vitest';
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

  it('reads only literal words as a plain command', () => {
    expect(simpleWords(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(['a', 'b c', 'd "e"', 'f g']);
    for (const s of ['a | b', 'a; b', 'a && b', 'a > f', 'a $(b)', 'a `b`', '"$x"', 'a *', 'X=1 a', "a 'b", 'a ~/x'])
      expect(simpleWords(s), s).toBeUndefined();
    expect(simpleWords('a --opt=1')).toEqual(['a', '--opt=1']);
  });
});

/** Evals: reading transcripts in each preset format, and the eval runners (SPEC.md "Evals"). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';
import { commandFor, findRunner, PRESETS, readRunners } from '../../shared/evals/runners';
import { readTranscript } from '../../shared/evals/transcript';

const standIn = join(repoRoot, 'examples', 'workspace', 'tools', 'stand-in-agent.mjs');
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The stand-in agent's real output in one format, with or without a compiled skill present. */
function standInOutput(format: string, task: string, skillDir?: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'skillsmith-transcript-'));
  made.push(ws);
  if (skillDir) {
    mkdirSync(join(ws, skillDir, 'prereview'), { recursive: true });
    writeFileSync(
      join(ws, skillDir, 'prereview', 'SKILL.md'),
      '---\nname: prereview\ndescription: "Check the pending diff before pushing"\n---\n# Prereview\n',
    );
  }
  return execFileSync(process.execPath, [standIn, '--format', format, task], { cwd: ws, encoding: 'utf8' });
}

describe('transcripts, in each preset format', () => {
  it.each([
    ['claude-code', '.claude/skills'],
    ['codex', '.agents/skills'],
    ['gemini', '.gemini/skills'],
  ] as const)('%s: loaded with evidence, not loaded when the stream completed without it', (format, dir) => {
    const loaded = readTranscript(format, standInOutput(format, 'review the pending change', dir), 'prereview');
    expect(loaded.skillLoaded).toBe('yes');
    expect(loaded.output).toBe('Review complete: 0 blocking findings.');
    expect(loaded.tools.length).toBeGreaterThan(0);
    const quiet = readTranscript(format, standInOutput(format, 'write a haiku', dir), 'prereview');
    expect(quiet.skillLoaded).toBe('no');
    expect(quiet.output).toBe('Looks fine to me.');
    // A different skill's evidence is not this skill's.
    expect(
      readTranscript(format, standInOutput(format, 'review the pending change', dir), 'other-skill').skillLoaded,
    ).toBe('no');
  });

  it.each(['claude-code', 'codex', 'gemini'] as const)(
    '%s: a stream cut off before its final event is unknown, not "not loaded"',
    (format) => {
      const full = standInOutput(format, 'write a haiku', '.claude/skills').trim().split('\n');
      expect(readTranscript(format, full.slice(0, -1).join('\n'), 'prereview').skillLoaded).toBe('unknown');
    },
  );

  it('reports output that is not the expected event stream as a problem', () => {
    const t = readTranscript('claude-code', 'hello\nworld\n', 'prereview');
    expect(t.skillLoaded).toBe('unknown');
    expect(t.problem).toBe('stdout is not a claude-code JSON event stream (2 unreadable lines)');
    expect(readTranscript('codex', '', 'x').problem).toBe('no codex events on stdout (empty output)');
  });

  it('never claims to know from plain text', () => {
    const t = readTranscript('text', 'I used the prereview skill\n', 'prereview');
    expect(t.skillLoaded).toBe('unknown');
    expect(t.output).toBe('I used the prereview skill\n');
  });

  it('recognises a direct read of SKILL.md as loading (Claude Code Read tool), once it succeeded', () => {
    const read = (path: string): string =>
      JSON.stringify({
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: path } }] },
      });
    const answer = (isError: boolean): string =>
      JSON.stringify({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 'r1', content: 'x', is_error: isError }] },
      });
    const line = read('/w/.claude/skills/prereview/SKILL.md');
    // Evidence counts even in a stream cut short; only "not loaded" needs the final event.
    expect(readTranscript('claude-code', `${line}\n${answer(false)}\n`, 'prereview').skillLoaded).toBe('yes');
    // A read that failed, or whose answer never came, loaded nothing.
    expect(readTranscript('claude-code', `${line}\n${answer(true)}\n`, 'prereview').skillLoaded).toBe('unknown');
    expect(readTranscript('claude-code', `${line}\n`, 'prereview').skillLoaded).toBe('unknown');
    const other = read('/w/.claude/skills/prereview/prompts/x.md');
    expect(
      readTranscript('claude-code', `${other}\n${answer(false)}\n{"type":"result","result":"x"}\n`, 'prereview')
        .skillLoaded,
    ).toBe('no');
  });
});

describe('runners', () => {
  it('has Claude Code, Codex and Gemini presets, each with its doc and the date checked', () => {
    expect(PRESETS.map((p) => p.id)).toEqual(['claude-code', 'codex', 'gemini']);
    for (const p of PRESETS) {
      expect(p.doc).toMatch(/^https:\/\//);
      expect(p.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.command.some((c) => c.includes('{task}'))).toBe(true);
    }
    expect(commandFor(PRESETS[0]!, 'do "it"; rm -rf /')).toEqual([
      'claude',
      '-p',
      'do "it"; rm -rf /',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Skill,Bash,Read,Write,Edit,Glob,Grep',
    ]);
    expect(commandFor(PRESETS[1]!, 't')).toEqual(['codex', 'exec', '--json', '--sandbox', 'danger-full-access', 't']);
  });

  it('reads [evals.runners.<id>], with presets overridden field by field', () => {
    const r = readRunners({
      evals: {
        runners: {
          mine: {
            command: ['./agent', '{task}'],
            target: 'claude-code',
            timeout: 5,
            env: ['KEY'],
            read: ['/opt/x'],
            transcript: 'codex',
          },
          cc: { preset: 'claude-code', timeout: 30 },
        },
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value[0]).toEqual({
      id: 'mine',
      command: ['./agent', '{task}'],
      target: 'claude-code',
      timeoutMs: 5000,
      network: false,
      env: ['KEY'],
      read: ['/opt/x'],
      home: [],
      transcript: 'codex',
    });
    expect(r.value[1]).toMatchObject({
      id: 'cc',
      preset: 'claude-code',
      timeoutMs: 30000,
      transcript: 'claude-code',
      network: true,
    });
    expect(findRunner(r.value, 'codex')?.preset).toBe('codex');
    expect(findRunner(r.value, 'nope')).toBeUndefined();
  });

  it.each([
    [{ x: { target: 'claude-code' } }, 'kitbash.toml: evals.runners.x.command: must be a non-empty list of strings'],
    [
      { x: { command: ['a'], target: 'claude-code' } },
      'kitbash.toml: evals.runners.x.command: no element holds {task}',
    ],
    [
      { x: { command: ['a', '{task}'], target: 'vim' } },
      'kitbash.toml: evals.runners.x.target: must be a compile target id (got "vim")',
    ],
    [
      { x: { command: ['a', '{task}'], target: 'claude-code', timeout: 0 } },
      'kitbash.toml: evals.runners.x.timeout: seconds',
    ],
    [
      { x: { command: ['a', '{task}'], target: 'claude-code', transcript: 'xml' } },
      'kitbash.toml: evals.runners.x.transcript: must be one of claude-code, codex, gemini, text',
    ],
    [
      { x: { command: ['a', '{task}'], target: 'claude-code', env: ['A B'] } },
      'kitbash.toml: evals.runners.x.env: must be a list of variable names',
    ],
    [{ x: { preset: 'cursor' } }, 'kitbash.toml: evals.runners.x.preset: unknown preset "cursor"'],
    [
      { x: { command: ['a', '{task}'], target: 'claude-code', colour: 'red' } },
      'kitbash.toml: evals.runners.x.colour: unknown field',
    ],
    [{ X: {} }, 'kitbash.toml: evals.runners.X: runner ids are lower-case'],
  ])('refuses a bad runner table in one line: %j', (runners, message) => {
    const r = readRunners({ evals: { runners } });
    expect(r.ok ? '' : r.error.message.startsWith(message)).toBe(true);
  });
});

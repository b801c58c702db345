/**
 * Main's messages name command-line flags; the app words them without (issue 17 item 7):
 * renderer/src/gui-wording over the texts main really produces for a run's restrictions,
 * and over its refusal, override and runner messages.
 */
import { describe, expect, it } from 'vitest';
import { guiWording } from '../../renderer/src/gui-wording';
import { DEFAULT_LIMITS, describeRestriction } from '../../main/services/sandbox/policy';
import { RESTRICTIONS } from '../../main/services/sandbox/types';

const FLAG = /(^|[\s(;])--[a-z]/;

const policy = (network: boolean) => ({
  network,
  write: true,
  tools: ['Bash(git:*)'],
  timeoutMs: 120_000,
  maxOutputBytes: 1024 * 1024,
  extraWritable: [],
  env: {},
  limits: DEFAULT_LIMITS,
});

describe('guiWording', () => {
  it('leaves no flag in any restriction main describes, and keeps every limit’s number', () => {
    for (const network of [false, true]) {
      const p = policy(network);
      for (const id of RESTRICTIONS) {
        const main = describeRestriction(id, p);
        const shown = guiWording(main);
        expect(shown, id).not.toMatch(FLAG);
        // Only the flag goes: the sentence is otherwise main's.
        expect(main.replace(/ \(--max-[a-z-]+\)/, ''), id).toBe(shown);
      }
    }
    expect(guiWording(describeRestriction('limit-processes', policy(false)))).toBe('at most 256 processes at once');
  });

  it('words the override as the app offers it, and drops the flag from a hit limit', () => {
    expect(
      guiWording(
        'refusing to run hello: network, filesystem cannot be enforced here — bwrap cannot create a namespace. Pass --unconfined to run it once without the sandbox (shown before it runs, never remembered)',
      ),
    ).toBe('refusing to run hello: network, filesystem cannot be enforced here — bwrap cannot create a namespace');
    expect(guiWording('none (--unconfined)')).toBe('none (run once without the sandbox)');
    expect(guiWording('--unconfined is only for a machine that cannot enforce the sandbox; bubblewrap holds it')).toBe(
      'Running once without the sandbox is only for a machine that cannot enforce the sandbox; bubblewrap holds it',
    );
    expect(guiWording('the run hit its process limit (32; --max-processes)')).toBe(
      'the run hit its process limit (32)',
    );
    expect(
      guiWording('the run aborted (SIGABRT), most likely at its memory limit (2 GiB per process; --max-memory)'),
    ).toBe('the run aborted (SIGABRT), most likely at its memory limit (2 GiB per process)');
  });

  it('points to the Runner list instead of --runner', () => {
    expect(
      guiWording(
        'no runner for evals/a.eval.yaml: configure [evals.runners.<id>] in kitbash.toml or pass --runner (claude-code, gemini)',
      ),
    ).toBe(
      'no runner for evals/a.eval.yaml: configure [evals.runners.<id>] in kitbash.toml or pick a runner in the Runner list (claude-code, gemini)',
    );
    expect(guiWording('--runner nope: no such runner (configured: none; presets: gemini)')).toBe(
      'Runner nope: no such runner (configured: none; presets: gemini)',
    );
    expect(guiWording('plain text -- with a dash pair')).toBe('plain text -- with a dash pair');
  });

  it('words a runner refusal as the app asks for approval itself', () => {
    const line =
      'runner agent: not approved yet — it asks for no network, env none, reads none; approve it with: skillsmith eval --approve-runner agent';
    expect(guiWording(line)).toBe(
      'runner agent: not approved yet — it asks for no network, env none, reads none; start the run again to review and approve it',
    );
    expect(guiWording('--approve-runner ghost: no such runner (configured: agent; presets: gemini)')).toBe(
      'Runner ghost: no such runner (configured: agent; presets: gemini)',
    );
  });
});

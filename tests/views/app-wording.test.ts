/**
 * Main words its messages for the surface that shows them (SPEC D272): the command line
 * names its flags and commands, the app what it offers instead. The app's texts here are
 * the ones the app showed before main worded them itself.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, describeRestriction, restrictionRows } from '../../main/services/sandbox/policy';
import { RESTRICTIONS } from '../../main/services/sandbox/types';
import { notApprovedMessage, type PendingApproval } from '../../shared/evals/consent';

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

describe('restrictions', () => {
  it('name no flag in the app, and otherwise say what the command line says', () => {
    for (const network of [false, true]) {
      const p = policy(network);
      for (const id of RESTRICTIONS) {
        const cli = describeRestriction(id, p, 'cli');
        const app = describeRestriction(id, p, 'app');
        expect(app, id).not.toMatch(FLAG);
        expect(cli.replace(/ \(--max-[a-z-]+\)/, ''), id).toBe(app);
      }
    }
    expect(describeRestriction('limit-processes', policy(false), 'app')).toBe('at most 256 processes at once');
    expect(describeRestriction('limit-processes', policy(false))).toBe(
      'at most 256 processes at once (--max-processes)',
    );
  });

  it('are worded for the surface in every row', () => {
    const backend = { backend: 'none' as const, works: false };
    for (const row of restrictionRows(backend, policy(false), false, 'app')) expect(row.what).not.toMatch(FLAG);
    expect(restrictionRows(backend, policy(false), false, 'cli').some((r) => FLAG.test(r.what))).toBe(true);
  });
});

describe('an unapproved runner', () => {
  const pending: PendingApproval = {
    grant: {
      id: 'agent',
      command: ['agent'],
      target: 'any',
      network: false,
      env: [],
      read: [],
      transcript: 'text',
      timeoutMs: 1000,
    },
    changes: [],
  };

  it('is approved by a command on the command line and by starting the run again in the app', () => {
    expect(notApprovedMessage(pending)).toBe(
      'runner agent: not approved yet — it asks for no network, env none, reads none; approve it with: skillsmith eval --approve-runner agent',
    );
    expect(notApprovedMessage(pending, 'app')).toBe(
      'runner agent: not approved yet — it asks for no network, env none, reads none; start the run again to review and approve it',
    );
  });
});

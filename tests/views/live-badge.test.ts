/** The header claims "Live" only when main says every folder of the project is watched. */
import { describe, expect, it } from 'vitest';
import { liveBadge } from '../../renderer/src/components/LiveBadge';

const reason = ".kitbash/skills/a: not watched — the system's limit on file watches is reached";

describe('the live badge', () => {
  it('says Live only for a connected window whose every folder is watched', () => {
    expect(liveBadge('open', { state: 'live', watched: 7, unwatched: 0, reason: null }, false)).toEqual({
      tone: 'on',
      label: 'Live',
      title: 'watching all 7 folders of the project for changes',
    });
    expect(liveBadge('closed', { state: 'live', watched: 7, unwatched: 0, reason: null }, false).label).toBe('Offline');
    expect(liveBadge('open', undefined, false).label).toBe('Starting');
    expect(liveBadge('open', undefined, true)).toMatchObject({ tone: 'warn', label: 'Not live' });
  });

  it('says Connecting, not Offline, before the event stream has answered at all', () => {
    for (const status of [undefined, { state: 'live', watched: 7, unwatched: 0, reason: null } as const])
      expect(liveBadge('connecting', status, false)).toEqual({
        tone: 'off',
        label: 'Connecting',
        title: 'connecting to Skillsmith — changes on disk show live once connected',
      });
  });

  it('says how many folders are missed, and why, when some or all are', () => {
    expect(liveBadge('open', { state: 'partial', watched: 3, unwatched: 12, reason }, false)).toEqual({
      tone: 'warn',
      label: 'Partly live',
      title: `12 of 15 folders are not watched: changes there show only after Rescan. ${reason}`,
    });
    expect(liveBadge('open', { state: 'off', watched: 0, unwatched: 4, reason }, false)).toMatchObject({
      tone: 'warn',
      label: 'Not live',
    });
  });
});

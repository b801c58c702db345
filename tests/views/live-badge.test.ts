/** The header claims "Live" only when main says every folder of the project is watched. */
import { describe, expect, it } from 'vitest';
import { liveBadge } from '../../renderer/src/components/LiveBadge';

const reason = ".kitbash/skills/a: not watched — the system's limit on file watches is reached";

describe('the live badge', () => {
  it('says Live only for a connected window whose every folder is watched', () => {
    expect(liveBadge(true, { state: 'live', watched: 7, unwatched: 0, reason: null }, false)).toEqual({
      tone: 'on',
      label: 'Live',
      title: 'watching all 7 folders of the project for changes',
    });
    expect(liveBadge(false, { state: 'live', watched: 7, unwatched: 0, reason: null }, false).label).toBe('Offline');
    expect(liveBadge(true, undefined, false).label).toBe('Starting');
    expect(liveBadge(true, undefined, true)).toMatchObject({ tone: 'warn', label: 'Not live' });
  });

  it('says how many folders are missed, and why, when some or all are', () => {
    expect(liveBadge(true, { state: 'partial', watched: 3, unwatched: 12, reason }, false)).toEqual({
      tone: 'warn',
      label: 'Partly live',
      title: `12 of 15 folders are not watched: changes there show only after Rescan. ${reason}`,
    });
    expect(liveBadge(true, { state: 'off', watched: 0, unwatched: 4, reason }, false)).toMatchObject({
      tone: 'warn',
      label: 'Not live',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { RunRegistry } from '../../main/services/runs/registry';

describe('the run registry (one per renderer session)', () => {
  const grant = { key: 'k', shown: 's' };

  it('an override token is good for one attempt, and not after it expired', () => {
    let clock = 0;
    const r = new RunRegistry(1000, () => clock);
    const once = r.issueOverride(grant);
    expect(r.consumeOverride(once)).toMatchObject(grant);
    expect(r.consumeOverride(once)).toBeUndefined();
    const late = r.issueOverride(grant);
    clock = 1000;
    expect(r.consumeOverride(late)).toBeUndefined();
  });

  it('cancels only runs it tracks, and clear cancels every run and forgets every token', () => {
    const r = new RunRegistry();
    const a = r.track('a');
    const b = r.track('b');
    expect(r.cancel('other')).toBe(false);
    expect(r.cancel('a')).toBe(true);
    expect(a.aborted).toBe(true);
    r.finished('a');
    expect(r.cancel('a')).toBe(false);
    const token = r.issueOverride(grant);
    r.clear();
    expect(b.aborted).toBe(true);
    expect(r.cancel('b')).toBe(false);
    expect(r.consumeOverride(token)).toBeUndefined();
  });
});

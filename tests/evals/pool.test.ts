/**
 * The trial scheduler (`mapBounded`): never more than N in flight, answers in item order
 * whatever order they finish in, and an abort starts nothing more. Concurrency is shown by
 * items that wait for each other, never by timing.
 */
import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../shared/evals/pool';

/** A promise settled from outside. */
function gate<T = void>(): { promise: Promise<T>; open: (v: T) => void } {
  let open!: (v: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

describe('mapBounded', () => {
  it('runs up to the limit at once and returns answers in item order', async () => {
    const gates = [gate(), gate(), gate(), gate(), gate()];
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const p = mapBounded([0, 1, 2, 3, 4], 2, async (x) => {
      started.push(x);
      running++;
      peak = Math.max(peak, running);
      await gates[x]!.promise;
      running--;
      return x * 10;
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    // Finish out of order: the second item first, then the rest backwards.
    gates[1]!.open();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const i of [4, 3, 2, 0]) gates[i]!.open();
    expect(await p).toEqual([0, 10, 20, 30, 40]);
    expect(peak).toBe(2);
  });

  it('with a limit of 1 is a serial loop', async () => {
    const order: string[] = [];
    await mapBounded(['a', 'b', 'c'], 1, async (x) => {
      order.push(`start ${x}`);
      await new Promise((r) => setImmediate(r));
      order.push(`end ${x}`);
    });
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('an abort starts no more items; the started ones finish and are answered, in order', async () => {
    const c = new AbortController();
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const p = mapBounded(
      [0, 1, 2, 3],
      2,
      async (x) => {
        started.push(x);
        await gates[x]!.promise;
        return x;
      },
      { signal: c.signal },
    );
    await Promise.resolve();
    c.abort();
    gates[1]!.open();
    gates[0]!.open();
    expect(await p).toEqual([0, 1]);
    expect(started).toEqual([0, 1]);
  });

  it('a failure starts nothing more and rejects once the running items settle', async () => {
    const g = gate();
    let settled = false;
    const started: number[] = [];
    const p = mapBounded([0, 1, 2, 3], 2, async (x) => {
      started.push(x);
      if (x === 0) throw new Error('boom');
      await g.promise;
      settled = true;
    });
    const seen = p.catch((e: unknown) => ({ e, settled }));
    await new Promise((r) => setImmediate(r));
    g.open();
    expect(await seen).toEqual({ e: new Error('boom'), settled: true });
    expect(started).toEqual([0, 1]);
  });

  it('an empty list answers at once; a bad limit is refused', async () => {
    expect(await mapBounded([], 4, () => Promise.resolve(1))).toEqual([]);
    await expect(mapBounded([1], 0, () => Promise.resolve(1))).rejects.toThrow(/whole number ≥ 1/);
  });
});

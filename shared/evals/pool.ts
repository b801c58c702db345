/**
 * Bounded concurrency for eval trials: `fn` runs on at most `limit` items at a time, the
 * items start in their order, and the answers come back in that order whatever order they
 * finish in — so a parallel run reports exactly what a serial one would.
 */
export interface PoolOptions {
  /** Once aborted no further item starts; the ones running finish (their own signal stops them). */
  readonly signal?: { readonly aborted: boolean };
}

/**
 * The answers of the items that started, in item order. Items start in order, so after an
 * abort the answers are a prefix of the items. A rejection of `fn` starts nothing more and
 * rejects once the items in flight have settled (no trial is left running unobserved).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  opts: PoolOptions = {},
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be a whole number ≥ 1 (got ${limit})`);
  const answers: R[] = [];
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure && !opts.signal?.aborted) {
      const i = next++;
      try {
        answers[i] = await fn(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return answers.slice(0, next);
}

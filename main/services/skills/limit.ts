/** Folders read at once: keeps the thread pool busy without running a large project out of descriptors. */
export const READ_LANES = 16;

/**
 * `fn` over every item with at most `limit` calls in flight, results in input order: enough
 * to keep the disk and the thread pool busy, never so many that a large project runs out
 * of file descriptors.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

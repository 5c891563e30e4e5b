/**
 * `Promise.all(items.map(fn))` with at most `concurrency` calls in flight. A LanceDB scan holds its
 * batches in memory, so an unbounded batch of flat vector searches over a large table can take
 * gigabytes (64 concurrent exact scans of 117k × 256 floats did).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, worker));
  return results;
}

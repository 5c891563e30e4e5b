/** FNV-1a, 32 bits, seeded: a stable hash for order-independent sampling. */
export function stableHash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The `count` ids with the smallest seeded hashes (bottom-k): the same ids for the same set and seed
 * whatever order they come in, so a store can sample without sorting or holding more than `count`.
 * Returned in hash order.
 */
export function stableSample(ids: Iterable<string>, count: number, seed: number): string[] {
  if (count <= 0) return [];
  const kept: { h: number; id: string }[] = [];
  for (const id of ids) {
    const h = stableHash(id, seed);
    if (kept.length >= count && h >= kept[kept.length - 1]!.h) continue;
    let i = kept.length;
    while (i > 0 && (kept[i - 1]!.h > h || (kept[i - 1]!.h === h && kept[i - 1]!.id > id))) i--;
    kept.splice(i, 0, { h, id });
    if (kept.length > count) kept.pop();
  }
  return kept.map((k) => k.id);
}

/** Joins names as English prose: `A`, `A and B`, `A, B and C` (or `or` with `conjunction`). */
export function englishList(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

import type { SkbQuery } from '@weft/spec';

const splits = ['train', 'val', 'test'] as const;

/** A Markdown table: a header row, its rule, one line per row. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** How many of `queries` are in train, val and test, in that order. */
export function splitCounts(queries: readonly SkbQuery[]): number[] {
  return splits.map((split) => queries.filter((q) => q.split === split).length);
}

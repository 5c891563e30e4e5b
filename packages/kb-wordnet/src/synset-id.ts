/** A synset's part of speech as its id spells it: adjective satellites count as `a`. */
export type SynsetPos = 'n' | 'v' | 'a' | 'r';

/** WordNet's `ss_type`: a part of speech, or `s` for an adjective satellite. */
export type SynsetType = SynsetPos | 's';

/**
 * `wn31:<8-digit offset>-<pos>`. The prefix marks WordNet 3.1 offsets, which name other synsets than
 * the same numbers in WordNet 3.0 (`wn:` ids). Satellites take `a`, as WordNet's own pointers do.
 */
export function synsetId(offset: string, type: SynsetType): string {
  return `wn31:${offset}-${type === 's' ? 'a' : type}`;
}

const posOrder: Readonly<Record<string, number>> = { n: 0, v: 1, a: 2, r: 3 };

/**
 * Orders synset ids by part of speech (n, v, a, r), then offset: the order that decides which end of
 * a symmetric relation is stored as `src`. Ids have a fixed width, so equal parts of speech compare as
 * strings.
 */
export function compareSynsetIds(a: string, b: string): number {
  const byPos = (posOrder[a.at(-1)!] ?? 4) - (posOrder[b.at(-1)!] ?? 4);
  if (byPos !== 0) return byPos;
  return a < b ? -1 : a > b ? 1 : 0;
}

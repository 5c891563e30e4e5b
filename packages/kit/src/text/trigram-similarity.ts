/**
 * Character trigrams of a label with their counts: lower-cased and padded with two spaces in front
 * and one behind, so a word's start weighs more than its end (`"  d"`, `" do"`, `"dog"`, `"og "`).
 * Name indexes build their postings from these grams, so their fuzzy scores match `trigramSimilarity`.
 */
export function trigrams(label: string): Map<string, number> {
  const padded = `  ${label.toLowerCase()} `;
  const out = new Map<string, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const gram = padded.slice(i, i + 3);
    out.set(gram, (out.get(gram) ?? 0) + 1);
  }
  return out;
}

/** How many trigrams a `trigrams` multiset holds. */
export function trigramCount(grams: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const count of grams.values()) total += count;
  return total;
}

/**
 * Similarity of two labels in [0, 1]: the Dice coefficient of their trigram multisets. The one
 * definition of fuzzy name matching in Weft: the reference graph store and every backend's name
 * index score fuzzy look-ups with it, so they agree on which names match.
 */
export function trigramSimilarity(a: string, b: string): number {
  const ga = trigrams(a);
  const gb = trigrams(b);
  let shared = 0;
  for (const [gram, count] of ga) shared += Math.min(count, gb.get(gram) ?? 0);
  const total = trigramCount(ga) + trigramCount(gb);
  return total === 0 ? 0 : (2 * shared) / total;
}

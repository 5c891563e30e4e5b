/**
 * The evidence a candidate anchor is scored on, each in [0, 1] and independent of any one KB's
 * vocabulary, schema or size: how the phrase matches its name, how it matches its document, how
 * much of the question's own best text matches lie next to it, and how rare the phrase's words are.
 */
export const groundingFeatures = [
  'name',
  'nameWhole',
  'nameRare',
  'description',
  'descriptionRank',
  'coherence',
  'coherenceBest',
  'rarity',
  'words',
  'quoted',
  'isTextMatch',
  'bias',
] as const;

export type GroundingFeature = (typeof groundingFeatures)[number];

/**
 * Logistic weights over `groundingFeatures`, one model per reading of a phrase: `named` for nodes
 * whose name or alias the phrase spells, `described` for nodes it only matches by document. Fitted
 * on the train splits of WordNet hybrid and the Pokémon hybrid and described sets, each set weighing
 * the same, with `tooling/results/src/fit-grounding-weights.ts` (rows from `grounding-dev.ts`).
 */
export const groundingWeights: Readonly<
  Record<'named' | 'described', Readonly<Record<GroundingFeature, number>>>
> = {
  named: {
    name: 1.32,
    nameWhole: 1.32,
    nameRare: 2.181,
    description: 0.068,
    descriptionRank: -0.597,
    coherence: 3.029,
    coherenceBest: 3.102,
    rarity: 2.061,
    words: 6.974,
    quoted: 2.171,
    isTextMatch: 1.167,
    bias: -10.726,
  },
  described: {
    name: 0,
    nameWhole: 0,
    nameRare: 0,
    description: 0.228,
    descriptionRank: 1.26,
    coherence: 6.552,
    coherenceBest: 2.156,
    rarity: -0.251,
    words: -0.003,
    quoted: 0,
    isTextMatch: 2.943,
    bias: -5.615,
  },
};

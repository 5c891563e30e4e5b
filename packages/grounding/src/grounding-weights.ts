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
export const groundingWeights: Readonly<Record<'named' | 'described', Readonly<Record<GroundingFeature, number>>>> = {
  named: {
    name: 1.294,
    nameWhole: 1.294,
    nameRare: 2.185,
    description: 0.076,
    descriptionRank: -0.614,
    coherence: 3.021,
    coherenceBest: 3.106,
    rarity: 2.06,
    words: 7.119,
    quoted: 2.167,
    isTextMatch: 1.133,
    bias: -10.708,
  },
  described: {
    name: 0,
    nameWhole: 0,
    nameRare: 0,
    description: 0.253,
    descriptionRank: 1.257,
    coherence: 6.601,
    coherenceBest: 2.129,
    rarity: -0.267,
    words: 0.007,
    quoted: -0.441,
    isTextMatch: 2.956,
    bias: -5.638,
  },
};

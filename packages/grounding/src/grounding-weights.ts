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
  'capitalised',
  'isTextMatch',
  'bias',
] as const;

export type GroundingFeature = (typeof groundingFeatures)[number];

/**
 * Logistic weights over `groundingFeatures`, one model per reading of a phrase: `named` for nodes
 * whose name or alias the phrase spells, `described` for nodes it only matches by document. Fitted
 * on the train splits of WordNet hybrid and the Pokémon hybrid and described sets, each set weighing
 * the same, with `devkit/results/src/fit-grounding-weights.ts` (rows from `grounding-dev.ts`).
 */
export const groundingWeights: Readonly<
  Record<'named' | 'described', Readonly<Record<GroundingFeature, number>>>
> = {
  named: {
    name: 1.853,
    nameWhole: 1.853,
    nameRare: 1.8,
    description: -0.101,
    descriptionRank: -0.743,
    coherence: 3.18,
    coherenceBest: 3.01,
    rarity: 1.705,
    words: 6.738,
    capitalised: 0.516,
    quoted: 2.329,
    isTextMatch: 1.121,
    bias: -11.324,
  },
  described: {
    name: 0,
    nameWhole: 0,
    nameRare: 0,
    description: 0.157,
    descriptionRank: 1.137,
    coherence: 6.024,
    coherenceBest: 2.045,
    rarity: -0.137,
    words: -0.401,
    capitalised: 0.291,
    quoted: 0,
    isTextMatch: 2.969,
    bias: -5.542,
  },
};

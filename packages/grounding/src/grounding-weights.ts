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

/** Logistic weights over `groundingFeatures`. */
export const groundingWeights: Readonly<Record<GroundingFeature, number>> = {
  name: 0.446,
  nameWhole: -0.19,
  nameRare: 0.85,
  description: -0.131,
  descriptionRank: 1.026,
  coherence: 3.888,
  coherenceBest: 2.794,
  rarity: 0.14,
  words: 0.434,
  quoted: 1.153,
  isTextMatch: 2.799,
  bias: -5.357,
};

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
  name: 0.08,
  nameWhole: 0.08,
  nameRare: 1.166,
  description: -0.157,
  descriptionRank: 1.054,
  coherence: 4.135,
  coherenceBest: 2.685,
  rarity: 0.151,
  words: 0.351,
  quoted: 1.121,
  isTextMatch: 2.823,
  bias: -5.327,
};

export { fitGroundingModels, type GroundingExample } from './fit-grounding-models.ts';
export {
  type GroundedCandidate,
  type GroundingModels,
  groundingRow,
  type GroundedMention,
  type Grounding,
  type GroundQuestionOptions,
  groundQuestion,
  questionPhrases,
} from './ground-question.ts';
export { type GroundMentionOptions, groundMention } from './ground-mention.ts';
export { groundingAnchors, mentionFor } from './grounding-anchors.ts';
export { type GroundingFeature, groundingFeatures, groundingWeights } from './grounding-weights.ts';
export { type NounPhrase, nounPhrases } from './noun-phrases.ts';
export { contentWords, isFunctionWord, type QuerySpan, querySpans, singularForms } from './query-spans.ts';

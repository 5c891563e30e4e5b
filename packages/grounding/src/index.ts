export { answerTypes } from './answer-type.ts';
export {
  type GroundedCandidate,
  type GroundedMention,
  type Grounding,
  type GroundQuestionOptions,
  groundQuestion,
} from './ground-question.ts';
export { type GroundMentionOptions, groundMention } from './ground-mention.ts';
export { describedAnchors, groundingAnchors, mentionFor } from './grounding-anchors.ts';
export { type GroundingFeature, groundingFeatures, groundingWeights } from './grounding-weights.ts';
export { type NamedRelation, namedRelations } from './relation-prior.ts';
export { contentWords, isFunctionWord, type QuerySpan, querySpans, singularForms } from './query-spans.ts';

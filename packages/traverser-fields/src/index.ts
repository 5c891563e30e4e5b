export { FieldTraverser, type FieldTraverserOptions } from './field-traverser.ts';
export { untrainedAnchorWeight, untrainedNeighbourTextWeight, untrainedScore } from './untrained-score.ts';

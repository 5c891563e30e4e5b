export { FieldTraverser } from './field-traverser.ts';
export type { FieldTraverserOptions } from './options.ts';
export { untrainedAnchorWeight, untrainedNeighbourTextWeight, untrainedScore } from './untrained-score.ts';

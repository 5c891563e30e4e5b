export { FieldTraverser, type FieldTraverserOptions } from './field-traverser.ts';
export { untrainedAnchorWeight, untrainedScore } from './untrained-score.ts';

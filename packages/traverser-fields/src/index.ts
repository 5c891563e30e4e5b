export { FieldTraverser } from './field-traverser.ts';
export type { FieldTraverserOptions } from './options.ts';
export { untrainedScore } from './untrained-score.ts';

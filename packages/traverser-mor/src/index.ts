export { MixedTraverser, type MixedTraverserOptions } from './mixed-traverser.ts';

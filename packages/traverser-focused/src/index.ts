export { FocusedTraverser, type FocusedTraverserOptions } from './focused-traverser.ts';

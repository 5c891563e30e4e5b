export { MorTraverser, type MorTraverserOptions } from './mor-traverser.ts';

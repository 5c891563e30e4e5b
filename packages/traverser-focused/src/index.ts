export { candidateSchedule, FocusedTraverser, type FocusedTraverserOptions } from './focused-traverser.ts';

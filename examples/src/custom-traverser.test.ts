// The conformance suite of traversers, run on the example's traverser: how to check your own.
import { runTraverserSuite } from '@weft/conformance';
import { NeighbourTraverser } from './custom-traverser.ts';

runTraverserSuite({ name: 'NeighbourTraverser (example)', create: async () => new NeighbourTraverser() });

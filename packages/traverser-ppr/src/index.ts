export { PprTraverser, type PprTraverserOptions } from './ppr-traverser.ts';
export {
  type NeighborSource,
  type PushPageRankOptions,
  type PushPageRankResult,
  pushPersonalizedPageRank,
  type WalkNeighbor,
  type WalkStep,
} from './push-personalized-page-rank.ts';

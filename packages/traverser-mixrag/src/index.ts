export {
  type ExpertGateModel,
  type ExpertName,
  expertGateArtifact,
  expertNames,
  type GateExample,
  unnamedRelationShare,
  untrainedExpertWeights,
  untrainedWeights,
} from './expert-gate.ts';
export { type ExpertOutputs, MixtureTraverser, type MixtureTraverserOptions } from './mixture-traverser.ts';
export type { Neighbourhood, NeighbourhoodOptions, Triple } from './neighbourhood.ts';
export { type RelationExpertResult, relationExpert, type ScoredTriple } from './relation-expert.ts';
export {
  type SubgraphExpertOptions,
  type SubgraphExpertResult,
  subgraphExpert,
  type TreeStep,
} from './subgraph-expert.ts';
export { type GateQuery, type TrainMixtureGateResult, trainMixtureGate } from './train-mixture-gate.ts';

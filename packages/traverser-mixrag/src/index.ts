export {
  type ExpertGateModel,
  type ExpertName,
  expertGateArtifact,
  type GateExample,
  unnamedRelationShare,
  untrainedExpertWeights,
  untrainedWeights,
} from './expert-gate.ts';
export { type ExpertOutputs, MixtureTraverser, type MixtureTraverserOptions } from './mixture-traverser.ts';
export type { Neighbourhood, NeighbourhoodOptions, Triple } from './neighbourhood.ts';
export type { RelationExpertResult, ScoredTriple } from './relation-expert.ts';
export type { SubgraphExpertResult, TreeStep } from './subgraph-expert.ts';
export { type GateQuery, type TrainMixtureGateResult, trainMixtureGate } from './train-mixture-gate.ts';

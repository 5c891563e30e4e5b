export {
  type ExpertGateModel,
  type ExpertName,
  expertGateArtifact,
  expertNames,
  fitExpertGate,
  type GateExample,
  gateFeatureNames,
  softmax,
  uniformGate,
  unnamedRelationShare,
  untrainedExpertWeights,
  untrainedGate,
  untrainedWeights,
} from './expert-gate.ts';
export { type ExpertOutputs, MixtureTraverser, type MixtureTraverserOptions } from './mixture-traverser.ts';
export {
  loadNeighbourhood,
  type Neighbourhood,
  type NeighbourhoodOptions,
  type Triple,
} from './neighbourhood.ts';
export { type RelationExpertResult, relationExpert, type ScoredTriple } from './relation-expert.ts';
export {
  type SubgraphExpertOptions,
  type SubgraphExpertResult,
  subgraphExpert,
  type TreeStep,
} from './subgraph-expert.ts';
export { type GateQuery, type TrainMixtureGateResult, trainMixtureGate } from './train-mixture-gate.ts';
export { analyse } from './verbalised-bm25.ts';

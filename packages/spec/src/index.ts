export type {
  SkbEdge,
  SkbEdgeType,
  SkbNode,
  SkbNodeType,
  SkbPropValue,
  SkbQuery,
  SkbSchema,
  SkbSplit,
} from './skb/skb.ts';
export type { SkbChangeSet } from './skb/skb-change-set.ts';
export type {
  CypherParam,
  CypherResult,
  EdgeDirection,
  ExpandDirection,
  GraphCypherOptions,
  GraphLookupOptions,
  GraphNeighbor,
  GraphNeighborsOptions,
  GraphSampleOptions,
  GraphStats,
  GraphStoreV1,
  NameMatch,
  NameMatchKind,
} from './graph-store/graph-store-v1.ts';
export type {
  GraphBackendV1,
  GraphBuildInput,
  GraphBuildResult,
  GraphInPlaceChanges,
  GraphInPlaceInput,
  GraphInPlaceSession,
  GraphOpenOptions,
  GraphUpdateInput,
} from './graph-store/graph-backend-v1.ts';
export type { IndexFilter, IndexHit } from './index-filter.ts';
export type {
  IndexBackendV1,
  IndexBuildInput,
  IndexBuildResult,
  IndexNodeRecord,
  IndexOpenOptions,
  IndexStorageOptions,
  OpenedIndexesV1,
} from './index-backend/index-backend-v1.ts';
export type { TextIndexV1, TextSearchOptions } from './text-index/text-index-v1.ts';
export type {
  TermStatistics,
  TermStatisticsOptions,
  TextFieldInfo,
  TextIndexV2,
  TextSearchOptionsV2,
} from './text-index/text-index-v2.ts';
export type { VectorIndexV1, VectorSearchOptions } from './vector-index/vector-index-v1.ts';
export type {
  Anchor,
  Plan,
  PlanHop,
  PlanPath,
  PlanTerm,
  PlanTriplet,
  PlanVariable,
  TypeScore,
} from './planner/plan.ts';
export type { PlannerV1, PlanOptions } from './planner/planner-v1.ts';
export type { Candidate, HopVia, Trajectory, TrajectoryHop } from './traverser/candidate.ts';
export type { KnownScores, ScoreKey } from './traverser/score-keys.ts';
export type { PrepareOptions, TraverseOptions, TraverserV1 } from './traverser/traverser-v1.ts';
export type { RerankerV1, RerankOptions } from './reranker/reranker-v1.ts';
export type {
  CriticFeedback,
  CriticFeedbackKind,
  CriticV1,
  CriticVerdict,
  CritiqueOptions,
} from './critic/critic-v1.ts';
export type { ExpanderV1, Expansion, ExpandOptions, ExpansionTriple } from './expander/expander-v1.ts';
export type { ArtifactStore, RetrievalContext } from './retrieval-context.ts';
export type { RetrievalResult, RetrieveOptions, RetrieverV1 } from './retriever/retriever-v1.ts';
export type {
  ModelCallOutcome,
  ModelCallTrace,
  RetrievalTrace,
  StageKind,
  StageTrace,
} from './retriever/retrieval-trace.ts';
export type {
  ArtifactRefV1,
  TrainingSetV1,
  TrainingSourceV1,
  TrainingStepV1,
  TrainOptionsV1,
  TrainReportV1,
} from './training/training-step-v1.ts';

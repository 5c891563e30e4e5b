// Type tests: compiled by `typecheck`. A contract change that would break implementers or users
// fails here first.
import { expectTypeOf } from 'vitest';
import type {
  Candidate,
  CriticVerdict,
  GraphNeighbor,
  GraphStoreV1,
  IndexHit,
  Plan,
  RetrievalResult,
  TextIndexV1,
  TrainingStepV1,
  TrainOptionsV1,
  TrainReportV1,
  TrajectoryHop,
} from './index.ts';

declare const store: GraphStoreV1;
declare const text: TextIndexV1;

expectTypeOf(store.specificationVersion).toEqualTypeOf<'v1'>();
expectTypeOf(store.doNeighbors).returns.resolves.toEqualTypeOf<GraphNeighbor[]>();
expectTypeOf(text.doSearch).returns.resolves.toEqualTypeOf<IndexHit[][]>();
expectTypeOf<GraphNeighbor['direction']>().toEqualTypeOf<'out' | 'in'>();
expectTypeOf<TrajectoryHop['via']>().toEqualTypeOf<'anchor' | 'structure' | 'text' | 'vector'>();
expectTypeOf<RetrievalResult['ranking']>().toEqualTypeOf<readonly Candidate[]>();

// A rejection must carry feedback; an acceptance must not need any.
const accept: CriticVerdict = { accept: true };
// @ts-expect-error feedback is required when rejecting
const rejectWithout: CriticVerdict = { accept: false };
void accept;
void rejectWithout;

// Plans must say what is asked for and how sure the planner is.
// @ts-expect-error confidence and the other required fields are missing
const incomplete: Plan = { query: 'q', targetTypes: [], anchors: [] };
void incomplete;

// Neighbour expansion requires a direction.
// @ts-expect-error direction is required
void store.doNeighbors({ seeds: ['a'] });

// A training step declares what it learns from, reads and writes, and trains into the context's store.
declare const step: TrainingStepV1;
expectTypeOf(step.specificationVersion).toEqualTypeOf<'v1'>();
expectTypeOf(step.doTrain).parameter(0).toEqualTypeOf<TrainOptionsV1>();
expectTypeOf(step.doTrain).returns.resolves.toEqualTypeOf<TrainReportV1>();
expectTypeOf<TrainOptionsV1['context']['artifacts']['put']>().toBeFunction();
expectTypeOf<TrainingStepV1['learnsFrom'][number]>().toEqualTypeOf<'labelled' | 'synthesized' | 'store'>();

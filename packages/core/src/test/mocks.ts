import type {
  Candidate,
  CriticV1,
  CriticVerdict,
  CritiqueOptions,
  Expansion,
  ExpanderV1,
  ExpandOptions,
  Plan,
  PlannerV1,
  PlanOptions,
  RerankerV1,
  RerankOptions,
  TraverseOptions,
  TraverserV1,
} from '@weft/spec';

/**
 * Like the AI SDK's mocks: a behaviour is a function, one value for every call, or an array with one
 * value per call (the last one repeats).
 */
export type MockBehaviour<Options, Result> =
  | ((options: Options) => Result | Promise<Result>)
  | Result
  | readonly Result[];

function responder<Options, Result>(behaviour: MockBehaviour<Options, Result>, calls: readonly Options[]) {
  return async (options: Options): Promise<Result> => {
    if (typeof behaviour === 'function')
      return (behaviour as (o: Options) => Result | Promise<Result>)(options);
    if (Array.isArray(behaviour)) {
      if (behaviour.length === 0) throw new Error('mock has no values');
      return behaviour[Math.min(calls.length - 1, behaviour.length - 1)] as Result;
    }
    return behaviour as Result;
  };
}

/** Records every `doPlan` call in `doPlanCalls`. */
export class MockPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly doPlanCalls: PlanOptions[] = [];
  private readonly respond: (options: PlanOptions) => Promise<Plan>;

  constructor(options: { name?: string; doPlan: MockBehaviour<PlanOptions, Plan> }) {
    this.name = options.name ?? 'mock-planner';
    this.respond = responder(options.doPlan, this.doPlanCalls);
  }

  doPlan(options: PlanOptions): Promise<Plan> {
    this.doPlanCalls.push(options);
    return this.respond(options);
  }
}

export class MockTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly doTraverseCalls: TraverseOptions[] = [];
  private readonly respond: (options: TraverseOptions) => Promise<Candidate[]>;

  constructor(options: { name?: string; doTraverse: MockBehaviour<TraverseOptions, Candidate[]> }) {
    this.name = options.name ?? 'mock-traverser';
    this.respond = responder(options.doTraverse, this.doTraverseCalls);
  }

  doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    this.doTraverseCalls.push(options);
    return this.respond(options);
  }
}

export class MockReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly doRerankCalls: RerankOptions[] = [];
  private readonly respond: (options: RerankOptions) => Promise<Candidate[]>;

  constructor(options: { name?: string; doRerank?: MockBehaviour<RerankOptions, Candidate[]> }) {
    this.name = options.name ?? 'mock-reranker';
    this.respond = responder(
      options.doRerank ?? ((o: RerankOptions) => [...o.candidates]),
      this.doRerankCalls,
    );
  }

  doRerank(options: RerankOptions): Promise<Candidate[]> {
    this.doRerankCalls.push(options);
    return this.respond(options);
  }
}

export class MockCritic implements CriticV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly doCritiqueCalls: CritiqueOptions[] = [];
  private readonly respond: (options: CritiqueOptions) => Promise<CriticVerdict>;

  constructor(options: { name?: string; doCritique: MockBehaviour<CritiqueOptions, CriticVerdict> }) {
    this.name = options.name ?? 'mock-critic';
    this.respond = responder(options.doCritique, this.doCritiqueCalls);
  }

  doCritique(options: CritiqueOptions): Promise<CriticVerdict> {
    this.doCritiqueCalls.push(options);
    return this.respond(options);
  }
}

export class MockExpander implements ExpanderV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  readonly doExpandCalls: ExpandOptions[] = [];
  private readonly respond: (options: ExpandOptions) => Promise<Expansion>;

  constructor(options: { name?: string; doExpand: MockBehaviour<ExpandOptions, Expansion> }) {
    this.name = options.name ?? 'mock-expander';
    this.respond = responder(options.doExpand, this.doExpandCalls);
  }

  doExpand(options: ExpandOptions): Promise<Expansion> {
    this.doExpandCalls.push(options);
    return this.respond(options);
  }
}

// The suites' checks fail on the bugs they are there for: each broken stage here must be caught.
import { emptyPlan, WeftError } from '@weft/kit';
import { MockLanguageModelV4, ReferencePathTraverser, textResult, toySkb } from '@weft/core/test';
import type {
  Candidate,
  IndexHit,
  Plan,
  PlannerV1,
  PlanOptions,
  PrepareOptions,
  RetrievalContext,
  RetrievalTrace,
  TraverseOptions,
  TraverserV1,
} from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  anchorNodeProblems,
  batchLimitedContext,
  checkPlannerStoreIsolation,
  checkPreparedHandle,
  checkStageAbort,
  checkTraverserStoreIsolation,
  expansionProblems,
  expectNoOversizedBatches,
  isAbortError,
  planProblems,
  storeContext,
  toVariantPlan,
  toyNikonPlan,
  traceProblems,
  variantId,
  variantSkb,
  verdictProblems,
} from './index.ts';

const toy = () => storeContext(toySkb());
const variant = () => storeContext(variantSkb());

/** The old bug: global searches prepared per instance, keyed by query and limit, taken by any store. */
class InstanceCachingTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'instance-caching';
  private readonly prepared = new Map<string, Promise<IndexHit[][]>>();

  doPrepare({ query, limit, context }: PrepareOptions): void {
    const key = `${limit} ${query}`;
    if (!this.prepared.has(key)) this.prepared.set(key, context.text.doSearch({ queries: [query], limit }));
  }

  async doTraverse({ query, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const key = `${limit} ${query}`;
    const search = this.prepared.get(key) ?? context.text.doSearch({ queries: [query], limit });
    this.prepared.delete(key);
    const [hits = []] = await search;
    return hits.map((hit) => ({
      id: hit.id,
      score: hit.score,
      scores: { bm25: hit.score },
      trajectories: [{ hops: [{ node: hit.id, via: 'text' as const }] }],
    }));
  }
}

/** Sends the query and the plan's restriction in one call, whatever the index accepts. */
class OneCallTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'one-call';

  async doTraverse({ query, plan, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const [hits = []] = await context.text.doSearch({ queries: [query, plan.restriction], limit });
    return hits.map((hit) => ({
      id: hit.id,
      score: hit.score,
      scores: {},
      trajectories: [{ hops: [{ node: hit.id, via: 'text' as const }] }],
    }));
  }
}

/** Remembers the first plan for each query, whatever store is asked about later. */
class QueryCachingPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'query-caching';
  private readonly plans = new Map<string, Promise<Plan>>();

  doPlan({ query, context }: PlanOptions): Promise<Plan> {
    const found = this.plans.get(query);
    if (found) return found;
    const plan = (async () => {
      const [matches = []] = await context.graph.doLookup(['Nikon']);
      return {
        ...emptyPlan(query, context.schema),
        anchors: [
          {
            mention: 'Nikon',
            candidates: matches.map((m) => ({ id: m.id, type: m.type, score: m.score })),
            confidence: 1,
          },
        ],
      };
    })();
    this.plans.set(query, plan);
    return plan;
  }
}

describe('store isolation checks', () => {
  const jobs = (plan: (p: Plan) => Plan) => [
    { query: 'Nikon gear for wildlife', plan: plan(toyNikonPlan()), limit: 10 },
    {
      query: 'wildlife trail camera',
      plan: plan(emptyPlan('wildlife trail camera', toySkb().schema)),
      limit: 5,
    },
  ];

  it('pass a traverser that keeps nothing on the instance', async () => {
    await checkTraverserStoreIsolation(new ReferencePathTraverser(), [
      { context: toy(), jobs: jobs((p) => p) },
      { context: variant(), jobs: jobs(toVariantPlan) },
    ]);
  });

  it("catch a traverser that answers the second store with the first one's prepared work", async () => {
    await expect(
      checkTraverserStoreIsolation(new InstanceCachingTraverser(), [
        { context: toy(), jobs: jobs((p) => p) },
        { context: variant(), jobs: jobs(toVariantPlan) },
      ]),
    ).rejects.toThrow(/not nodes of this store/);
  });

  it('catch a traverser bound to one store, finding nothing in the other', async () => {
    const bound = toy();
    const traverser: TraverserV1 = {
      specificationVersion: 'v1',
      name: 'bound',
      doTraverse: (options) =>
        new ReferencePathTraverser().doTraverse({
          ...options,
          context: { ...options.context, text: bound.text },
        }),
    };
    await expect(
      checkTraverserStoreIsolation(
        traverser,
        [
          { context: toy(), jobs: jobs((p) => p) },
          { context: variant(), jobs: jobs(toVariantPlan) },
        ],
        { deterministic: true, isomorphic: true },
      ),
    ).rejects.toThrow(/differ in number/);
  });

  it('catch a doPrepare that returns no handle', async () => {
    await expect(
      checkPreparedHandle(
        new InstanceCachingTraverser(),
        toy(),
        jobs((p) => p),
      ),
    ).rejects.toThrow(/handle/);
  });

  it('catch a planner that reuses the plan of another store', async () => {
    await expect(
      checkPlannerStoreIsolation(new QueryCachingPlanner(), [toy(), variant()], {
        deterministic: true,
        linksEntities: true,
        expectLinked: ['b:nikon', variantId('b:nikon')],
      }),
    ).rejects.toThrow(/store 2 \(toy-cameras-second-shop\), alone/);
  });
});

describe('batch limit check', () => {
  it('catches a call with more queries than the index accepts', async () => {
    const { context, recording } = batchLimitedContext(toy(), 1);
    await new OneCallTraverser().doTraverse({ query: 'Nikon gear', plan: toyNikonPlan(), limit: 5, context });
    expect(() => expectNoOversizedBatches(recording)).toThrow(/maxQueriesPerCall = 1/);
  });

  it('passes calls within the limit', async () => {
    const { context, recording } = batchLimitedContext(toy(), 2);
    await new OneCallTraverser().doTraverse({ query: 'Nikon gear', plan: toyNikonPlan(), limit: 5, context });
    expectNoOversizedBatches(recording);
    expect(recording.calls).toHaveLength(1);
  });
});

describe('abort check', () => {
  const plan = toyNikonPlan();
  const withModel = (): RetrievalContext => ({
    ...toy(),
    languageModel: new MockLanguageModelV4({ doGenerate: async () => textResult('ok') }),
  });

  it('accepts a rejection with the abort, and a stage that finishes its local work', async () => {
    const rejected = await checkStageAbort({
      base: toy(),
      moment: 'before',
      run: (context) => new ReferencePathTraverser().doTraverse({ query: 'Nikon', plan, limit: 5, context }),
      check: () => undefined,
    });
    expect(rejected).toBe('rejected');
    const resolved = await checkStageAbort({
      base: toy(),
      moment: 'during',
      run: async () => [] as Candidate[],
      check: () => undefined,
    });
    expect(resolved).toBe('resolved');
  });

  it('catches a stage that turns the abort into another error', async () => {
    await expect(
      checkStageAbort({
        base: toy(),
        moment: 'during',
        run: async (context) => {
          try {
            return await context.graph.doGetNodes(['p:d850']);
          } catch {
            throw new TypeError('cannot read properties of undefined');
          }
        },
        check: () => undefined,
      }),
    ).rejects.toThrow(/other than an abort/);
  });

  it('catches an LLM call after the abort', async () => {
    await expect(
      checkStageAbort({
        base: withModel(),
        moment: 'during',
        run: async (context) => {
          await context.graph.doGetNodes(['p:d850']).catch(() => undefined);
          await Promise.resolve(context.languageModel!.doGenerate({ prompt: [] })).catch(() => undefined);
          return 'done';
        },
        check: () => undefined,
      }),
    ).rejects.toThrow(/LLM calls started after the signal aborted/);
  });

  it('recognises aborts by code, reason, name and cause', () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(new WeftError({ code: 'WEFT_ABORTED', message: 'x' }))).toBe(true);
    expect(isAbortError(controller.signal.reason, controller.signal)).toBe(true);
    expect(
      isAbortError(
        new WeftError({ code: 'WEFT_STAGE_FAILED', message: 'x', cause: controller.signal.reason }),
      ),
    ).toBe(true);
    expect(isAbortError(new WeftError({ code: 'WEFT_STAGE_FAILED', message: 'x' }))).toBe(false);
    expect(isAbortError(new TypeError('x'), controller.signal)).toBe(false);
  });
});

describe('planProblems', () => {
  const schema = toySkb().schema;

  it('finds nothing wrong with a plan over the schema', async () => {
    expect(planProblems(toyNikonPlan(), schema)).toEqual([]);
    expect(await anchorNodeProblems(toyNikonPlan(), toy().graph)).toEqual([]);
  });

  it("names the types of another store's schema and its nodes", async () => {
    const foreign = toVariantPlan(toyNikonPlan());
    expect(planProblems(foreign, schema).join('\n')).toMatch(/node type "item" is not in schema/);
    expect(planProblems(foreign, schema).join('\n')).toMatch(/edge type "built_by" is not in schema/);
    expect(await anchorNodeProblems(foreign, toy().graph)).toEqual([
      'anchors[0]: candidate "shop2/b:nikon" is not a node of this store',
    ]);
  });

  it('finds dangling references and out-of-range scores', async () => {
    const base = toyNikonPlan();
    const broken: Plan = {
      ...base,
      confidence: 1.5,
      paths: [{ ...base.paths[0]!, anchor: 3 }],
      triplets: [
        {
          subject: { kind: 'variable', name: 'q' },
          edgeType: 'made_by',
          object: { kind: 'anchor', anchor: 0 },
        },
      ],
      target: 'y',
      anchors: [{ ...base.anchors[0]!, candidates: [{ id: 'p:d850', type: 'brand', score: 1 }] }],
    };
    const problems = planProblems(broken, schema).join('\n');
    expect(problems).toMatch(/confidence: 1.5 is not in \[0, 1\]/);
    expect(problems).toMatch(/paths\[0\]: anchor 3 does not exist/);
    expect(problems).toMatch(/variable "q" is not declared/);
    expect(problems).toMatch(/target "y"/);
    expect(await anchorNodeProblems(broken, toy().graph)).toEqual([
      'anchors[0]: candidate "p:d850" is a product, not a brand',
    ]);
  });
});

describe('verdictProblems', () => {
  it('accepts an acceptance and a typed rejection', () => {
    expect(verdictProblems({ accept: true })).toEqual([]);
    expect(
      verdictProblems({ accept: false, feedback: [{ kind: 'missing-entity', message: 'which lens?' }] }),
    ).toEqual([]);
  });

  it('catches a rejection without feedback, of an unknown kind, or without a message', () => {
    expect(verdictProblems({ accept: false, feedback: [] })).toEqual([
      'a rejection must say why: at least one feedback',
    ]);
    const odd = { accept: false, feedback: [{ kind: 'too-long', message: ' ' }] } as never;
    expect(verdictProblems(odd)).toEqual(['feedback[0]: unknown kind "too-long"', 'feedback[0]: no message']);
  });
});

describe('expansionProblems', () => {
  const query = 'lenses for the Nikon D850';

  it('accepts the query with an expansion appended, in any case and spacing', () => {
    expect(
      expansionProblems(query, {
        query: `LENSES  for the nikon D850 (AF-S Nikkor fits Nikon D850)`,
        expansion: 'AF-S Nikkor fits Nikon D850',
        triples: [{ subject: 'AF-S Nikkor 200-500mm', relation: 'works with', object: 'Nikon D850' }],
      }),
    ).toEqual([]);
  });

  it('catches a silent rewrite, a changed query with nothing expanded, and an empty triple part', () => {
    const rewrite = { query: 'telephoto lenses with an F-mount', expansion: 'F-mount', triples: [] };
    expect(expansionProblems(query, rewrite)).toHaveLength(1);
    expect(expansionProblems(query, rewrite, ['rewrote the query as the mount it needs'])).toEqual([]);
    expect(expansionProblems(query, { query: `${query} please`, expansion: '', triples: [] })).toHaveLength(
      1,
    );
    expect(
      expansionProblems(query, {
        query,
        expansion: 'x',
        triples: [{ subject: 'Nikon D850', relation: '', object: 'Nikon' }],
      }),
    ).toEqual(['triples[0].relation is "", not a non-empty string']);
  });
});

describe('traceProblems', () => {
  const schema = toySkb().schema;
  const stage = {
    kind: 'traverser',
    name: 'bm25',
    round: 0,
    startedAtMs: 1,
    durationMs: 2,
    llmCalls: 1,
    inputTokens: 10,
    outputTokens: 5,
  } as const;
  const trace: RetrievalTrace = {
    stack: 'test',
    query: 'q',
    stages: [stage],
    rounds: 1,
    feedback: [],
    llmCalls: 1,
    inputTokens: 10,
    outputTokens: 5,
    durationMs: 4,
  };

  it('finds nothing wrong with a consistent trace', () => {
    expect(traceProblems(trace, { query: 'q', stack: 'test', schema })).toEqual([]);
  });

  it('catches counts that do not add up, stages outside the rounds or the time, another query', () => {
    const broken: RetrievalTrace = {
      ...trace,
      query: 'expanded q',
      stages: [stage, { ...stage, round: 1, startedAtMs: 3, durationMs: 2 }],
    };
    expect(traceProblems(broken, { query: 'q', stack: 'test', schema })).toEqual([
      'trace.query is "expanded q", not the query asked ("q")',
      'stages[1] (traverser "bm25"): round 1 outside 0..0',
      'stages[1] (traverser "bm25"): ends at 5 ms, after the retrieval (4 ms)',
      "stages' llmCalls add up to 2, more than the trace's 1",
      "stages' inputTokens add up to 20, more than the trace's 10",
      "stages' outputTokens add up to 10, more than the trace's 5",
    ]);
  });
});

import { emptyPlan } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { Candidate, Plan, RetrievalContext, TraverserV1 } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchLimitedContext, expectNoOversizedBatches } from './batch-limited-context.ts';
import { checkStageAbort } from './check-stage-abort.ts';
import { storeContext } from './store-context.ts';
import { toVariantPlan, variantSkb } from './variant-skb.ts';

export interface TraverserSuiteOptions {
  readonly name: string;
  /** Builds the traverser; it will run against `context` (reference stores over the toy SKB). */
  create(context: RetrievalContext): Promise<TraverserV1>;
  /**
   * A plain search traverser (text or vector search, no graph traversal): it must still find what the
   * planned path reaches when the documents say so, but its trajectories are single search hops, so
   * the structural-trajectory check is replaced by that one. Default false.
   */
  readonly searchOnly?: boolean;
  /**
   * Give every context the suite builds a vector index (hashed bag-of-words embeddings) and its
   * query model, for traversers that search vectors (default false).
   */
  readonly vectors?: boolean;
  /** Adds what the traverser needs to every context the suite builds: a language model, artifacts. */
  readonly prepareContext?: (context: RetrievalContext) => RetrievalContext;
  /**
   * The same call gives the same candidates (default true): results made with a prepared handle,
   * or concurrently with another store's, are compared with results made alone.
   */
  readonly deterministic?: boolean;
}

/** A plan: products made by the brand the query names (Nikon), restricted to wildlife. */
export function toyNikonPlan(): Plan {
  const schema = toySkb().schema;
  return {
    ...emptyPlan('Nikon gear for wildlife', schema),
    anchors: [
      { mention: 'Nikon', candidates: [{ id: 'b:nikon', score: 1, type: 'brand' }], confidence: 0.9 },
    ],
    paths: [
      {
        anchor: 0,
        hops: [{ edgeType: 'made_by', direction: 'in', nodeTypes: ['product'], restriction: 'wildlife' }],
        score: 1,
      },
    ],
    variables: [{ name: 'p', nodeTypes: ['product'], restriction: 'wildlife' }],
    triplets: [
      {
        subject: { kind: 'variable', name: 'p' },
        edgeType: 'made_by',
        object: { kind: 'anchor', anchor: 0 },
      },
    ],
    target: 'p',
    restriction: 'wildlife',
    confidence: 0.8,
  };
}

/** One traversal the new cases run: a query, its plan and a limit. */
export interface TraverseJob {
  readonly query: string;
  readonly plan: Plan;
  readonly limit: number;
}

/**
 * What the pipeline does before planning: `doPrepare` when the traverser has one, a throw costing
 * only the head start (the handle is then absent).
 */
function prepareLikePipeline(traverser: TraverserV1, job: TraverseJob, context: RetrievalContext): unknown {
  try {
    return traverser.doPrepare?.({ query: job.query, limit: job.limit, context });
  } catch {
    return undefined;
  }
}

const ranked = (candidates: readonly Candidate[]) => candidates.map((c) => [c.id, c.score] as const);

function expectWellFormed(candidates: readonly Candidate[], limit: number) {
  expect(candidates.length).toBeLessThanOrEqual(limit);
  expect(new Set(candidates.map((c) => c.id)).size).toBe(candidates.length);
  const scores = candidates.map((c) => c.score);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  for (const candidate of candidates) {
    expect(Number.isFinite(candidate.score)).toBe(true);
    expect(candidate.trajectories.length).toBeGreaterThan(0);
    for (const trajectory of candidate.trajectories) {
      expect(trajectory.hops.at(-1)!.node).toBe(candidate.id);
    }
  }
}

/** Candidates that name no node of the store they were asked about. */
async function foreignIds(candidates: readonly Candidate[], context: RetrievalContext): Promise<string[]> {
  if (candidates.length === 0) return [];
  const nodes = await context.graph.doGetNodes(candidates.map((c) => c.id));
  return candidates.filter((_, i) => nodes[i] === undefined).map((c) => c.id);
}

/**
 * `doPrepare` returns its work as a handle (nothing kept on the instance), and `doTraverse` with
 * that handle as `prepared` returns what it returns without one. The first job's query must not
 * be empty: a traverser may have nothing to prepare for an empty query.
 */
export async function checkPreparedHandle(
  traverser: TraverserV1,
  context: RetrievalContext,
  jobs: readonly TraverseJob[],
  options: { readonly deterministic: boolean } = { deterministic: true },
): Promise<void> {
  const prepare = traverser.doPrepare?.bind(traverser);
  if (!prepare) throw new Error(`${traverser.name} has no doPrepare`);
  for (const [j, job] of jobs.entries()) {
    const handle = prepare({ query: job.query, limit: job.limit, context });
    if (j === 0)
      expect(
        handle,
        'doPrepare must return its work as a handle, which the pipeline passes back as `prepared`; keeping it on the instance mixes up stores and queries',
      ).not.toBeUndefined();
    const prepared = await traverser.doTraverse({ ...job, context, prepared: handle });
    const plain = await traverser.doTraverse({ ...job, context });
    expectWellFormed(prepared, job.limit);
    expect(await foreignIds(prepared, context), 'candidates that are not nodes of this store').toEqual([]);
    if (options.deterministic)
      expect(ranked(prepared), `with and without a prepared handle: ${job.query}`).toEqual(ranked(plain));
  }
}

/**
 * One traverser instance over two stores (the pipeline shares stage instances): first the old bug's
 * order — prepare both stores, then traverse the second before the first — then every job over both
 * stores at once. Every candidate must be a node of the store it was asked about, and a
 * deterministic traverser must return what it returns for that store alone.
 */
export async function checkTraverserStoreIsolation(
  traverser: TraverserV1,
  stores: readonly [
    { readonly context: RetrievalContext; readonly jobs: readonly TraverseJob[] },
    { readonly context: RetrievalContext; readonly jobs: readonly TraverseJob[] },
  ],
  options: {
    readonly deterministic: boolean;
    /**
     * The second store is the first under other ids and type names (`variantSkb`), and the jobs
     * correspond: each job must find as many candidates in one store as in the other, so that the
     * isolation checks cannot pass merely because one store's answers are empty.
     */
    readonly isomorphic?: boolean;
  } = { deterministic: true },
): Promise<void> {
  const traverse = (job: TraverseJob, context: RetrievalContext, prepared: unknown) =>
    traverser.doTraverse({ ...job, context, ...(prepared !== undefined ? { prepared } : {}) });
  const prepare = (job: TraverseJob, context: RetrievalContext) =>
    prepareLikePipeline(traverser, job, context);
  const expectOwn = async (candidates: Candidate[], s: number, job: TraverseJob, how: string) => {
    const { context } = stores[s]!;
    expectWellFormed(candidates, job.limit);
    expect(
      await foreignIds(candidates, context),
      `store ${s + 1} (${context.schema.name}), ${how}, ${JSON.stringify(job.query)}: candidates that are not nodes of this store`,
    ).toEqual([]);
  };

  const alone: Candidate[][][] = [[], []];
  for (const s of [0, 1])
    for (const job of stores[s]!.jobs) {
      const candidates = await traverse(job, stores[s]!.context, undefined);
      await expectOwn(candidates, s, job, 'alone');
      alone[s]!.push(candidates);
    }
  if (options.isomorphic)
    for (const [j, job] of stores[0].jobs.entries())
      expect(
        alone[1]![j]!.length,
        `${JSON.stringify(job.query)}: the second store is the first under other names, yet the candidates found differ in number`,
      ).toBe(alone[0]![j]!.length);
  const same = async (candidates: Candidate[], s: number, j: number, how: string) => {
    const job = stores[s]!.jobs[j]!;
    await expectOwn(candidates, s, job, how);
    if (options.deterministic)
      expect(ranked(candidates), `store ${s + 1}, ${how}: differs from the store alone`).toEqual(
        ranked(alone[s]![j]!),
      );
  };

  for (const [j] of stores[0].jobs.entries()) {
    const handles = [0, 1].map((s) => prepare(stores[s]!.jobs[j]!, stores[s]!.context));
    const second = await traverse(stores[1].jobs[j]!, stores[1].context, handles[1]);
    const first = await traverse(stores[0].jobs[j]!, stores[0].context, handles[0]);
    await same(second, 1, j, 'prepared with the other store, traversed first');
    await same(first, 0, j, 'prepared with the other store, traversed second');
  }

  const together = [0, 1].flatMap((s) => stores[s]!.jobs.map((job, j) => ({ s, j, job })));
  const results = await Promise.all(
    together.map(({ s, job }) => traverse(job, stores[s]!.context, prepare(job, stores[s]!.context))),
  );
  for (const [i, { s, j }] of together.entries()) await same(results[i]!, s, j, 'concurrently');
}

/** Plans the batch case runs: a path with a restriction, a path from text matches, no path. */
function batchJobs(): TraverseJob[] {
  const nikon = toyNikonPlan();
  const schema = toySkb().schema;
  const fromText: Plan = {
    ...emptyPlan('lenses that fit a DSLR', schema),
    paths: [
      {
        startTypes: ['category'],
        hops: [{ edgeType: 'in_category', direction: 'in', nodeTypes: ['product'], restriction: 'lens' }],
        score: 1,
      },
    ],
    restriction: 'lenses that fit a DSLR',
  };
  return [
    { query: 'Nikon gear for wildlife', plan: nikon, limit: 10 },
    { query: 'lenses that fit a DSLR', plan: fromText, limit: 10 },
    { query: 'wildlife trail camera', plan: emptyPlan('wildlife trail camera', schema), limit: 5 },
  ];
}

/**
 * The `TraverserV1` contract: distinct, ordered, bounded candidates whose trajectories are real
 * paths; a text fallback; prepared handles equivalent to none; one instance serving two stores at
 * once; the abort contract; text searches within the index's batch size.
 */
export function runTraverserSuite(options: TraverserSuiteOptions): void {
  const prepareContext = options.prepareContext ?? ((context: RetrievalContext) => context);
  const deterministic = options.deterministic ?? true;
  const contextOf = (skb: ReturnType<typeof toySkb>) =>
    prepareContext(storeContext(skb, { vectors: options.vectors ?? false }));
  describe(`Traverser conformance: ${options.name}`, () => {
    const skb = toySkb();
    const context = contextOf(skb);
    const graph = context.graph;
    let traverser: TraverserV1;
    beforeAll(async () => {
      traverser = await options.create(context);
    });

    it('declares the v1 specification', () => {
      expect(traverser.specificationVersion).toBe('v1');
      expect(traverser.name.length).toBeGreaterThan(0);
    });

    it('finds what the planned path reaches, with real edges on every trajectory', async () => {
      const candidates = await traverser.doTraverse({
        query: 'Nikon gear for wildlife',
        plan: toyNikonPlan(),
        limit: 10,
        context,
      });
      expectWellFormed(candidates, 10);
      const ids = candidates.map((c) => c.id);
      for (const id of ['p:d850', 'p:nikkor']) expect(ids).toContain(id);
      for (const candidate of candidates) {
        for (const trajectory of candidate.trajectories) {
          for (let i = 1; i < trajectory.hops.length; i++) {
            const hop = trajectory.hops[i]!;
            if (hop.via !== 'structure') continue;
            const from = trajectory.hops[i - 1]!.node;
            const neighbors = await graph.doNeighbors({
              seeds: [from],
              edgeTypes: [hop.edgeType!],
              direction: hop.direction!,
            });
            expect(neighbors.map((n) => n.node)).toContain(hop.node);
          }
        }
      }
      const structural = candidates.find((c) => c.id === 'p:d850')!;
      if (options.searchOnly) {
        for (const trajectory of candidates.flatMap((c) => c.trajectories)) {
          expect(trajectory.hops).toHaveLength(1);
          expect(['text', 'vector']).toContain(trajectory.hops[0]!.via);
        }
        return;
      }
      expect(structural.trajectories.some((t) => t.hops[0]!.node === 'b:nikon' && t.hops.length === 2)).toBe(
        true,
      );
    });

    it('honours the limit', async () => {
      const candidates = await traverser.doTraverse({
        query: 'Nikon gear for wildlife',
        plan: toyNikonPlan(),
        limit: 1,
        context,
      });
      expectWellFormed(candidates, 1);
      expect(candidates).toHaveLength(1);
    });

    it('falls back to text when the plan has no path, never throwing', async () => {
      for (const query of ['wildlife trail camera', '', '相机', 'zzzz qqqq']) {
        const candidates = await traverser.doTraverse({
          query,
          plan: emptyPlan(query, skb.schema),
          limit: 5,
          context,
        });
        expectWellFormed(candidates, 5);
      }
      const wildlife = await traverser.doTraverse({
        query: 'wildlife trail camera',
        plan: emptyPlan('wildlife trail camera', skb.schema),
        limit: 5,
        context,
      });
      expect(wildlife.map((c) => c.id)).toContain('p:trailcam');
    });

    it('prepares a handle that gives what traversing without one gives', async (test) => {
      if (!traverser.doPrepare) test.skip();
      await checkPreparedHandle(traverser, context, batchJobs(), { deterministic });
    });

    it('serves two stores at once from one instance, each from its own store', async () => {
      const jobs = (variant: boolean): TraverseJob[] =>
        [
          { query: 'Nikon gear for wildlife', plan: toyNikonPlan(), limit: 10 },
          { query: 'wildlife trail camera', plan: emptyPlan('wildlife trail camera', skb.schema), limit: 5 },
        ].map((job) => (variant ? { ...job, plan: toVariantPlan(job.plan) } : job));
      await checkTraverserStoreIsolation(
        traverser,
        [
          { context, jobs: jobs(false) },
          { context: contextOf(variantSkb()), jobs: jobs(true) },
        ],
        { deterministic, isomorphic: true },
      );
    });

    it.each(['before', 'during'] as const)(
      'settles when the signal aborts %s its first store call, making no LLM call after it',
      async (moment) => {
        await checkStageAbort({
          base: context,
          moment,
          run: (on) => {
            const job = { query: 'Nikon gear for wildlife', plan: toyNikonPlan(), limit: 10 };
            const prepared = prepareLikePipeline(traverser, job, on);
            return traverser.doTraverse({
              ...job,
              context: on,
              ...(prepared !== undefined ? { prepared } : {}),
            });
          },
          check: (candidates) => expectWellFormed(candidates, 10),
        });
      },
    );

    it('never sends the text index more queries per call than it accepts', async () => {
      const { context: limited, recording } = batchLimitedContext(context, 1);
      for (const job of batchJobs()) {
        const prepared = prepareLikePipeline(traverser, job, limited);
        await traverser.doTraverse({
          ...job,
          context: limited,
          ...(prepared !== undefined ? { prepared } : {}),
        });
      }
      expectNoOversizedBatches(recording);
    });
  });
}

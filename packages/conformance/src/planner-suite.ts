import type { CriticFeedback, Plan, PlannerV1, RetrievalContext } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { awkwardQueries } from './awkward-queries.ts';
import { batchLimitedContext, expectNoOversizedBatches } from './batch-limited-context.ts';
import { checkStageAbort } from './check-stage-abort.ts';
import { criticFeedbackKinds } from './critic-feedback-kinds.ts';
import { anchorNodeProblems, planProblems } from './plan-problems.ts';
import { storeContext } from './store-context.ts';
import { toySkb } from '@weft/core/test';
import { variantId, variantSkb } from './variant-skb.ts';

export interface PlannerSuiteOptions {
  /** Shown in test names. */
  readonly name: string;
  /**
   * Builds the planner. `context` is the toy store's; the suite also plans with that one instance
   * over other contexts (a second store, stores that abort), as the pipeline may.
   */
  create(context: RetrievalContext): Promise<PlannerV1>;
  /** Adds what the planner needs to every context the suite builds: a language model, artifacts. */
  readonly prepareContext?: (context: RetrievalContext) => RetrievalContext;
  /**
   * The planner links mentions to nodes (default true): a query naming "Nikon" gets an anchor on
   * the brand. Set false for planners that only predict types or paths from text.
   */
  readonly linksEntities?: boolean;
  /**
   * The same query over the same store gives the same plan (default true). Set false for planners
   * that sample; the two-store case then checks only that each plan fits its own store.
   */
  readonly deterministic?: boolean;
}

/** Queries with an entity, a relation and a restriction, answerable in the toy camera shop. */
export const plannerQueries = [
  'cameras made by Nikon for wildlife',
  'lenses compatible with the Nikon D850',
  'Which Canon products are DSLR cameras?',
] as const;

/** Planning problems of `plan` for `query` over `context`: the plan must fit that store. */
async function problemsOf(plan: Plan, query: string, context: RetrievalContext): Promise<string[]> {
  return [
    ...(plan.query === query ? [] : [`plan.query is ${JSON.stringify(plan.query)}, not the query asked`]),
    ...planProblems(plan, context.schema),
    ...(await anchorNodeProblems(plan, context.graph)),
  ];
}

const linkedIds = (plan: Plan) => plan.anchors.flatMap((a) => a.candidates.map((c) => c.id));

/**
 * One planner instance over two stores at once (the pipeline shares stage instances between
 * stores and queries): each plan must fit the store it was asked about — its types, its nodes —
 * and, for a deterministic planner, equal the plan made for that store alone.
 */
export async function checkPlannerStoreIsolation(
  planner: PlannerV1,
  contexts: readonly [RetrievalContext, RetrievalContext],
  options: {
    readonly deterministic: boolean;
    readonly linksEntities: boolean;
    readonly expectLinked?: readonly [string, string];
  },
): Promise<void> {
  const plan = (query: string, context: RetrievalContext) => planner.doPlan({ query, feedback: [], context });
  const queries = plannerQueries.slice(0, 2);
  // Alone: one store after the other (a plan cached for the first store shows on the second).
  const alone = new Map<string, Plan>();
  for (const [s, context] of contexts.entries())
    for (const query of queries) alone.set(`${s} ${query}`, await plan(query, context));
  // Interleaved and concurrent: the same queries over both stores at once.
  const jobs = queries.flatMap((query) => contexts.map((context, s) => ({ query, context, s })));
  const together = await Promise.all(jobs.map(({ query, context }) => plan(query, context)));
  for (const [j, { query, context, s }] of jobs.entries()) {
    for (const [label, result] of [
      ['alone', alone.get(`${s} ${query}`)!],
      ['concurrently', together[j]!],
    ] as const) {
      expect(
        await problemsOf(result, query, context),
        `store ${s + 1} (${context.schema.name}), ${label}: ${query}`,
      ).toEqual([]);
    }
    if (options.deterministic)
      expect(
        together[j],
        `store ${s + 1}: the plan made concurrently differs from the plan made alone`,
      ).toEqual(alone.get(`${s} ${query}`));
  }
  if (options.linksEntities && options.expectLinked) {
    // Without links in both stores, the check above would hold vacuously.
    for (const [s, context] of contexts.entries())
      expect(
        linkedIds(alone.get(`${s} ${queries[0]}`)!),
        `store ${s + 1} (${context.schema.name})`,
      ).toContain(options.expectLinked[s]);
  }
}

/**
 * The `PlannerV1` contract: plans that only name the store's node and edge types and nodes, scores in
 * [0, 1], paths and triplets referencing existing anchors and variables; no throw on awkward
 * queries or on feedback; the abort contract; one instance serving two stores at once; text
 * searches within the index's batch size.
 */
export function runPlannerSuite(options: PlannerSuiteOptions): void {
  const prepare = options.prepareContext ?? ((context: RetrievalContext) => context);
  const linksEntities = options.linksEntities ?? true;
  const deterministic = options.deterministic ?? true;
  describe(`Planner conformance: ${options.name}`, () => {
    const context = prepare(storeContext(toySkb()));
    let planner: PlannerV1;
    beforeAll(async () => {
      planner = await options.create(context);
    });
    const plan = (
      query: string,
      on: RetrievalContext = context,
      extra: Partial<Parameters<PlannerV1['doPlan']>[0]> = {},
    ) => planner.doPlan({ query, feedback: [], context: on, ...extra });

    it('declares the v1 specification and a name', () => {
      expect(planner.specificationVersion).toBe('v1');
      expect(typeof planner.name).toBe('string');
      expect(planner.name.length).toBeGreaterThan(0);
    });

    it.each(plannerQueries)(
      'plans %j with the schema’s types, existing nodes and valid references',
      async (query) => {
        const result = await plan(query);
        expect(await problemsOf(result, query, context)).toEqual([]);
      },
    );

    it.runIf(linksEntities)('links the entity a query names to its node', async () => {
      const result = await plan(plannerQueries[0]);
      expect(linkedIds(result)).toContain('b:nikon');
    });

    it.each(awkwardQueries)('plans an awkward query without throwing: %s', async (_label, query) => {
      const result = await plan(query);
      expect(await problemsOf(result, query, context)).toEqual([]);
    });

    it('replans with feedback of every kind and the previous plan', async () => {
      const query = plannerQueries[0];
      const previous = await plan(query);
      const feedback: CriticFeedback[] = criticFeedbackKinds.map((kind, i) => ({
        kind,
        message: `${kind}: check the plan again`,
        ...(i % 2 === 0 ? { entity: i === 0 ? 'Nikon' : 'no such thing' } : {}),
      }));
      for (const round of [feedback.slice(0, 1), feedback]) {
        const next = await plan(query, context, { feedback: round, previous });
        expect(await problemsOf(next, query, context)).toEqual([]);
      }
    });

    it('settles when the signal has already aborted, making no LLM call', async () => {
      await checkStageAbort({
        base: context,
        moment: 'before',
        run: (on) => plan(plannerQueries[0], on),
        check: async (result) => expect(await problemsOf(result, plannerQueries[0], context)).toEqual([]),
      });
    });

    it('settles when the signal aborts during its first store or LLM call', async () => {
      await checkStageAbort({
        base: context,
        moment: 'during',
        run: (on) => plan(plannerQueries[1], on),
        check: async (result) => expect(await problemsOf(result, plannerQueries[1], context)).toEqual([]),
      });
    });

    it('serves two stores at once from one instance, each plan from its own store', async () => {
      const second = prepare(storeContext(variantSkb()));
      await checkPlannerStoreIsolation(planner, [context, second], {
        deterministic,
        linksEntities,
        expectLinked: ['b:nikon', variantId('b:nikon')],
      });
    });

    it('never sends the text index more queries per call than it accepts', async () => {
      const { context: limited, recording } = batchLimitedContext(context, 1);
      // A parenthesised aside and a quoted name: planners often search those apart from the query.
      for (const query of [...plannerQueries, 'the "Nikon D850" (a full-frame DSLR) lenses (telephoto)'])
        await plan(query, limited);
      expectNoOversizedBatches(recording);
    });
  });
}

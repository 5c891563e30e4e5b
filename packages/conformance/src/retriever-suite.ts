import { WeftError } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { RetrievalContext, RetrievalResult, RetrievalTrace, RetrieverV1, SkbSchema } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { abortingContext } from './aborting-context.ts';
import { awkwardQueries } from './awkward-queries.ts';
import { batchLimitedContext, expectNoOversizedBatches } from './batch-limited-context.ts';
import { criticFeedbackKinds } from './critic-feedback-kinds.ts';
import { crowdedSkb } from './crowded-skb.ts';
import { describeError } from './is-abort-error.ts';
import { planProblems } from './plan-problems.ts';
import { storeContext } from './store-context.ts';

export interface RetrieverSuiteOptions {
  /** Shown in test names. */
  readonly name: string;
  /**
   * Builds the retriever over `context`. Called once per store the suite uses: the toy camera shop,
   * a larger one, stores whose calls abort or record their batches.
   */
  create(context: RetrievalContext): Promise<RetrieverV1>;
  /** Adds what the retriever needs to every context the suite builds: a language model, artifacts. */
  readonly prepareContext?: (context: RetrievalContext) => RetrievalContext;
  /** Give the contexts a vector index and its query model (default true). */
  readonly vectors?: boolean;
}

/** Queries whose answers are products of the toy camera shop. */
export const retrieverQueries = [
  'telephoto zoom lens',
  'cameras made by Nikon for wildlife',
  'lenses compatible with the Nikon D850',
] as const;

const stageKinds = new Set(['expander', 'planner', 'traverser', 'fusion', 'reranker', 'critic']);
const knownKinds: ReadonlySet<string> = new Set(criticFeedbackKinds);
const count = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;
const time = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;

/**
 * What is inconsistent in a trace, one line per problem (empty when nothing): it names the query
 * asked and the stack; stages have known kinds, names, rounds within `rounds`, non-negative times
 * that end within the whole duration, and call and token counts that add up to no more than the
 * trace's; feedback is of known kinds; the final plan, when there is one, fits `schema`.
 */
export function traceProblems(
  trace: RetrievalTrace,
  expected: { readonly query: string; readonly stack: string; readonly schema: SkbSchema },
): string[] {
  const problems: string[] = [];
  if (trace.query !== expected.query)
    problems.push(
      `trace.query is ${JSON.stringify(trace.query)}, not the query asked (${JSON.stringify(expected.query)})`,
    );
  if (trace.stack !== expected.stack)
    problems.push(
      `trace.stack is ${JSON.stringify(trace.stack)}, not the retriever's name "${expected.stack}"`,
    );
  if (!Number.isInteger(trace.rounds) || trace.rounds < 1)
    problems.push(`rounds is ${trace.rounds}, not a positive integer`);
  for (const field of ['llmCalls', 'inputTokens', 'outputTokens'] as const)
    if (!count(trace[field])) problems.push(`${field} is ${trace[field]}, not a count`);
  if (!time(trace.durationMs)) problems.push(`durationMs is ${trace.durationMs}`);
  const sums = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  trace.stages.forEach((stage, i) => {
    const at = `stages[${i}] (${stage.kind} "${stage.name}")`;
    if (!stageKinds.has(stage.kind)) problems.push(`${at}: unknown kind`);
    if (typeof stage.name !== 'string' || stage.name === '') problems.push(`${at}: no name`);
    if (!Number.isInteger(stage.round) || stage.round < 0 || stage.round >= trace.rounds)
      problems.push(`${at}: round ${stage.round} outside 0..${trace.rounds - 1}`);
    if (!time(stage.startedAtMs) || !time(stage.durationMs))
      problems.push(`${at}: times ${stage.startedAtMs} + ${stage.durationMs}`);
    // Stages run inside the retrieval: each ends before the whole does (a thousandth of a ms of slack
    // for floating-point sums).
    else if (stage.startedAtMs + stage.durationMs > trace.durationMs + 1e-3)
      problems.push(
        `${at}: ends at ${stage.startedAtMs + stage.durationMs} ms, after the retrieval (${trace.durationMs} ms)`,
      );
    for (const field of ['llmCalls', 'inputTokens', 'outputTokens'] as const) {
      if (!count(stage[field])) problems.push(`${at}: ${field} is ${stage[field]}, not a count`);
      else sums[field] += stage[field];
    }
  });
  for (const field of ['llmCalls', 'inputTokens', 'outputTokens'] as const)
    if (sums[field] > trace[field])
      problems.push(`stages' ${field} add up to ${sums[field]}, more than the trace's ${trace[field]}`);
  if (!Array.isArray(trace.feedback)) problems.push('feedback is not a list');
  else
    trace.feedback.forEach((f, i) => {
      if (!knownKinds.has(f.kind)) problems.push(`feedback[${i}]: unknown kind ${JSON.stringify(f.kind)}`);
    });
  if (trace.plan) problems.push(...planProblems(trace.plan, expected.schema).map((p) => `plan: ${p}`));
  return problems;
}

/**
 * What is wrong with a result, one line per problem: the ranking holds at most `limit` distinct
 * nodes of the store, of its target types (when the schema names them), with finite scores that
 * never increase down the list; and the trace is consistent (`traceProblems`).
 */
export async function resultProblems(
  result: RetrievalResult,
  expected: {
    readonly query: string;
    readonly stack: string;
    readonly limit: number;
    readonly context: RetrievalContext;
  },
): Promise<string[]> {
  const { ranking } = result;
  const problems: string[] = [];
  if (ranking.length > expected.limit)
    problems.push(`${ranking.length} results, over the limit of ${expected.limit}`);
  const ids = ranking.map((c) => c.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) problems.push(`repeated ids: ${[...new Set(repeated)].join(', ')}`);
  ranking.forEach((c, i) => {
    if (!Number.isFinite(c.score)) problems.push(`ranking[${i}] (${c.id}): score ${c.score}`);
    else if (i > 0 && c.score > ranking[i - 1]!.score)
      problems.push(
        `ranking[${i}] (${c.id}): score ${c.score} above the one before (${ranking[i - 1]!.score})`,
      );
  });
  const nodes = ids.length > 0 ? await expected.context.graph.doGetNodes(ids) : [];
  const targets = expected.context.schema.targetTypes;
  nodes.forEach((node, i) => {
    if (!node) problems.push(`ranking[${i}]: "${ids[i]}" is not a node of the store`);
    else if (targets && !targets.includes(node.type))
      problems.push(
        `ranking[${i}]: "${ids[i]}" is a ${node.type}, not a target type (${targets.join(', ')})`,
      );
  });
  problems.push(...traceProblems(result.trace, { ...expected, schema: expected.context.schema }));
  return problems;
}

/**
 * The `RetrieverV1` contract: a ranking of distinct store nodes of the target types, best first,
 * within the limit (20 by default); a consistent trace; no throw on empty or awkward queries; bad
 * limits rejected with `WEFT_BAD_INPUT`; aborts reported as `WEFT_ABORTED`; text searches within
 * the index's batch size.
 */
export function runRetrieverSuite(options: RetrieverSuiteOptions): void {
  const prepare = options.prepareContext ?? ((context: RetrievalContext) => context);
  const contextOf = (skb: ReturnType<typeof toySkb>) =>
    prepare(storeContext(skb, { vectors: options.vectors ?? true }));
  describe(`Retriever conformance: ${options.name}`, () => {
    const context = contextOf(toySkb());
    let shared: Promise<RetrieverV1> | undefined;
    const retriever = () => {
      shared ??= options.create(context);
      return shared;
    };
    const check = async (
      result: RetrievalResult,
      query: string,
      limit: number,
      on: RetrievalContext = context,
    ) =>
      expect(
        await resultProblems(result, { query, stack: (await retriever()).name, limit, context: on }),
      ).toEqual([]);

    it('declares the v1 specification and a name', async () => {
      const built = await retriever();
      expect(built.specificationVersion).toBe('v1');
      expect(typeof built.name).toBe('string');
      expect(built.name.length).toBeGreaterThan(0);
    });

    it.each(retrieverQueries)(
      'ranks distinct target nodes for %j, best first, with a consistent trace',
      async (query) => {
        const result = await (await retriever()).doRetrieve({ query, limit: 5 });
        await check(result, query, 5);
      },
    );

    it('finds the product whose document matches the words', async () => {
      const { ranking } = await (await retriever()).doRetrieve({
        query: 'motion triggered trail camera night vision',
        limit: 5,
      });
      expect(ranking.map((c) => c.id)).toContain('p:trailcam');
    });

    it('honours the limit, 20 by default', async () => {
      const crowded = contextOf(crowdedSkb(30));
      const built = await options.create(crowded);
      const query = 'lens cap';
      const byDefault = await built.doRetrieve({ query });
      await check(byDefault, query, 20, crowded);
      expect(byDefault.ranking.length, 'thirty matching products exist').toBeGreaterThan(0);
      for (const limit of [1, 3, 25]) {
        const result = await built.doRetrieve({ query, limit });
        await check(result, query, limit, crowded);
        expect(result.ranking.length).toBeGreaterThan(0);
      }
    });

    it.each(awkwardQueries)('answers an awkward query without throwing: %s', async (_label, query) => {
      const result = await (await retriever()).doRetrieve({ query, limit: 5 });
      await check(result, query, 5);
    });

    it.each([0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY])(
      'rejects the limit %s with WEFT_BAD_INPUT',
      async (limit) => {
        await expect((await retriever()).doRetrieve({ query: retrieverQueries[0], limit })).rejects.toSatisfy(
          (error) => WeftError.is(error, 'WEFT_BAD_INPUT'),
        );
      },
    );

    it.each(['before', 'during'] as const)(
      'rejects with WEFT_ABORTED when the signal aborts %s its first store call, making no LLM call after it',
      async (moment) => {
        const aborting = abortingContext(context, moment);
        // The retriever gets the signal through its options, not its context.
        const { abortSignal: _, ...stores } = aborting.context;
        const built = await options.create(stores);
        const outcome = await built
          .doRetrieve({ query: retrieverQueries[1], abortSignal: aborting.signal })
          .then(
            (result) => `resolved with ${result.ranking.length} results`,
            (error: unknown) => error,
          );
        expect(
          WeftError.is(outcome, 'WEFT_ABORTED'),
          `expected WeftError WEFT_ABORTED, got ${typeof outcome === 'string' ? outcome : describeError(outcome)}`,
        ).toBe(true);
        expect(aborting.llmCallsAfterAbort(), 'LLM calls started after the signal aborted').toBe(0);
      },
    );

    it('never sends the text index more queries per call than it accepts', async () => {
      const { context: limited, recording } = batchLimitedContext(context, 1);
      const built = await options.create(limited);
      for (const query of retrieverQueries) await built.doRetrieve({ query, limit: 10 });
      expectNoOversizedBatches(recording);
    });
  });
}

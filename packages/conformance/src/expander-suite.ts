import { toySkb } from '@weft/core/test';
import type { Expansion, ExpanderV1, RetrievalContext, SkbSchema } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { awkwardQueries } from './awkward-queries.ts';
import { batchLimitedContext, expectNoOversizedBatches } from './batch-limited-context.ts';
import { checkStageAbort } from './check-stage-abort.ts';
import { storeContext } from './store-context.ts';
import { variantSkb } from './variant-skb.ts';

export interface ExpanderSuiteOptions {
  /** Shown in test names. */
  readonly name: string;
  /** Builds the expander. `context` is the toy store's; the suite also uses the instance over a second store. */
  create(context: RetrievalContext): Promise<ExpanderV1>;
  /** Adds what the expander needs to every context the suite builds: a language model, artifacts. */
  readonly prepareContext?: (context: RetrievalContext) => RetrievalContext;
  /**
   * The same query over the same store gives the same expansion (default true). Set false for
   * expanders that sample; the two-store case then checks only the shape of each expansion.
   */
  readonly deterministic?: boolean;
}

/** Queries naming entities of the toy camera shop, with relations to expand. */
export const expanderQueries = [
  'lenses that fit the Nikon D850',
  'What does Leica make?',
  'wildlife cameras',
] as const;

/** Case, Unicode form and spacing do not count when comparing queries. */
const normalized = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * What is wrong with an expansion of `original`, one line per problem (empty when nothing). The
 * rule: the expanded query keeps the user's words — `query` contains the original query (ignoring
 * case, Unicode form and runs of whitespace) — and when `expansion` is empty, nothing was added, so
 * `query` is the original. An expander that rewrites the query instead must say so through
 * `context.warn` during the call (the pipeline puts it in the trace); `warned` is what it reported.
 * Triples are three non-empty strings.
 */
export function expansionProblems(
  original: string,
  expansion: Expansion,
  warned: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  if (typeof expansion?.query !== 'string') return ['query is not a string'];
  if (typeof expansion.expansion !== 'string') problems.push('expansion is not a string');
  if (!Array.isArray(expansion.triples)) problems.push('triples is not a list');
  else
    expansion.triples.forEach((triple, i) => {
      for (const part of ['subject', 'relation', 'object'] as const) {
        const value = triple?.[part];
        if (typeof value !== 'string' || value.trim() === '')
          problems.push(`triples[${i}].${part} is ${JSON.stringify(value)}, not a non-empty string`);
      }
    });
  if (warned.length === 0) {
    const query = normalized(expansion.query);
    if (!query.includes(normalized(original)))
      problems.push(
        `the query ${JSON.stringify(expansion.query)} drops words of ${JSON.stringify(original)} without a warning (context.warn) saying why`,
      );
    else if (
      typeof expansion.expansion === 'string' &&
      expansion.expansion.trim() === '' &&
      query !== normalized(original)
    )
      problems.push(
        `nothing was expanded (empty expansion), yet the query changed to ${JSON.stringify(expansion.query)}`,
      );
  }
  return problems;
}

/** Relations of `expansion` that name an edge type of `other` (by name or description) and none of `own`. */
function foreignRelations(expansion: Expansion, own: SkbSchema, other: SkbSchema): string[] {
  const names = (schema: SkbSchema) =>
    new Set(
      schema.edgeTypes
        .flatMap((t) => [t.name, t.description ?? ''])
        .filter(Boolean)
        .map(normalized),
    );
  const ownNames = names(own);
  const otherNames = names(other);
  return expansion.triples
    .map((t) => normalized(t.relation))
    .filter((relation) => otherNames.has(relation) && !ownNames.has(relation));
}

/**
 * The `ExpanderV1` contract: an expansion that keeps the user's query (or warns), well-formed
 * triples, no throw on empty or awkward queries, the abort contract, one instance serving two stores
 * at once, text searches within the index's batch size.
 */
export function runExpanderSuite(options: ExpanderSuiteOptions): void {
  const prepare = options.prepareContext ?? ((context: RetrievalContext) => context);
  const deterministic = options.deterministic ?? true;
  describe(`Expander conformance: ${options.name}`, () => {
    const context = prepare(storeContext(toySkb()));
    let expander: ExpanderV1;
    beforeAll(async () => {
      expander = await options.create(context);
    });
    /** Expands `query` over `on`, collecting what the expander reports through `warn`. */
    const expand = async (query: string, on: RetrievalContext = context) => {
      const warned: string[] = [];
      const expansion = await expander.doExpand({
        query,
        context: { ...on, warn: (message) => warned.push(message) },
      });
      return { expansion, warned };
    };

    it('declares the v1 specification and a name', () => {
      expect(expander.specificationVersion).toBe('v1');
      expect(typeof expander.name).toBe('string');
      expect(expander.name.length).toBeGreaterThan(0);
    });

    it.each(expanderQueries)('expands %j keeping the query, with well-formed triples', async (query) => {
      const { expansion, warned } = await expand(query);
      expect(expansionProblems(query, expansion, warned)).toEqual([]);
    });

    it.each(awkwardQueries)('expands an awkward query without throwing: %s', async (_label, query) => {
      const { expansion, warned } = await expand(query);
      expect(expansionProblems(query, expansion, warned)).toEqual([]);
    });

    it.each(['before', 'during'] as const)(
      'settles when the signal aborts %s its first store call, making no LLM call after it',
      async (moment) => {
        const warned: string[] = [];
        await checkStageAbort({
          base: context,
          moment,
          run: (on) =>
            expander.doExpand({
              query: expanderQueries[0],
              context: { ...on, warn: (message) => warned.push(message) },
            }),
          check: (expansion) => expect(expansionProblems(expanderQueries[0], expansion, warned)).toEqual([]),
        });
      },
    );

    it('serves two stores at once from one instance, each from its own store', async () => {
      const stores = [context, prepare(storeContext(variantSkb()))];
      const queries = expanderQueries.slice(0, 2);
      const alone = new Map<string, Awaited<ReturnType<typeof expand>>>();
      for (const [s, on] of stores.entries())
        for (const query of queries) alone.set(`${s} ${query}`, await expand(query, on));
      const jobs = queries.flatMap((query) => stores.map((on, s) => ({ query, on, s })));
      const together = await Promise.all(jobs.map(({ query, on }) => expand(query, on)));
      for (const query of queries)
        expect(
          alone.get(`1 ${query}`)!.expansion.triples.length,
          `${JSON.stringify(query)}: the second store is the first under other names, yet the triples found differ in number`,
        ).toBe(alone.get(`0 ${query}`)!.expansion.triples.length);
      for (const [j, { query, s }] of jobs.entries()) {
        const result = together[j]!;
        expect(expansionProblems(query, result.expansion, result.warned), `store ${s + 1}`).toEqual([]);
        const own = stores[s]!.schema;
        const other = stores[1 - s]!.schema;
        expect(
          foreignRelations(result.expansion, own, other),
          `store ${s + 1}: relations of the other store`,
        ).toEqual([]);
        if (deterministic)
          expect(
            result.expansion,
            `store ${s + 1}: the expansion made concurrently differs from the one made alone`,
          ).toEqual(alone.get(`${s} ${query}`)!.expansion);
      }
    });

    it('never sends the text index more queries per call than it accepts', async () => {
      const { context: limited, recording } = batchLimitedContext(context, 1);
      for (const query of expanderQueries) await expand(query, limited);
      expectNoOversizedBatches(recording);
    });
  });
}

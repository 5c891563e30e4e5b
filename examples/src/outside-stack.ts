// A stack from outside Weft — a traverser of its own, trained by `weft train` — as a package of
// yours would ship it, with no edit to Weft: copy this file into your package as `index.ts` (or
// compile it to .js), install `@weft/kit` (and `@weft/spec`, `@weft/stacks` for the types), and
// name the module with `--stacks`:
//
//   weft train <bundle> --db <store> --stacks ./my-weft-stack/index.ts --stack type-weighted-bm25
//   weft eval <bundle> --db <store> --stacks ./my-weft-stack/index.ts --stack type-weighted-bm25
//
// `outside-stack.int.test.ts` does exactly that from a temp folder outside the workspace. At run
// time the module imports only @weft/kit; everything else it names is a type.
//
// The traverser ranks BM25's matches with each node type's learned answer rate: the training step
// counts, over the labelled train queries, how often a BM25 match of each type was an answer, and
// stores that as a versioned artifact the traverser reads.
import type { StackDefinition } from '@weft/core';
import {
  ArtifactCache,
  artifactName,
  balancedQueries,
  defineArtifact,
  searchText,
  WeftError,
} from '@weft/kit';
import type { Candidate, RetrievalContext, TrainingStepV1, TraverseOptions, TraverserV1 } from '@weft/spec';
import type { StackEntry } from '@weft/stacks';

const name = 'type-weighted-bm25';
/** How many BM25 matches the traverser ranks, and the training counts. */
const searchK = 50;

interface TypeRates {
  readonly answerRate: Readonly<Record<string, number>>;
}

// Bump the version when the shape or meaning of what is stored changes: older stores say "retrain".
const typeRatesArtifact = defineArtifact<TypeRates>({ kind: 'outside-type-rates', version: 1 });
const ratesRef = typeRatesArtifact.ref(artifactName(name, 'type-rates'));

async function bm25(query: string, context: RetrievalContext) {
  const [hits = []] = await searchText(context.text, [query], {
    limit: searchK,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  return hits;
}

export class TypeWeightedTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'type-weighted';
  // Loaded once per store; untrained, every type weighs the same (and the trace says why).
  private readonly rates = new ArtifactCache(typeRatesArtifact);

  async doTraverse({ query, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const rates = await this.rates.get(context, ratesRef.name);
    const hits = await bm25(query, context);
    const nodes = await context.graph.doGetNodes(hits.map((h) => h.id));
    return hits
      .map((hit, i) => {
        const type = nodes[i]?.type ?? hit.type ?? '';
        const weight = rates ? 0.5 + (rates.answerRate[type] ?? 0) : 1;
        return {
          id: hit.id,
          type,
          score: hit.score * weight,
          scores: { bm25: hit.score },
          trajectories: [{ hops: [{ node: hit.id, via: 'text' as const }] }],
        };
      })
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, limit);
  }
}

export const typeRatesTraining: TrainingStepV1 = {
  specificationVersion: 'v1',
  id: name,
  description: "per node type, the share of BM25's matches that were answers",
  learnsFrom: ['labelled'],
  reads: [],
  writes: [ratesRef],
  async doTrain({ context, sets }) {
    const queries = balancedQueries(sets, 'train', 200);
    if (queries.length === 0)
      throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `${name}: no labelled train queries` });
    const seen = new Map<string, { answers: number; all: number }>();
    for (const { query, weight } of queries) {
      const hits = await bm25(query.query, context);
      const nodes = await context.graph.doGetNodes(hits.map((h) => h.id));
      hits.forEach((hit, i) => {
        const type = nodes[i]?.type ?? '';
        const count = seen.get(type) ?? { answers: 0, all: 0 };
        count.all += weight;
        if (query.answers.includes(hit.id)) count.answers += weight;
        seen.set(type, count);
      });
    }
    const answerRate = Object.fromEntries([...seen].map(([type, c]) => [type, c.answers / c.all]));
    await typeRatesArtifact.save(context.artifacts, ratesRef, { answerRate });
    return {
      summary: `answer rate by type from ${queries.length} queries: ${Object.entries(answerRate)
        .map(([type, rate]) => `${type} ${rate.toFixed(2)}`)
        .join(', ')}`,
    };
  },
};

const stack: StackEntry = {
  name,
  description: "BM25 weighted by each node type's learned answer rate (a stack from outside Weft)",
  create: (store): StackDefinition => ({
    name,
    context: store.context,
    traversers: [new TypeWeightedTraverser()],
    llmBudget: 0,
  }),
  training: [typeRatesTraining],
};

/** What `weft … --stacks <this module>` registers. */
export const stacks: StackEntry[] = [stack];

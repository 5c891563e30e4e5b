import { planEndpoints } from '@weft/kit';
import type { Candidate, PrepareOptions, TraverserV1, TraverseOptions } from '@weft/spec';
import { addStructural, anchorNeighbours, structuralIds } from './anchor-adjacency.ts';
import { assembleCandidates } from './assemble-candidates.ts';
import { add, emptyPool, join } from './candidate-pool.ts';
import { candidateNeighbours, readNeighbours } from './candidate-neighbours.ts';
import { completeScores, type GlobalSearches, globalSearches, scoreIds } from './field-searches.ts';
import type { FieldTraverserOptions } from './options.ts';

/**
 * One list of candidates with every score a relation-aware ranker needs (see `KnownScores`): BM25 of
 * the node's own document (`bm25`) and of its relation-aware document (`bm25Relations`, the
 * `combined` field), dense similarity (`dense`), adjacency to the nodes the query names
 * (`anchorLink`, with the relation's planned probability in `relationMatch`), whether the node is
 * itself named (`anchorSelf`), and the plan's type score (`targetType`). Candidates are the union of
 * the three rankings and of the mentioned nodes' neighbours; adjacency is checked from both sides, so
 * a hub's neighbours are found from the candidate side even when the hub's own list is cut.
 * Untrained order: `untrainedScore`.
 *
 * The jobs live beside it: the query-only and id-filtered searches (`field-searches.ts`), the
 * candidate pool (`candidate-pool.ts`), the mentioned nodes' neighbourhood (`anchor-adjacency.ts`),
 * the candidates' own neighbours and the described text (`candidate-neighbours.ts`), the query-graph
 * readings' endpoints (`reading-endpoints.ts`) and the score assembly (`assemble-candidates.ts`).
 */
export class FieldTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: FieldTraverserOptions;

  constructor(options: FieldTraverserOptions = {}) {
    this.name = options.name ?? 'fields';
    this.options = options;
  }

  doPrepare({ query, limit, context }: PrepareOptions): GlobalSearches {
    return globalSearches(query, limit, context, this.options);
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { query, plan, limit, context } = options;
    if (query.trim() === '') return [];
    const searches =
      (options.prepared as GlobalSearches | undefined) ?? globalSearches(query, limit, context, this.options);
    const k = this.options.searchK ?? limit;
    const pool = emptyPool();
    const [document, combined, dense, described, structural] = await Promise.all([
      searches.document,
      searches.combined,
      searches.dense,
      searches.described,
      anchorNeighbours(plan, context, this.options),
    ]);
    add(pool, document, pool.document, k);
    if (combined) add(pool, combined, pool.combined, k);
    const textual = new Set(pool.ids);
    if (dense) {
      add(pool, dense, pool.dense, k);
      for (const hit of dense.slice(k)) pool.dense.set(hit.id, hit.score);
    }
    // One document search scores the mentions' neighbours (which of them join) and every other
    // candidate the rankings found without a document score. When all the neighbours join (no more
    // than `structuralK`), the candidates are known now and their relation-aware scores are searched
    // at the same time; else once the neighbours are chosen (`completeScores`).
    const endpoints = planEndpoints(plan).map((e) => e.id);
    const neighbours = structuralIds(structural, context);
    const joining = neighbours.length <= (this.options.structuralK ?? 100);
    const candidates = [...pool.ids, ...(joining ? neighbours : []), ...endpoints];
    const known = {
      document: scoreIds(
        query,
        [...neighbours, ...candidates.filter((id) => !pool.document.has(id))],
        undefined,
        context,
      ),
      ...(combined && joining
        ? {
            combined: scoreIds(
              query,
              candidates.filter((id) => !pool.combined.has(id)),
              'combined',
              context,
            ),
          }
        : {}),
    };
    known.document.catch(() => {});
    known.combined?.catch(() => {});
    // With every candidate known, their neighbours and the described documents are read now too.
    const adjacent = new Set(neighbours);
    const reads = joining
      ? readNeighbours(
          query,
          plan,
          described,
          {
            ids: [...new Set(candidates)],
            adjacent: (id) => adjacent.has(id),
            textual: new Set([
              ...textual,
              ...candidates.filter((id) => !pool.dense.has(id) || adjacent.has(id)),
            ]),
          },
          context,
          this.options,
        )
      : undefined;
    await addStructural(query, structural, pool, context, this.options, known.document);
    for (const id of endpoints) join(pool, id);
    for (const id of pool.ids) if (!pool.dense.has(id) || pool.adjacency.has(id)) textual.add(id);
    // The candidates' neighbours are read while their missing text scores are searched; the
    // coherence that reads those scores waits for them (`candidateNeighbours`).
    const scored = completeScores(query, pool, context, combined !== undefined, known);
    // Neither coherence nor `neighbourText` rests on the dense ranking: it differs between two
    // stores with the same documents (the embedder is fitted per store), their answers must not.
    const matched = new Set(document.slice(0, k).map((hit) => hit.id));
    await Promise.all([
      scored,
      candidateNeighbours(
        query,
        plan,
        described,
        { matched, textual },
        pool,
        context,
        this.options,
        scored,
        reads,
      ),
    ]);
    if (dense) {
      const floor = dense.at(-1)?.score ?? 0;
      for (const id of pool.ids) if (!pool.dense.has(id)) pool.dense.set(id, floor);
    }
    return assembleCandidates(plan, pool, limit, this.name, this.options);
  }
}

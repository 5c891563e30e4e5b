import { emptyPlan, searchText } from '@weft/kit';
import { toyContext, toySkb } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { candidateNeighbours, readNeighbours } from './candidate-neighbours.ts';
import { emptyPool, join, type Pool } from './candidate-pool.ts';

const context = toyContext();
const nikon = { mention: 'Nikon', confidence: 0.9, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] };

describe('candidateNeighbours', () => {
  it('takes the reads started before the candidates were ordered, ranking as if it read them itself', async () => {
    const query = 'a rugged DSLR from Nikon, the Japanese maker of lenses';
    const plan: Plan = { ...emptyPlan(query, context.schema), anchors: [nikon] };
    const [described = []] = await searchText(context.text, [query], { limit: 10 });
    const products = toySkb().nodes.filter((n) => n.type === 'product');
    const pool = (): Pool => {
      const out = emptyPool();
      products.forEach((node, i) => {
        join(out, node.id);
        out.document.set(node.id, products.length - i);
      });
      return out;
    };
    const textual = new Set(products.map((n) => n.id));
    const matched = new Set(products.slice(0, 3).map((n) => n.id));
    const own = pool();
    await candidateNeighbours(query, plan, described, { matched, textual }, own, context, {});
    // Read for the same candidates in another order, before the pool held them.
    const reads = readNeighbours(
      query,
      plan,
      described,
      { ids: [...textual].reverse(), adjacent: () => false, textual },
      context,
      {},
    );
    const early = pool();
    await candidateNeighbours(
      query,
      plan,
      described,
      { matched, textual },
      early,
      context,
      {},
      undefined,
      reads,
    );
    expect(own.neighbourText.size).toBeGreaterThan(0);
    expect([...early.neighbourText]).toEqual([...own.neighbourText]);
    expect([...early.adjacency]).toEqual([...own.adjacency]);
    // Reads of other candidates are not taken.
    const other = readNeighbours(
      query,
      plan,
      described,
      { ids: [products[0]!.id], adjacent: () => false, textual },
      context,
      {},
    );
    const fallback = pool();
    await candidateNeighbours(
      query,
      plan,
      described,
      { matched, textual },
      fallback,
      context,
      {},
      undefined,
      other,
    );
    expect([...fallback.neighbourText]).toEqual([...own.neighbourText]);
    expect([...fallback.adjacency]).toEqual([...own.adjacency]);
  });
});

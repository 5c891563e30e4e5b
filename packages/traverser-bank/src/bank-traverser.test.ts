import { runTraverserSuite } from '@weft/conformance';
import { emptyPlan, searchText } from '@weft/kit';
import { toyContext, toySkb } from '@weft/core/test';
import { type ActionChoice, writeBankAction } from '@weft/ego-graph';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { BankTraverser, RetrieverBank, type RetrieverBankOptions } from './bank-traverser.ts';

const schema = toySkb().schema;
const query = 'DSLR for wildlife with fast autofocus';

/** Nikon and the DSLR category named, nothing planned yet. */
function linked(q = query): Plan {
  return {
    ...emptyPlan(q, schema),
    anchors: [
      { mention: 'Nikon', confidence: 0.9, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] },
      { mention: 'DSLR', confidence: 0.8, candidates: [{ id: 'c:dslr', type: 'category', score: 1 }] },
      { mention: 'Leica', confidence: 0.8, candidates: [{ id: 'b:leica', type: 'brand', score: 1 }] },
    ],
  };
}

const nikon = { anchor: 0, paths: [[{ edgeType: 'made_by', direction: 'in' as const }]] };
const dslr = { anchor: 1, paths: [[{ edgeType: 'in_category', direction: 'in' as const }]] };
const leica = { anchor: 2, paths: [[{ edgeType: 'made_by', direction: 'in' as const }]] };
const plan = (choice: ActionChoice, q = query) => writeBankAction(linked(q), choice);

describe('BankTraverser', () => {
  const context = toyContext();
  const bank = new BankTraverser();
  const run = (p: Plan, limit = 20) => bank.doTraverse({ query: p.query, plan: p, limit, context });

  it('text module: the BM25 ranking of the target types, as bm25 returns it', async () => {
    const candidates = await run(plan({ module: 'text', entities: [] }));
    const [hits = []] = await searchText(context.text, [query], {
      limit: 20,
      filter: { nodeTypes: ['product'] },
    });
    expect(candidates.map((c) => c.id)).toEqual(hits.map((h) => h.id));
    expect(
      candidates.every((c) => c.scores.egoGraph === 0 && c.trajectories[0]!.hops[0]!.via === 'text'),
    ).toBe(true);
  });

  it('hybrid module: the intersection of the ego-graphs first, ranked by text, with its paths', async () => {
    const candidates = await run(plan({ module: 'hybrid', entities: [nikon, dslr] }));
    // Nikon's products ∩ DSLRs = D850 and D3500; the D850's document matches the question.
    expect(candidates.slice(0, 2).map((c) => c.id)).toEqual(['p:d850', 'p:d3500']);
    expect(candidates[0]!.scores).toMatchObject({ egoGraph: 1, egoCoverage: 1 });
    expect(candidates[0]!.trajectories.map((t) => t.hops.map((h) => `${h.via}:${h.node}`))).toEqual([
      ['anchor:b:nikon', 'structure:p:d850'],
      ['anchor:c:dslr', 'structure:p:d850'],
    ]);
    // The rest of the text ranking follows, below every member.
    const rest = candidates.slice(2);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((c) => c.scores.egoGraph === 0 && c.score < candidates[1]!.score)).toBe(true);
  });

  it('puts the ego-graph first even when the text ranking prefers another node', async () => {
    // BM25 alone ranks the Canon EOS (sports and wildlife) high; Leica's ego-graph holds only the Q2.
    const candidates = await run(
      plan({ module: 'hybrid', entities: [leica] }, 'camera for wildlife and sports'),
    );
    expect(candidates[0]!.id).toBe('p:q2');
  });

  it('an empty intersection: the union, by how many entities reach each node', async () => {
    const candidates = await run(plan({ module: 'hybrid', entities: [leica, dslr] }));
    const members = candidates.filter((c) => c.scores.egoGraph === 1);
    expect(members.map((c) => c.id).sort()).toEqual(['p:d3500', 'p:d850', 'p:eos', 'p:q2']);
    expect(members.every((c) => c.scores.egoCoverage === 0.5)).toBe(true);
  });

  it('an empty ego-graph: the text ranking, saying the ego-graph had no member', async () => {
    const empty = { anchor: 1, paths: [[{ edgeType: 'made_by', direction: 'in' as const }]] };
    const candidates = await run(plan({ module: 'hybrid', entities: [empty] }));
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.every((c) => c.scores.egoGraph === 0 && c.scores.egoSize === 0)).toBe(true);
  });

  it('graph module: every member, without text ranking, nodes without documents included', async () => {
    const candidates = await run(
      plan({
        module: 'graph',
        entities: [{ anchor: 1, paths: [[{ edgeType: 'in_category', direction: 'in' }]] }],
      }),
    );
    expect(candidates.slice(0, 3).map((c) => c.id)).toEqual(['p:d3500', 'p:d850', 'p:eos']);
    expect(candidates.slice(0, 3).every((c) => c.scores.egoGraph === 1)).toBe(true);
  });

  it('keeps the ego-graph to the schema’s target types, and to confident planned types on request', async () => {
    const twoSteps = {
      anchor: 0,
      paths: [
        [
          { edgeType: 'made_by', direction: 'in' as const },
          { edgeType: 'in_category', direction: 'out' as const },
        ],
      ],
    };
    const members = (list: { scores: Record<string, number>; type?: string }[]) =>
      list.filter((c) => c.scores.egoGraph === 1).map((c) => c.type);
    const candidates = await run(plan({ module: 'hybrid', entities: [twoSteps] }));
    // Both rings of Nikon's ego-graph hold products and categories; only products are answers here.
    expect(new Set(members(candidates))).toEqual(new Set(['product']));
    // A schema whose answers are products and categories, and a plan sure that a category is asked for.
    const wide = { ...context, schema: { ...schema, targetTypes: ['product', 'category'] } };
    const typed = {
      ...plan({ module: 'hybrid', entities: [twoSteps] }),
      targetTypes: [{ type: 'category', score: 0.9 }],
    };
    const any = await bank.doTraverse({ query, plan: typed, limit: 20, context: wide });
    expect(new Set(members(any))).toEqual(new Set(['product', 'category']));
    const strict = await new BankTraverser({ minTypeScore: 0.5 }).doTraverse({
      query,
      plan: typed,
      limit: 20,
      context: wide,
    });
    expect(new Set(members(strict))).toEqual(new Set(['category']));
  });

  it('honours the limit, and an empty query finds nothing', async () => {
    expect(await run(plan({ module: 'hybrid', entities: [nikon] }), 2)).toHaveLength(2);
    expect(await run(plan({ module: 'hybrid', entities: [nikon] }, '   '))).toEqual([]);
  });
});

runTraverserSuite({ name: 'BankTraverser', create: async () => new BankTraverser() });

describe('the deprecated name', () => {
  it('RetrieverBank is BankTraverser, so code written against it keeps compiling and running', () => {
    const options: RetrieverBankOptions = { name: 'old' };
    const bank: RetrieverBank = new RetrieverBank(options);
    expect(bank).toBeInstanceOf(BankTraverser);
    expect(bank.name).toBe('old');
  });
});

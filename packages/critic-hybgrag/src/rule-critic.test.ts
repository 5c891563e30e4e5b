import { runCriticSuite } from '@weft/conformance';
import { emptyPlan, searchText } from '@weft/kit';
import { toyContext, toySkb } from '@weft/core/test';
import { type ActionChoice, writeBankAction } from '@weft/ego-graph';
import type { Candidate, CriticVerdict, Plan } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { type HybgragVerdict, RuleCritic } from './rule-critic.ts';

const schema = toySkb().schema;
const query = 'rugged DSLR for wildlife with fast autofocus';

function linked(): Plan {
  return {
    ...emptyPlan(query, schema),
    anchors: [
      { mention: 'Nikon', confidence: 0.9, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] },
      { mention: 'DSLR', confidence: 0.8, candidates: [{ id: 'c:dslr', type: 'category', score: 1 }] },
      { mention: 'Leica', confidence: 0.9, candidates: [{ id: 'b:leica', type: 'brand', score: 1 }] },
      { mention: 'trail', confidence: 0.6, candidates: [{ id: 'c:trail', type: 'category', score: 1 }] },
      { mention: 'D850', confidence: 0.9, candidates: [{ id: 'p:d850', type: 'product', score: 1 }] },
    ],
  };
}

const path = (edgeType: string, direction: 'in' | 'out') => [{ edgeType, direction }];
const plan = (choice: ActionChoice, overrides: Partial<Plan> = {}) => ({
  ...writeBankAction(linked(), choice),
  ...overrides,
});

const context = toyContext();
/** The index's own BM25 of the question for every product, as the bank would have written it. */
const bm25 = new Map<string, number>();
beforeAll(async () => {
  const [hits = []] = await searchText(context.text, [query], {
    limit: 50,
    filter: { nodeTypes: ['product'] },
  });
  for (const hit of hits) bm25.set(hit.id, hit.score);
});
const score = (id: string) => bm25.get(id) ?? 0;

/** A candidate as the bank writes it: an ego-graph member or a text result, with its BM25. */
const member = (id: string, bm25 = score(id), type = 'product'): Candidate => ({
  id,
  type,
  score: 3 + bm25,
  scores: { bm25, egoGraph: 1, egoCoverage: 1 },
  trajectories: [{ hops: [{ node: id, via: 'structure' }] }],
});
const text = (id: string, bm25 = score(id), type = 'product'): Candidate => ({
  id,
  type,
  score: 1 + bm25 / 10,
  scores: { bm25, egoGraph: 0 },
  trajectories: [{ hops: [{ node: id, via: 'text' }] }],
});

const judge = (p: Plan, candidates: Candidate[], critic = new RuleCritic(), round = 0) =>
  critic.doCritique({ query: p.query, plan: p, candidates, round, context }) as Promise<HybgragVerdict>;
const kinds = (verdict: CriticVerdict) => (verdict.accept ? [] : verdict.feedback.map((f) => f.kind));

describe('RuleCritic', () => {
  it('accepts an ego-graph whose documents match the question, naming the action judged', async () => {
    const p = plan({ module: 'hybrid', entities: [{ anchor: 0, paths: [path('made_by', 'in')] }] });
    const verdict = await judge(p, [member('p:d850'), member('p:d3500')]);
    expect(verdict).toEqual({ accept: true, action: 'hybrid: Nikon [b:nikon] ←made_by—' });
  });

  it('an empty ego-graph: incorrect-entity, about that entity, with the round and action', async () => {
    // Categories can have subcategories, by the schema; the trail category has none.
    const p = plan({ module: 'hybrid', entities: [{ anchor: 3, paths: [path('subcategory_of', 'in')] }] });
    const verdict = await judge(p, [text('p:trailcam')], new RuleCritic(), 2);
    expect(verdict.accept).toBe(false);
    if (verdict.accept) return;
    expect(verdict.feedback).toEqual([
      {
        kind: 'incorrect-entity',
        entity: 'c:trail',
        message:
          'round 2 (hybrid: trail [c:trail] ←subcategory_of—): the ego-graph of "trail" (c:trail) along subcategory_of (in) is empty',
      },
    ]);
  });

  it('ego-graphs that share nothing: no-intersection', async () => {
    const p = plan({
      module: 'hybrid',
      entities: [
        { anchor: 2, paths: [path('made_by', 'in')] },
        { anchor: 1, paths: [path('in_category', 'in')] },
      ],
    });
    const verdict = await judge(p, [member('p:q2', 2)]);
    expect(kinds(verdict)).toEqual(['no-intersection']);
    expect(verdict.accept || verdict.feedback[0]!.message).toMatch(
      /"DSLR" \(3 nodes\) and "Leica" \(1 nodes\) share no node/,
    );
  });

  it('an entity of a type none of its relations starts from: incorrect-entity', async () => {
    const p = plan({ module: 'hybrid', entities: [{ anchor: 4, paths: [path('made_by', 'in')] }] });
    const verdict = await judge(p, [text('p:d850', 5)]);
    expect(kinds(verdict)).toEqual(['incorrect-entity']);
    expect(verdict.accept || verdict.feedback[0]!.message).toMatch(/a product, which none of its relations/);
  });

  it('top results outside confidently planned types: incorrect-intersection (graph) or wrong-module (text)', async () => {
    const typed = { targetTypes: [{ type: 'category', score: 0.9 }] };
    const hybrid = plan(
      { module: 'hybrid', entities: [{ anchor: 0, paths: [path('made_by', 'in')] }] },
      typed,
    );
    expect(kinds(await judge(hybrid, [member('p:d850', 5), member('p:d3500', 4)]))).toEqual([
      'incorrect-intersection',
    ]);
    const textModule = plan({ module: 'text', entities: [] }, typed);
    expect(kinds(await judge(textModule, [text('p:d850', 5), text('p:eos', 4)]))).toEqual(['wrong-module']);
    // Unsure types say nothing.
    const unsure = plan(
      { module: 'text', entities: [] },
      { targetTypes: [{ type: 'category', score: 0.3 }] },
    );
    expect(kinds(await judge(unsure, [text('p:q2', 5)]))).toEqual([]);
  });

  it('a text result with no edge to a confidently named node: missing-entity', async () => {
    const textModule = plan({ module: 'text', entities: [] });
    // The trail camera is only in the trail category, a mention the question is unsure of.
    const ignored = await judge(textModule, [text('p:trailcam')]);
    expect(kinds(ignored)).toEqual(['missing-entity']);
    expect(ignored.accept || ignored.feedback[0]).toMatchObject({ entity: 'b:nikon' });
    // The EOS is a DSLR: consistent with a named category.
    expect(kinds(await judge(textModule, [text('p:eos')]))).toEqual([]);
    expect(
      kinds(
        await judge(textModule, [text('p:trailcam')], new RuleCritic({ rules: { 'ignored-anchor': false } })),
      ),
    ).toEqual([]);
  });

  it('an ego-graph whose best document matches far worse than the best one elsewhere: wrong-module', async () => {
    // The Nikkor lens's document barely matches a question about rugged wildlife DSLRs.
    const p = plan({ module: 'hybrid', entities: [{ anchor: 0, paths: [path('made_by', 'in')] }] });
    const weak = await judge(p, [member('p:nikkor')]);
    expect(kinds(weak)).toEqual(['wrong-module']);
    expect(weak.accept || weak.feedback[0]!.message).toMatch(
      /matches the question at 0\.\d\d of the best document elsewhere \(p:d850\)/,
    );
    // A relation the plan is sure of is trusted: its answers need not share the question's words.
    const trusted = plan({
      module: 'hybrid',
      entities: [{ anchor: 0, paths: [path('made_by', 'in')], confidences: [0.95] }],
    });
    expect(kinds(await judge(trusted, [member('p:nikkor')]))).toEqual([]);
  });

  it('paths planned from mentions linked to nothing: no-entity', async () => {
    const p: Plan = {
      ...emptyPlan(query, schema),
      anchors: [{ mention: 'Sony', confidence: 0.9, candidates: [] }],
      paths: [{ anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }], score: 1 }],
    };
    expect(kinds(await judge(p, [text('p:d850', 5)]))).toEqual(['no-entity']);
  });
});

runCriticSuite({ name: 'RuleCritic', create: async () => new RuleCritic() });

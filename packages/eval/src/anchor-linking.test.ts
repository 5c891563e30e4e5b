import { createRetriever } from '@weft/core';
import { emptyPlan } from '@weft/kit';
import { ReferencePathTraverser, toyContext } from '@weft/core/test';
import type { Anchor, Plan, PlannerV1, SkbQuery } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import {
  anchorLinking,
  goldAnchorsOf,
  goldPathAmongReadings,
  goldPathsOf,
  summarizeLinking,
} from './anchor-linking.ts';
import { evaluateStacks } from './evaluate-stacks.ts';
import { evaluationMarkdown, evaluationSummary } from './evaluation-report.ts';
import { oracleAnchors, questionIn, replaceAnchors, withPlanTransform } from './oracle-anchors.ts';

const anchor = (mention: string, confidence: number, ids: string[]): Anchor => ({
  mention,
  confidence,
  candidates: ids.map((id, i) => ({ id, type: 'brand', score: 1 - i / 10 })),
});

describe('goldAnchorsOf', () => {
  it('reads meta.anchors, without node types and repeats', () => {
    const query: SkbQuery = {
      id: 'q',
      query: 'x',
      answers: ['a'],
      split: 'val',
      meta: { anchors: ['wn:1', 'noun.relation', 'wn:1', 3] },
    };
    expect(goldAnchorsOf(query, new Set(['noun.relation']))).toEqual(['wn:1']);
    expect(goldAnchorsOf({ ...query, meta: {} })).toBeUndefined();
    expect(
      goldAnchorsOf({ ...query, meta: { anchors: ['noun.relation'] } }, new Set(['noun.relation'])),
    ).toBe(undefined);
  });
});

describe('goldPathAmongReadings', () => {
  const hop = (edgeType: string, direction: 'in' | 'out') => [{ edgeType, direction }];
  const plan: Pick<Plan, 'paths'> = {
    paths: [
      // A path planned from words (no node) is no reading.
      { anchor: 0, hops: hop('made_by', 'in'), score: 1 },
      { anchor: 0, node: 'b:leica', hops: hop('made_by', 'in'), score: 1 },
      { anchor: 0, node: 'b:nikon', hops: hop('made_by', 'out'), score: 0.9 },
      { anchor: 1, node: 'c:lenses', hops: hop('in_category', 'in'), score: 0.8 },
      { anchor: 0, node: 'b:nikon', hops: hop('made_by', 'in'), score: 0.5 },
    ],
  };
  it('finds a gold anchor node and first hop among the first 3 readings by score', () => {
    const gold = goldPathsOf({
      id: 'q',
      query: 'lenses made by Nikon',
      answers: ['p:nikkor'],
      split: 'val',
      meta: { paths: [{ anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'in' }] }, 'junk'] },
    })!;
    expect(gold).toHaveLength(1);
    // Fourth by score: not among the first 3.
    expect(goldPathAmongReadings(plan, gold)).toBe(false);
    expect(goldPathAmongReadings(plan, gold, 4)).toBe(true);
    // A gold hop in both directions takes either.
    expect(
      goldPathAmongReadings(plan, [
        { anchor: 'b:nikon', hops: [{ edgeType: 'made_by', direction: 'both' }] },
      ]),
    ).toBe(true);
    expect(goldPathsOf({ id: 'q', query: 'x', answers: [], split: 'val', meta: {} })).toBeUndefined();
    expect(
      summarizeLinking([
        { gold: 1, linked: 1, linkedTop1: 1, mentions: 1, precise: 1, pathTop3: true },
        { gold: 1, linked: 1, linkedTop1: 1, mentions: 1, precise: 1, pathTop3: false },
        { gold: 1, linked: 1, linkedTop1: 1, mentions: 1, precise: 1 },
      ])?.pathTop3,
    ).toBe(50);
  });
});

describe('anchorLinking', () => {
  it('counts a gold anchor linked among the top 3 of a confident anchor, precision on top candidates', () => {
    const plan = {
      anchors: [
        anchor('nikon', 0.9, ['b:canon', 'b:leica', 'b:nikon', 'b:x']),
        anchor('lens', 0.5, ['c:lenses']),
        // Below the threshold: neither linked nor counted.
        anchor('camera', 0.1, ['c:cameras']),
        // No candidate: not counted.
        anchor('zzz', 1, []),
      ],
    };
    expect(anchorLinking(plan, ['b:nikon', 'c:cameras'])).toEqual({
      gold: 2,
      linked: 1,
      linkedTop1: 0,
      mentions: 2,
      precise: 0,
    });
    expect(anchorLinking(plan, ['b:nikon', 'c:lenses'])).toEqual({
      gold: 2,
      linked: 2,
      linkedTop1: 1,
      mentions: 2,
      precise: 1,
    });
    // Top 2 only: b:nikon (third) is no longer linked.
    expect(anchorLinking(plan, ['b:nikon'], { topK: 2 }).linked).toBe(0);
    expect(anchorLinking(plan, ['c:cameras'], { minConfidence: 0 }).linkedTop1).toBe(1);
    expect(anchorLinking(undefined, ['b:nikon'])).toEqual({
      gold: 1,
      linked: 0,
      linkedTop1: 0,
      mentions: 0,
      precise: 0,
    });
  });

  it('summarizes: recall needs every gold anchor, precision pools the anchors of all queries', () => {
    const summary = summarizeLinking([
      { gold: 2, linked: 2, linkedTop1: 1, mentions: 3, precise: 2 },
      { gold: 2, linked: 1, linkedTop1: 1, mentions: 1, precise: 1 },
      { gold: 1, linked: 1, linkedTop1: 1, mentions: 0, precise: 0 },
      { gold: 1, linked: 0, linkedTop1: 0, mentions: 4, precise: 0 },
    ])!;
    expect(summary.n).toBe(4);
    expect(summary.recall).toBeCloseTo(50);
    expect(summary.recallTop1).toBeCloseTo(25);
    expect(summary.mentionsPerQuery).toBeCloseTo(2);
    expect(summary.precision).toBeCloseTo(37.5);
    expect(summarizeLinking([])).toBeUndefined();
  });
});

/** A planner that links "Canon" whatever the question, with a path from it to the products it makes. */
const wrongPlanner: PlannerV1 = {
  specificationVersion: 'v1',
  name: 'wrong',
  async doPlan({ query, context }): Promise<Plan> {
    return {
      ...emptyPlan(query, context.schema),
      anchors: [anchor('canon', 0.9, ['b:canon']), anchor('dslr', 0.9, ['c:dslr'])],
      paths: [
        { anchor: 0, hops: [{ edgeType: 'made_by', direction: 'in' }], score: 1 },
        { anchor: 1, hops: [{ edgeType: 'in_category', direction: 'in' }], score: 0.5 },
      ],
      triplets: [
        {
          subject: { kind: 'variable', name: 'x' },
          edgeType: 'in_category',
          object: { kind: 'anchor', anchor: 1 },
        },
      ],
    };
  },
};

const queries: SkbQuery[] = [
  {
    id: 'q1',
    query: 'the Leica camera',
    answers: ['p:q2'],
    split: 'val',
    meta: { anchors: ['b:leica'] },
  },
  { id: 'q2', query: 'a trail camera', answers: ['p:trailcam'], split: 'val' },
];

describe('linking in evaluateStacks and the oracle anchors', () => {
  it('replaceAnchors keeps each planned relation with its anchor, and gives the unmatched ones to anchors without any', () => {
    const context = toyContext({ vectors: false });
    const x = { kind: 'variable', name: 'x' } as const;
    const plan = replaceAnchors(
      {
        ...emptyPlan('q', context.schema),
        anchors: [anchor('canon', 1, ['b:canon']), anchor('camera', 1, ['c:dslr', 'b:leica'])],
        paths: [
          { anchor: 0, hops: [{ edgeType: 'in_category', direction: 'in' }], score: 1 },
          { anchor: 1, hops: [{ edgeType: 'made_by', direction: 'in' }], score: 1 },
          { startTypes: ['product'], hops: [{ edgeType: 'made_by', direction: 'out' }], score: 0.5 },
        ],
        triplets: [
          { subject: x, edgeType: 'in_category', object: { kind: 'anchor', anchor: 0 } },
          { subject: x, edgeType: 'made_by', object: { kind: 'anchor', anchor: 1 } },
          {
            subject: { kind: 'anchor', anchor: 0 },
            edgeType: 'compatible_with',
            object: { kind: 'anchor', anchor: 1 },
          },
        ],
      },
      [anchor('nikon', 1, ['b:nikon']), anchor('leica', 1, ['b:leica'])],
    );
    expect(plan.anchors.map((a) => a.mention)).toEqual(['nikon', 'leica']);
    // "camera" had Leica among its candidates: its made_by path now starts at Leica (index 1); the
    // path of "canon", which matches no gold anchor, goes to Nikon, which has none of its own.
    expect(plan.paths.map((p) => [p.anchor, p.hops[0]!.edgeType])).toEqual([
      [1, 'made_by'],
      [undefined, 'made_by'],
      [0, 'in_category'],
    ]);
    expect(plan.triplets).toEqual([
      { subject: x, edgeType: 'made_by', object: { kind: 'anchor', anchor: 1 } },
      { subject: x, edgeType: 'in_category', object: { kind: 'anchor', anchor: 0 } },
    ]);
    // Every gold anchor with a relation of its own: the unmatched ones are dropped.
    const own = replaceAnchors(
      { ...emptyPlan('q', context.schema), anchors: plan.anchors, paths: plan.paths, triplets: [] },
      [anchor('leica', 1, ['b:leica'])],
    );
    expect(own.paths.map((p) => p.anchor)).toEqual([0, undefined]);
  });

  it('reports linking per stack, and the anchor oracle turns a mislinked plan into a hit', async () => {
    const context = toyContext({ vectors: false });
    const definition = {
      name: 'wrong',
      context,
      planner: wrongPlanner,
      traversers: [new ReferencePathTraverser()],
    };
    const own = createRetriever(definition);
    const oracle = createRetriever({
      ...withPlanTransform(definition, oracleAnchors(queries)),
      name: 'wrong-oracle',
    });
    const noPlanner = createRetriever({
      name: 'bm25-oracle',
      context,
      traversers: [new ReferencePathTraverser()],
    });
    const evaluation = await evaluateStacks({
      stacks: [own, oracle, noPlanner],
      queries,
      targetTypes: ['product'],
    });
    const [wrong, fixed, plain] = evaluation.stacks;
    // Only q1 carries gold anchors.
    expect(wrong!.linking).toMatchObject({ n: 1, recall: 0, mentionsPerQuery: 2, precision: 0 });
    expect(wrong!.records[0]!.linking).toEqual({
      gold: 1,
      linked: 0,
      linkedTop1: 0,
      mentions: 2,
      precise: 0,
    });
    expect(wrong!.records[1]!.linking).toBeUndefined();
    expect(wrong!.records[0]!.ranking[0]?.id).not.toBe('p:q2');
    // The gold anchor replaces both; the path of anchor 0 (made_by, in) now starts from Leica.
    expect(fixed!.linking).toMatchObject({ n: 1, recall: 100, recallTop1: 100, precision: 100 });
    expect(fixed!.records[0]!.ranking[0]?.id).toBe('p:q2');
    // A question without gold anchors keeps the planner's own.
    expect(fixed!.records[1]!.ranking.map((r) => r.id)).toEqual(wrong!.records[1]!.ranking.map((r) => r.id));
    // A stack without a planner has no anchors of its own: nothing linked.
    expect(plain!.linking).toMatchObject({ n: 1, recall: 0, mentionsPerQuery: 0, precision: 0 });

    const summary = evaluationSummary(evaluation, { set: 'toy', split: 'val', oracle: 'anchors' });
    expect(summary.oracle).toBe('anchors');
    expect(summary.stacks[1]!.linking).toEqual({
      n: 1,
      recall: 100,
      recallTop1: 100,
      mentionsPerQuery: 1,
      precision: 100,
    });
    const markdown = evaluationMarkdown(summary);
    expect(markdown).toContain('oracle: anchors');
    expect(markdown).toContain('| wrong-oracle | 100.0 | 100.0 | 1.00 | 100.0 |');
  });

  it('gives a planner-less stack the gold anchors too', async () => {
    const context = toyContext({ vectors: false });
    const transform = oracleAnchors(queries);
    const retriever = createRetriever(
      withPlanTransform({ name: 'plain', context, traversers: [new ReferencePathTraverser()] }, transform),
    );
    const { trace } = await retriever.doRetrieve({ query: 'the Leica camera' });
    expect(trace.plan?.anchors).toEqual([
      { mention: 'Leica', confidence: 1, candidates: [{ id: 'b:leica', type: 'brand', score: 1 }] },
    ]);
  });

  it('knows a question an expander lengthened by its start', async () => {
    const context = toyContext({ vectors: false });
    const transform = oracleAnchors(queries);
    const plan = emptyPlan('x', context.schema);
    const lengthened = await transform(plan, {
      query: 'the Leica camera the Leica camera Leitz rangefinder',
      feedback: [],
      context,
    });
    expect(lengthened.anchors.map((a) => a.mention)).toEqual(['Leica']);
    // A longer word is another question.
    const other = await transform(plan, { query: 'the Leica cameras', feedback: [], context });
    expect(other.anchors).toEqual([]);
    expect(
      questionIn(
        'ab c',
        new Map([
          ['a', 1],
          ['ab', 2],
        ]),
      ),
    ).toBe('ab');
  });

  it('refuses a question asked twice with different gold anchors', () => {
    expect(() =>
      oracleAnchors([queries[0]!, { ...queries[0]!, id: 'q1b', meta: { anchors: ['b:nikon'] } }]),
    ).toThrow(/q1b is asked again/);
  });
});

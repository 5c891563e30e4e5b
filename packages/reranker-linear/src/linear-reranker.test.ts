import { artifactEnvelope, emptyPlan } from '@weft/kit';
import { toyContext, memoryArtifacts } from '@weft/core/test';
import type { Candidate, Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { featureRows, linearFeatures } from './linear-features.ts';
import { LinearReranker, linearRerankerArtifact } from './linear-reranker.ts';
import { type LinearRerankExample, trainLinearReranker } from './train-linear-reranker.ts';

const context = toyContext();
const candidate = (id: string, scores: Record<string, number>): Candidate => ({
  id,
  type: 'product',
  score: 0,
  scores,
  trajectories: [{ hops: [{ node: id, via: 'text' }] }],
});
const plan = (confidence: number): Plan => ({
  ...emptyPlan('q', context.schema),
  anchors: confidence > 0 ? [{ mention: 'x', confidence, candidates: [] }] : [],
});

describe('linear features', () => {
  it('divide scores by the best of the query, and gate document and relation-aware text by the mention the graph confirms', () => {
    const f = (row: number[], name: (typeof linearFeatures)[number]) => row[linearFeatures.indexOf(name)]!;
    // b lies next to the mention's node and matches half as well as the best: the gate is
    // 0.8 × √0.5.
    const rows = featureRows(
      [
        candidate('a', { bm25: 10, bm25Relations: 5 }),
        candidate('b', { bm25: 5, bm25Relations: 10, anchorLink: 0.8 }),
      ],
      plan(0.8),
    );
    const gate = 0.8 * Math.sqrt(0.5);
    expect(f(rows[0]!, 'document')).toBe(1);
    expect(f(rows[1]!, 'document')).toBe(0.5);
    expect(f(rows[0]!, 'documentGated')).toBeCloseTo(1 - gate);
    expect(f(rows[1]!, 'relationsGated')).toBeCloseTo(gate);
    expect(f(rows[0]!, 'documentRank')).toBe(1);
    expect(f(rows[1]!, 'documentRank')).toBe(0.5);
    // No neighbour of the mention's node among the candidates: the question is ranked by its text.
    const alone = featureRows(
      [candidate('a', { bm25: 10, bm25Relations: 5 }), candidate('b', { bm25: 5, bm25Relations: 10 })],
      plan(0.8),
    );
    expect(f(alone[0]!, 'documentGated')).toBe(1);
    expect(f(alone[1]!, 'relationsGated')).toBe(0);
    // A neighbour over the relation the plan is sure of confirms the mention whatever its words.
    const over = featureRows(
      [
        candidate('a', { bm25: 10, bm25Relations: 5 }),
        candidate('b', { bm25: 1, bm25Relations: 10, anchorLink: 0.8, relationMatch: 0.8 }),
      ],
      plan(0.8),
    );
    expect(f(over[1]!, 'relationsGated')).toBeCloseTo(0.8);
  });

  it('say how surely the query is a name (`nameLookup`) or names a node and asks more (`namedNotAsked`)', () => {
    const named = (query: string): Plan => ({
      ...emptyPlan(query, context.schema),
      anchors: [
        {
          mention: 'Nikon D850',
          confidence: 0.8,
          candidates: [
            { id: 'd850', type: 'product', score: 1, named: true },
            { id: 'd850-kit', type: 'product', score: 0.5 },
          ],
        },
        // Matched by its document only: the question does not name it.
        {
          mention: 'lenses',
          confidence: 0.9,
          candidates: [{ id: 'lens', type: 'product', score: 1, named: false }],
        },
      ],
    });
    const f = (rows: number[][], i: number, name: (typeof linearFeatures)[number]) =>
      rows[i]![linearFeatures.indexOf(name)]!;
    const ids = [candidate('d850', {}), candidate('d850-kit', {}), candidate('lens', {})];
    const lookup = featureRows(ids, named('Nikon D850'));
    expect(f(lookup, 0, 'nameLookup')).toBeCloseTo(0.8);
    expect(f(lookup, 1, 'nameLookup')).toBeCloseTo(0.4);
    expect(f(lookup, 0, 'namedNotAsked')).toBe(0);
    const question = featureRows(ids, named('lenses for the Nikon D850'));
    // 'Nikon D850' spells 9 of the 21 letters and digits.
    expect(f(question, 0, 'nameLookup')).toBeCloseTo((0.8 * 9) / 21);
    expect(f(question, 0, 'namedNotAsked')).toBeCloseTo((0.8 * 12) / 21);
    // Only the mention's best node is the one it names; a namesake may be what is asked for.
    expect(f(question, 1, 'namedNotAsked')).toBe(0);
    // The node 'lenses' describes is read as asked for as far as the mention spells the question.
    expect(f(question, 2, 'nameLookup')).toBeCloseTo((0.9 * 6) / 21);
    expect(f(question, 2, 'namedNotAsked')).toBe(0);
  });

  it('read a query that is mostly the description of a node as asking for it, unless the words are a name', () => {
    const f = (rows: number[][], i: number, name: (typeof linearFeatures)[number]) =>
      rows[i]![linearFeatures.indexOf(name)]!;
    const described = (query: string, mention: string): Plan => ({
      ...emptyPlan(query, context.schema),
      anchors: [
        {
          mention: 'Nikon D850',
          confidence: 0.8,
          candidates: [{ id: 'd850', type: 'product', score: 1, named: true }],
        },
        { mention, confidence: 0.9, candidates: [{ id: 'lens', type: 'product', score: 0.5, named: false }] },
      ],
    });
    const ids = [candidate('d850', {}), candidate('lens', {})];
    // 'wide fast prime lens' spells 17 of the 24 letters of the query.
    const lens = featureRows(ids, described('wide fast prime lens by Nikon', 'wide fast prime lens'));
    expect(f(lens, 1, 'nameLookup')).toBeCloseTo((0.9 * 0.5 * 17) / 24);
    expect(f(lens, 1, 'namedNotAsked')).toBe(0);
    // Words inside a mention that spells a name are that name, not a description.
    const inside = featureRows(ids, described('Nikon D850', 'D850'));
    expect(f(inside, 1, 'nameLookup')).toBe(0);
    expect(f(inside, 0, 'nameLookup')).toBeCloseTo(0.8);
  });
});

describe('LinearReranker', () => {
  const candidates = [
    candidate('text', { bm25: 10, bm25Relations: 4, anchorLink: 0, anchorSelf: 0 }),
    candidate('related', { bm25: 4, bm25Relations: 10, anchorLink: 1, anchorSelf: 0 }),
  ];

  it('untrained: the document decides when nothing is named, the relations when something is; it says it is untrained', async () => {
    const warnings: string[] = [];
    const reranker = new LinearReranker({ artifact: 'default.reranker-linear' });
    const ctx = { ...context, artifacts: memoryArtifacts(), warn: (m: string) => warnings.push(m) };
    const none = await reranker.doRerank({ query: 'q', plan: plan(0), candidates, limit: 10, context: ctx });
    expect(none.map((c) => c.id)).toEqual(['text', 'related']);
    const named = await reranker.doRerank({ query: 'q', plan: plan(1), candidates, limit: 10, context: ctx });
    expect(named.map((c) => c.id)).toEqual(['related', 'text']);
    expect(warnings[0]).toMatch(/not found/);
  });

  it('untrained: a common word that names a node the text matches do not lie next to leaves the text order', async () => {
    // As before, but the neighbour matches the question's words a fifth as well as the best: the
    // mention ("… in real time" → the package `time`) is not what the question is about.
    const reranker = new LinearReranker();
    const weak = [
      candidates[0]!,
      candidate('related', { bm25: 2, bm25Relations: 10, anchorLink: 1, anchorSelf: 0 }),
    ];
    const ranked = await reranker.doRerank({
      query: 'q',
      plan: plan(1),
      candidates: weak,
      limit: 10,
      context,
    });
    expect(ranked.map((c) => c.id)).toEqual(['text', 'related']);
  });

  it('untrained: a candidate of the answer type the plan asks for (`targetType`) comes before a better text match of another', async () => {
    // The traverser scores `targetType` from the plan's answer types.
    const brand = { ...candidate('brand', { bm25: 10, bm25Relations: 10, targetType: 0 }), type: 'brand' };
    const product = candidate('product', { bm25: 8, bm25Relations: 8, targetType: 1 });
    const reranker = new LinearReranker();
    const ranked = await reranker.doRerank({
      query: 'q',
      plan: plan(0),
      candidates: [brand, product],
      limit: 10,
      context,
    });
    expect(ranked.map((c) => c.id)).toEqual(['product', 'brand']);
  });

  it('untrained: a neighbour of the named node over the relation the plan names (`relationMatch`) comes first', async () => {
    // Both next to the named node; only one over the planned relation, the other with more words in common.
    const over = candidate('over', { bm25: 8, bm25Relations: 8, anchorLink: 0.9, relationMatch: 0.9 });
    const beside = candidate('beside', { bm25: 10, bm25Relations: 10, anchorLink: 0.9, relationMatch: 0 });
    const ranked = await new LinearReranker().doRerank({
      query: 'q',
      plan: plan(0.9),
      candidates: [beside, over],
      limit: 10,
      context,
    });
    expect(ranked.map((c) => c.id)).toEqual(['over', 'beside']);
  });

  it('untrained: a query that is a name puts the named node first; a question that names it and says more, its neighbour', async () => {
    // The neighbour matches the name in its relation-aware document and lies next to the named node.
    const candidates = [
      candidate('d850', { bm25: 10, bm25Relations: 8, anchorLink: 0 }),
      candidate('d850-kit', { bm25: 9, bm25Relations: 10, anchorLink: 1 }),
    ];
    const named = (query: string): Plan => ({
      ...emptyPlan(query, context.schema),
      anchors: [
        { mention: 'Nikon D850', confidence: 1, candidates: [{ id: 'd850', type: 'product', score: 1 }] },
      ],
    });
    const order = async (query: string) =>
      (
        await new LinearReranker().doRerank({ query, plan: named(query), candidates, limit: 10, context })
      ).map((c) => c.id);
    expect(await order('Nikon D850')).toEqual(['d850', 'd850-kit']);
    expect(await order('which kit comes with the Nikon D850 body')).toEqual(['d850-kit', 'd850']);
  });

  it('returns only what matched: no zero-score padding of unmatched dense neighbours, the matched order unchanged', async () => {
    const matched = [
      candidate('best', { bm25: 10, bm25Relations: 6, dense: 0.2 }),
      candidate('near', { bm25: 0, bm25Relations: 0, dense: 0.3, anchorLink: 0.9 }),
      candidate('weak', { bm25: 1, bm25Relations: 1, dense: -0.1 }),
    ];
    const unmatched = [
      candidate('dense-only', { bm25: 0, bm25Relations: 0, dense: 0.25, anchorLink: 0 }),
      candidate('nothing', { bm25: 0, bm25Relations: 0, dense: 0, anchorLink: 0, targetType: 1 }),
    ];
    const rerank = (list: Candidate[], limit = 10) =>
      new LinearReranker().doRerank({ query: 'q', plan: plan(0.9), candidates: list, limit, context });
    const alone = (await rerank(matched)).map((c) => c.id);
    const ranked = await rerank([unmatched[0]!, ...matched, unmatched[1]!]);
    expect(ranked.map((c) => c.id)).toEqual(alone);
    expect(ranked.every((c) => c.score > 0)).toBe(true);
    // A query no retriever matched (e.g. only a NUL byte): nothing, rather than nodes at 0.
    expect(await rerank(unmatched)).toEqual([]);
  });

  it('trains on examples, keeps fitted weights only when they beat the untrained ones on val, and reads them back', async () => {
    // Queries where the answer is the dense match, a signal the untrained weights ignore.
    const examples: LinearRerankExample[] = Array.from({ length: 20 }, (_, i) => ({
      plan: plan(0),
      answers: [`gold${i}`],
      candidates: [
        candidate(`gold${i}`, { bm25: 2, bm25Relations: 2, dense: 0.9, anchorLink: 0, anchorSelf: 0 }),
        candidate(`other${i}`, { bm25: 9, bm25Relations: 9, dense: 0.1, anchorLink: 0, anchorSelf: 0 }),
        candidate(`third${i}`, { bm25: 5, bm25Relations: 5, dense: 0.2, anchorLink: 0, anchorSelf: 0 }),
      ],
    }));
    const report = trainLinearReranker(examples.slice(0, 14), examples.slice(14));
    expect(report.chosen).toBe('fitted');
    expect(report.model.val.fitted).toBeGreaterThan(report.model.val.untrained);
    const artifacts = memoryArtifacts();
    await artifacts.put(
      's.reranker-linear',
      artifactEnvelope(linearRerankerArtifact.kind, linearRerankerArtifact.version, report.model),
    );
    const warnings: string[] = [];
    const reranker = new LinearReranker({ artifact: 's.reranker-linear' });
    const rerank = (confidence: number) =>
      reranker.doRerank({
        query: 'q',
        plan: plan(confidence),
        candidates: examples[0]!.candidates,
        limit: 10,
        context: { ...context, artifacts, warn: (m) => warnings.push(m) },
      });
    // A question that names something is ranked by the fitted weights…
    const named = await rerank(1);
    expect(named[0]!.id).toBe('gold0');
    expect(warnings).toEqual([]);
    for (let i = 1; i < named.length; i++)
      expect(named[i - 1]!.score).toBeGreaterThanOrEqual(named[i]!.score);
    // …one that names nothing keeps the untrained, text-led order…
    expect((await rerank(0))[0]!.id).toBe('other0');
    // …and so does one that is only a name: no training query was one.
    const lookup = await reranker.doRerank({
      query: 'third',
      plan: {
        ...emptyPlan('third', context.schema),
        anchors: [
          { mention: 'third', confidence: 1, candidates: [{ id: 'third0', type: 'product', score: 1 }] },
        ],
      },
      candidates: examples[0]!.candidates,
      limit: 10,
      context: { ...context, artifacts },
    });
    expect(lookup[0]!.id).toBe('third0');

    // Queries the untrained weights already answer: nothing to gain, so the defaults stay.
    const easy = examples.map((e) => ({ ...e, answers: [e.candidates[1]!.id] }));
    expect(trainLinearReranker(easy.slice(0, 14), easy.slice(14)).chosen).toBe('untrained');
  });
});

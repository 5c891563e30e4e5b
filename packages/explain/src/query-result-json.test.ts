import type { RetrievalResult } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { queryResultJson } from './query-result-json.ts';

const result: RetrievalResult = {
  ranking: [
    {
      id: 'p:nikkor',
      type: 'product',
      score: 2.5,
      scores: { bm25: 2.5 },
      trajectories: [
        {
          hops: [
            { node: 'b:nikon', via: 'anchor' },
            { node: 'p:nikkor', edgeType: 'made_by', direction: 'in', via: 'structure', textScore: 1.2 },
          ],
          path: 0,
        },
      ],
    },
    { id: 'p:ef', score: 1, scores: {}, trajectories: [] },
  ],
  trace: {
    stack: 'default',
    query: 'Nikon zoom lens',
    stages: [
      {
        kind: 'planner',
        name: 'lexical',
        round: 0,
        startedAtMs: 0,
        durationMs: 1,
        llmCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
        warnings: ['no trained model'],
      },
    ],
    plan: {
      query: 'Nikon zoom lens',
      targetTypes: [],
      anchors: [
        { mention: 'Nikon', candidates: [{ id: 'b:nikon', score: 1, type: 'brand' }], confidence: 1 },
      ],
      paths: [],
      variables: [],
      triplets: [],
      restriction: 'zoom lens',
      confidence: 0.9,
    },
    rounds: 1,
    feedback: [],
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    durationMs: 3,
  },
};

const labels = new Map([
  ['p:nikkor', { name: 'AF-S Nikkor 200-500mm', type: 'product' }],
  ['p:ef', { name: 'Canon EF 100-400mm', type: 'product' }],
  ['b:nikon', { name: 'Nikon', type: 'brand' }],
]);

describe('queryResultJson', () => {
  it('ranks, names and types the results, with LLM usage and warnings', () => {
    const json = queryResultJson(result, labels, { query: 'Nikon zoom lens', stack: 'default' });
    expect(json).toEqual({
      query: 'Nikon zoom lens',
      stack: 'default',
      results: [
        { rank: 1, id: 'p:nikkor', type: 'product', name: 'AF-S Nikkor 200-500mm', score: 2.5 },
        // The candidate has no type: the label's type stands in.
        { rank: 2, id: 'p:ef', type: 'product', name: 'Canon EF 100-400mm', score: 1 },
      ],
      llm: { calls: 0, inputTokens: 0, outputTokens: 0, embeddingCalls: 0, stages: [] },
      warnings: ['planner lexical: no trained model'],
    });
  });

  it('adds the plan once, the trace, trajectories by result and labels with explain', () => {
    const json = queryResultJson(result, labels, {
      query: 'Nikon zoom lens',
      stack: 'default',
      explain: true,
    });
    const parsed = JSON.parse(JSON.stringify(json));
    expect(parsed.explanation.plan.anchors[0].mention).toBe('Nikon');
    expect(parsed.explanation.trace.plan).toBeUndefined();
    expect(parsed.explanation.trace.stages).toHaveLength(1);
    expect(parsed.explanation.trajectories['p:nikkor'][0].hops[1]).toMatchObject({
      edgeType: 'made_by',
      direction: 'in',
      via: 'structure',
    });
    expect(parsed.explanation.labels['b:nikon']).toEqual({ name: 'Nikon', type: 'brand' });
  });

  it('says null where a result has no label', () => {
    const json = queryResultJson(result, new Map(), { query: 'q', stack: 's' });
    expect(json.results[1]).toEqual({ rank: 2, id: 'p:ef', type: null, name: null, score: 1 });
  });
});

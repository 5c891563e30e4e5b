import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createRetriever } from '@weft/core';
import { MockLanguageModelV4, ReferencePathTraverser, textResult, toyContext } from '@weft/core/test';
import { simulateReadableStream } from 'ai';
import { describe, expect, it } from 'vitest';
import { checkCitations } from './check-citations.ts';
import { gatherEvidence } from './gather-evidence.ts';
import { streamGroundedAnswer } from './stream-grounded-answer.ts';

const context = toyContext({ vectors: false });
const nikonPlan = {
  query: 'Nikon gear for wildlife',
  targetTypes: [{ type: 'product', score: 1 }],
  anchors: [{ mention: 'Nikon', candidates: [{ id: 'b:nikon', score: 1, type: 'brand' }], confidence: 0.9 }],
  paths: [
    {
      anchor: 0,
      hops: [{ edgeType: 'made_by', direction: 'in' as const, nodeTypes: ['product'] }],
      score: 1,
    },
  ],
  variables: [],
  triplets: [],
  restriction: 'wildlife',
  confidence: 0.9,
};
/** A planned stack over the toy store: Nikon's products, each with its path from the brand. */
const retriever = createRetriever({
  name: 'toy-planned',
  context,
  planner: { specificationVersion: 'v1', name: 'fixed', doPlan: async () => nikonPlan },
  traversers: [new ReferencePathTraverser()],
});

function streamingModel(deltas: readonly string[], options: { chunkDelayInMs?: number } = {}) {
  const usage = textResult('').usage;
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'text-start', id: '1' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: '1', delta })),
    { type: 'text-end', id: '1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks,
        ...(options.chunkDelayInMs ? { chunkDelayInMs: options.chunkDelayInMs } : {}),
      }),
    }),
  });
}

describe('gatherEvidence', () => {
  it('verbalises the top nodes and the paths that found them, naming every id it shows', async () => {
    const result = await retriever.doRetrieve({ query: 'Nikon gear for wildlife', limit: 5 });
    const evidence = await gatherEvidence('Nikon gear for wildlife', result, context.graph);
    expect(evidence.nodes[0]!.id).toBe(result.ranking[0]!.id);
    expect(evidence.text).toContain('[p:d850] Nikon D850 (product): Full-frame DSLR');
    expect(
      evidence.paths.some((line) => line.includes('[b:nikon] Nikon ←made_by— [p:d850] Nikon D850')),
    ).toBe(true);
    expect(evidence.ids.has('b:nikon')).toBe(true);
    expect(evidence.subgraph).toEqual([]);
  });

  it('stays within its token budget, saying that it cut', async () => {
    const result = await retriever.doRetrieve({ query: 'Nikon gear for wildlife', limit: 5 });
    const full = await gatherEvidence('q', result, context.graph);
    const small = await gatherEvidence('q', result, context.graph, { maxTokens: 60 });
    expect(full.truncated).toBe(false);
    expect(small.truncated).toBe(true);
    expect(small.tokens).toBeLessThanOrEqual(60 + 5);
    expect(small.nodes.length).toBeLessThan(full.nodes.length);
    for (const node of full.nodes.slice(small.nodes.length)) expect(small.ids.has(node.id)).toBe(false);
  });
});

describe('checkCitations', () => {
  const ids = new Set(['a:1', 'b:2']);

  it('accepts cited evidence, flags ids outside it, and marks sentences that cite nothing', () => {
    const check = checkCitations(
      'The first is X [a:1]. It pairs with Y [a:1, c:9]. It was made in Japan long ago.',
      ids,
    );
    expect(check.citations.map((c) => [c.id, c.valid])).toEqual([
      ['a:1', true],
      ['a:1', true],
      ['c:9', false],
    ]);
    expect(check.invalid).toEqual(['c:9']);
    expect(check.uncited).toEqual(['It was made in Japan long ago.']);
    expect(check.marked).toBe(
      'The first is X [a:1]. It pairs with Y [a:1, c:9][not in evidence: c:9]. It was made in Japan long ago. [uncited]',
    );
  });

  it('leaves brackets of prose alone and does not ask short sentences for citations', () => {
    const check = checkCitations('Yes. The answer [see below] is B [b:2].', ids);
    expect(check.citations.map((c) => c.id)).toEqual(['b:2']);
    expect(check.uncited).toEqual([]);
  });
});

describe('streamGroundedAnswer', () => {
  it('streams an answer whose citations are all in the evidence', async () => {
    const model = streamingModel([
      'The Nikon D850 ',
      'suits wildlife [p:d850]',
      '. It is made by Nikon [b:nikon].',
    ]);
    const answer = await streamGroundedAnswer({
      question: 'Nikon gear for wildlife',
      retriever,
      graph: context.graph,
      model,
    });
    const parts: string[] = [];
    for await (const delta of answer.textStream) parts.push(delta);
    expect(parts.length).toBeGreaterThan(1);
    const done = await answer.finished();
    expect(done.status).toBe('answered');
    expect(done.text).toBe(parts.join(''));
    expect(done.invalid).toEqual([]);
    expect(done.uncited).toEqual([]);
    expect(done.citations.every((c) => c.valid)).toBe(true);
    // The model saw the evidence, ids in brackets, and was told to cite them.
    const prompt = JSON.stringify(model.doStreamCalls[0]!.prompt);
    expect(prompt).toContain('[p:d850] Nikon D850');
    expect(prompt).toContain('cite');
  });

  it('flags a citation outside the evidence', async () => {
    const model = streamingModel(['The Canon EOS 90D is best [p:eos].']);
    const answer = await streamGroundedAnswer({
      question: 'Nikon gear for wildlife',
      retriever,
      graph: context.graph,
      model,
    });
    const done = await answer.finished();
    expect(answer.evidence.ids.has('p:eos')).toBe(false);
    expect(done.invalid).toEqual(['p:eos']);
    expect(done.uncited).toEqual(['The Canon EOS 90D is best [p:eos].']);
    expect(done.marked).toContain('[not in evidence: p:eos]');
  });

  it('stops at an abort mid-stream, keeping what came and saying it was aborted', async () => {
    const controller = new AbortController();
    const deltas = Array.from({ length: 40 }, (_, i) => `word${i} `);
    const model = streamingModel(deltas, { chunkDelayInMs: 5 });
    const answer = await streamGroundedAnswer({
      question: 'Nikon gear for wildlife',
      retriever,
      graph: context.graph,
      model,
      abortSignal: controller.signal,
    });
    let received = 0;
    for await (const _ of answer.textStream) {
      received++;
      if (received === 3) controller.abort();
    }
    const done = await answer.finished();
    expect(done.status).toBe('aborted');
    expect(received).toBeLessThan(deltas.length);
    expect(done.text.startsWith('word0 word1 word2')).toBe(true);
  });

  it('without a model gives the evidence and an empty answer', async () => {
    const answer = await streamGroundedAnswer({
      question: 'Nikon gear for wildlife',
      retriever,
      graph: context.graph,
    });
    const parts: string[] = [];
    for await (const delta of answer.textStream) parts.push(delta);
    expect(parts).toEqual([]);
    expect((await answer.finished()).status).toBe('no-model');
    expect(answer.evidence.nodes.length).toBeGreaterThan(0);
  });

  it('reports a failing model as failed, never throwing', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new Error('provider down');
      },
    });
    const answer = await streamGroundedAnswer({
      question: 'Nikon gear for wildlife',
      retriever,
      graph: context.graph,
      model,
    });
    const done = await answer.finished();
    expect(done.status).toBe('failed');
    expect(done.error).toContain('provider down');
  });

  it('a reply that cites no node of the evidence (garbage, invented ids, nothing) is ungrounded, not answered', async () => {
    for (const deltas of [
      ['asdf qwerty zxcv ', 'lorem ipsum dolor sit amet'],
      ['The Nikon D850 suits wildlife [p:zz-invented].'],
      [''],
    ]) {
      const answer = await streamGroundedAnswer({
        question: 'Nikon gear for wildlife',
        retriever,
        graph: context.graph,
        model: streamingModel(deltas),
      });
      const done = await answer.finished();
      expect(done.status, deltas.join('')).toBe('ungrounded');
      expect(done.citations.filter((c) => c.valid)).toEqual([]);
    }
  });
});

import { MockLanguageModelV4, textResult, toyContext } from '@weft/core/test';
import type { RetrieverV1 } from '@weft/spec';
import { createStackRegistry } from '@weft/stacks';
import { generateText, isStepCount } from 'ai';
import { describe, expect, it } from 'vitest';
import { createWeftOperations, matchedText, weftTools } from './index.ts';

const store = { context: toyContext() };
const ops = createWeftOperations(store, { stack: 'bm25' });

describe('the operations over the toy shop (in-memory stores, the real bm25 stack)', () => {
  it('search ranks nodes with their name, type, score and one line of why', async () => {
    const out = await ops.search({ query: 'telephoto zoom lens for birds', limit: 3 });
    expect(out.stack).toBe('bm25');
    expect(out.results[0]).toMatchObject({
      rank: 1,
      id: 'p:nikkor',
      name: 'AF-S Nikkor 200-500mm',
      type: 'product',
    });
    expect(out.results[0]!.why).toBe('text: “Telephoto zoom lens with F-mount for birds and wildlife.”');
    expect(out.results.length).toBeLessThanOrEqual(3);
  });

  it('search with the default stack says which path reached a node named by the query', async () => {
    const out = await createWeftOperations(store).search({ query: 'Nikon gear for wildlife', limit: 5 });
    expect(out.stack).toBe('default');
    expect(out.results.map((r) => r.id)).toContain('p:d850');
    for (const row of out.results) expect(row.why).toMatch(/^(path|text|reached|scores): /);
  });

  it('get_node gives the document and the edges by type with counts and first neighbours', async () => {
    const node = await ops.getNode({ id: 'b:nikon' });
    expect(node).toMatchObject({
      id: 'b:nikon',
      name: 'Nikon',
      type: 'brand',
      aliases: ['Nikon Corporation'],
    });
    expect(node.document).toBe('Japanese maker of cameras and optics.');
    expect(node.edges).toEqual([
      {
        edgeType: 'made_by',
        direction: 'in',
        count: 3,
        neighbours: expect.arrayContaining([
          { id: 'p:nikkor', name: 'AF-S Nikkor 200-500mm', type: 'product' },
        ]),
      },
    ]);
  });

  it('neighbors follows one edge type one way, capped by limit', async () => {
    const out = await ops.neighbors({ id: 'b:nikon', edgeType: 'made_by', direction: 'in', limit: 2 });
    expect(out.neighbours).toHaveLength(2);
    expect(out.truncated).toBe(true);
    for (const n of out.neighbours)
      expect(n).toMatchObject({ edgeType: 'made_by', direction: 'in', type: 'product' });
    const out2 = await ops.neighbors({ id: 'p:nikkor' });
    expect(out2.neighbours.map((n) => `${n.edgeType} ${n.id}`).sort()).toEqual(
      expect.arrayContaining(['made_by b:nikon']),
    );
    expect(out2.truncated).toBe(false);
  });

  it('bad arguments, unknown ids, stacks and edge types are WeftErrors with a clear message', async () => {
    await expect(ops.getNode({ id: 'p:nope' })).rejects.toMatchObject({
      code: 'WEFT_NOT_FOUND',
      message: expect.stringContaining('no node has the id "p:nope"'),
    });
    await expect(ops.neighbors({ id: 'p:nope' })).rejects.toMatchObject({ code: 'WEFT_NOT_FOUND' });
    await expect(ops.neighbors({ id: 'b:nikon', edgeType: 'likes' })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('unknown edge type "likes" (edge types: made_by'),
    });
    await expect(ops.search({ query: 'lens', stack: 'nope' })).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('unknown stack "nope"'),
    });
    await expect(ops.search({ query: '   ' })).rejects.toMatchObject({ code: 'WEFT_BAD_INPUT' });
    await expect(ops.search({ query: 'lens', limit: 0 } as never)).rejects.toMatchObject({
      message: expect.stringContaining('limit'),
    });
    await expect(ops.ask({ question: 'which lens?' })).rejects.toMatchObject({ code: 'WEFT_UNSUPPORTED' });
    expect(() => createWeftOperations(store, { stack: 'nope' })).toThrow(/unknown stack "nope"/);
  });

  it('a call past timeoutMs fails with WEFT_TIMEOUT even when the stack ignores the signal', async () => {
    const registry = createStackRegistry().register({
      name: 'stall',
      description: 'never answers and ignores aborts',
      create: () =>
        ({
          specificationVersion: 'v1',
          name: 'stall',
          doRetrieve: () => new Promise(() => {}),
        }) satisfies RetrieverV1,
    });
    const slow = createWeftOperations(store, { registry, stack: 'stall', timeoutMs: 50 });
    await expect(slow.search({ query: 'lens' })).rejects.toMatchObject({
      code: 'WEFT_TIMEOUT',
      message: 'the call ran past the 50 ms limit and was aborted',
    });
    // Other calls are not slowed by the limit.
    expect((await slow.getNode({ id: 'p:ef' })).name).toBe('Canon EF 100-400mm');
    const cancelled = new AbortController();
    const pending = slow.search({ query: 'lens' }, { abortSignal: cancelled.signal });
    cancelled.abort();
    await expect(pending).rejects.toMatchObject({ code: 'WEFT_ABORTED' });
    // A signal that fired before the call.
    await expect(slow.search({ query: 'lens' }, { abortSignal: cancelled.signal })).rejects.toMatchObject({
      code: 'WEFT_ABORTED',
    });
  });

  it('matchedText picks the sentence sharing the most words with the query', () => {
    expect(matchedText('birds lens', 'A camera. A lens for birds. Birds.')).toBe('A lens for birds.');
    expect(matchedText('the of', 'anything')).toBeUndefined();
  });
});

describe('weftTools with generateText (only the model is mocked)', () => {
  it('offers search, get_node and neighbors, and ask only with a model', () => {
    expect(Object.keys(weftTools(store))).toEqual(['search', 'get_node', 'neighbors']);
    const model = new MockLanguageModelV4({ doGenerate: async () => textResult('x') });
    expect(Object.keys(weftTools(store, { createOptions: { languageModel: model } }))).toContain('ask');
  });

  it('runs the search tool the model calls and hands its result back to the model', async () => {
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        step++;
        if (step === 1)
          return {
            ...textResult(''),
            content: [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: 'search',
                input: JSON.stringify({ query: 'telephoto zoom lens for birds', limit: 2 }),
              },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          };
        return textResult('The AF-S Nikkor 200-500mm [p:nikkor].');
      },
    });
    const result = await generateText({
      model,
      tools: weftTools(store, { stack: 'bm25' }),
      prompt: 'Which lens for birds?',
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('The AF-S Nikkor 200-500mm [p:nikkor].');
    const toolResults = result.steps.flatMap((s) => s.toolResults);
    expect(toolResults).toHaveLength(1);
    expect(toolResults[0]!.toolName).toBe('search');
    expect((toolResults[0]!.output as { results: { id: string }[] }).results[0]!.id).toBe('p:nikkor');
    // The second call saw the tool's result in its prompt.
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('p:nikkor');
  });

  it('an unknown id from the model comes back as a tool error, not a crash', async () => {
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        step++;
        if (step === 1)
          return {
            ...textResult(''),
            content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'get_node', input: '{"id":"p:nope"}' }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          };
        return textResult('No such node.');
      },
    });
    const result = await generateText({
      model,
      tools: weftTools(store),
      prompt: 'x',
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('No such node.');
    const errors = result.steps.flatMap((s) => s.content.filter((p) => p.type === 'tool-error'));
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(model.doGenerateCalls[1]!.prompt)).toContain('no node has the id');
  });
});

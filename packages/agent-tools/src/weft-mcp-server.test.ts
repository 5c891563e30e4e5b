import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { MockLanguageModelV4, toyContext } from '@weft/core/test';
import { afterEach, describe, expect, it } from 'vitest';
import { createWeftMcpServer, type WeftToolsOptions } from './index.ts';

/** A model whose every answer streams `text` (the grounded answer of `ask`). */
function answerModel(text: string): MockLanguageModelV4 {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'text-start', id: '1' },
    { type: 'text-delta', id: '1', delta: text },
    { type: 'text-end', id: '1' },
    {
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 10, text: 10, reasoning: 0 },
      },
    },
  ];
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** The SDK's own client connected to the server in memory. */
async function connect(options: WeftToolsOptions = {}): Promise<Client> {
  const server = createWeftMcpServer({ context: toyContext() }, { stack: 'bm25', ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

const json = (result: Awaited<ReturnType<Client['callTool']>>) =>
  JSON.parse((result.content as { type: string; text: string }[])[0]!.text);

describe('createWeftMcpServer with the SDK client (in memory)', () => {
  it('lists search, get_node and neighbors with JSON schemas, and tells the client about the store', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search', 'get_node', 'neighbors']);
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(['query', 'stack', 'limit']);
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(client.getInstructions()).toContain('"toy-cameras"');
    expect(client.getInstructions()).toContain('Edge types: made_by, in_category');
    expect(client.getServerVersion()).toMatchObject({ name: 'weft' });
  });

  it('answers a call with JSON text and the same structured content', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'search',
      arguments: { query: 'entry level dslr', limit: 2 },
    });
    expect(result.isError).toBeFalsy();
    const out = json(result);
    expect(out.results[0]).toMatchObject({ rank: 1, id: 'p:d3500', type: 'product' });
    expect(result.structuredContent).toEqual(out);
  });

  it('answers bad arguments, unknown ids and unknown tools with tool errors; the server keeps serving', async () => {
    const client = await connect();
    const missing = await client.callTool({ name: 'get_node', arguments: { id: 'p:nope' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as { text: string }[])[0]!.text).toMatch(
      /^WEFT_NOT_FOUND: no node has the id "p:nope"/,
    );
    const badLimit = await client.callTool({ name: 'search', arguments: { query: 'lens', limit: 1000 } });
    expect(badLimit.isError).toBe(true);
    expect((badLimit.content as { text: string }[])[0]!.text).toMatch(/limit/);
    const noQuery = await client.callTool({ name: 'search', arguments: {} });
    expect(noQuery.isError).toBe(true);
    const badEdge = await client.callTool({ name: 'neighbors', arguments: { id: 'b:nikon', edgeType: 'x' } });
    expect((badEdge.content as { text: string }[])[0]!.text).toMatch(
      /^WEFT_BAD_INPUT: unknown edge type "x"/,
    );
    const ask = await client.callTool({ name: 'ask', arguments: { question: 'which lens?' } });
    expect(ask.isError).toBe(true);
    expect((ask.content as { text: string }[])[0]!.text).toMatch(/ask not found/i);
    expect(json(await client.callTool({ name: 'get_node', arguments: { id: 'p:d3500' } })).name).toBe(
      'Nikon D3500',
    );
  });

  it('offers ask with a model: a grounded answer whose citations are checked against the evidence', async () => {
    const model = answerModel('The AF-S Nikkor 200-500mm [p:nikkor] suits birds; see also [p:invented].');
    const client = await connect({ createOptions: { languageModel: model } });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('ask');
    const out = json(
      await client.callTool({ name: 'ask', arguments: { question: 'telephoto zoom lens for birds' } }),
    );
    expect(out).toMatchObject({ status: 'answered', stack: 'bm25', invalidCitations: ['p:invented'] });
    expect(out.citations).toContainEqual({ id: 'p:nikkor', valid: true });
    expect(out.evidence).toContain('p:nikkor');
    expect(JSON.stringify(model.doStreamCalls[0]!.prompt)).toContain('[p:nikkor]');
  });
});

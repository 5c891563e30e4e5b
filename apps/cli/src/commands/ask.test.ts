import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStackRegistry } from '@weft/stacks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { deadPort } from '../testing/canned-openai-server.ts';
import { toyOpener } from '../testing/toy-store.ts';
import { createAskCommand } from './ask.ts';

/**
 * An OpenAI-compatible server on 127.0.0.1 that streams a canned answer as server-sent events, the
 * way `streamText` asks for it (`stream: true`), so the real `openai-compatible` provider runs.
 */
async function sseServer(answer: (prompt: string) => readonly string[]) {
  const requests: { stream: boolean; prompt: string }[] = [];
  const server: Server = createServer(async (message, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of message) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      stream?: boolean;
      messages?: { content: unknown }[];
    };
    const prompt = (body.messages ?? [])
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    requests.push({ stream: body.stream === true, prompt });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'canned',
        choices: [{ index: 0, delta, finish_reason: finish }],
        ...(usage ? { usage } : {}),
      })}\n\n`;
    response.write(event({ role: 'assistant', content: '' }, null));
    for (const piece of answer(prompt)) response.write(event({ content: piece }, null));
    response.write(event({}, 'stop', { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 }));
    response.end('data: [DONE]\n\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const command = () => createAskCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
const ask = async (argv: readonly string[]) => {
  const c = captureIo();
  const code = await runCli(
    ['ask', 'Nikon telephoto zoom lens for birds', '--db', 'store', '--stack', 'bm25', ...argv],
    c.io,
    [command()],
  );
  return { code, out: c.out(), err: c.err() };
};

describe('weft ask', () => {
  let server: Awaited<ReturnType<typeof sseServer>>;
  beforeAll(async () => {
    server = await sseServer((prompt) =>
      prompt.includes('garbage')
        ? ['xq7 ##', ' lorem [[ ipsum', ' zzz']
        : prompt.includes('[p:nikkor]')
          ? [
              'The AF-S Nikkor 200-500mm ',
              'is a telephoto zoom for birds [p:nikkor]. ',
              'It fits the Nikon D850 [p:zz-invented].',
            ]
          : ['I cannot tell from the evidence.'],
    );
  });
  afterAll(() => server.close());

  it('without a model prints the evidence and says that no model was given', async () => {
    const { code, out, err } = await ask([]);
    expect(code).toBe(0);
    expect(out).toContain('[p:nikkor] AF-S Nikkor 200-500mm (product): Telephoto zoom lens');
    expect(err).toContain('No model was given');
  });

  it('streams an answer through the openai-compatible provider and checks its citations', async () => {
    const model = `openai-compatible:${server.baseURL}:canned`;
    const { code, out } = await ask(['--model', model]);
    expect(code).toBe(0);
    expect(server.requests.at(-1)!.stream).toBe(true);
    expect(out).toContain('The AF-S Nikkor 200-500mm is a telephoto zoom for birds [p:nikkor].');
    expect(out).toContain('Cited 1 node of the evidence: p:nikkor.');
    expect(out).toContain('Not in the evidence (invented or misquoted): p:zz-invented');
    expect(out).toContain('Uncited: It fits the Nikon D850 [p:zz-invented].');
  });

  it('--json reports every citation, the invalid ones and the uncited claims, with the evidence', async () => {
    const { code, out } = await ask(['--model', `openai-compatible:${server.baseURL}:canned`, '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json.status).toBe('answered');
    expect(json.citations).toEqual([
      { id: 'p:nikkor', valid: true },
      { id: 'p:zz-invented', valid: false },
    ]);
    expect(json.invalidCitations).toEqual(['p:zz-invented']);
    expect(json.uncitedClaims).toEqual(['It fits the Nikon D850 [p:zz-invented].']);
    expect(json.marked).toContain('[not in evidence: p:zz-invented]');
    expect(json.usage).toEqual({ inputTokens: 321, outputTokens: 12 });
    expect(json.evidence.nodes[0].id).toBe(json.retrieval.results[0]);
  });

  it('--json without a model: evidence only, status no-model', async () => {
    const { code, out } = await ask(['--json']);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(json.status).toBe('no-model');
    expect(json.note).toContain('no model was given');
    expect(json.evidence.nodes.length).toBeGreaterThan(0);
  });

  it('exits 2 on bad usage', async () => {
    const c = captureIo();
    expect(await runCli(['ask', '--db', 'x'], c.io, [command()])).toBe(2);
    expect(c.err()).toContain('expected exactly one question');
  });

  it('a garbage reply is no answer: status ungrounded and exit 1, never "Cited 0 nodes"', async () => {
    const model = `openai-compatible:${server.baseURL}:canned`;
    const run = async (extra: readonly string[]) => {
      const c = captureIo();
      const code = await runCli(
        [
          'ask',
          'garbage Nikon telephoto lens',
          '--db',
          'store',
          '--stack',
          'bm25',
          '--model',
          model,
          ...extra,
        ],
        c.io,
        [command()],
      );
      return { code, out: c.out(), err: c.err() };
    };
    const text = await run([]);
    expect(text.code).toBe(1);
    expect(text.out).not.toContain('Cited 0 nodes');
    expect(text.err).toContain("No grounded answer: the model's reply cites no node of the evidence");
    const json = await run(['--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out).status).toBe('ungrounded');
  });

  it('a model that fails (dead port) still prints the evidence it gathered, and exits 1', async () => {
    const port = await deadPort();
    const { code, out, err } = await ask(['--model', `openai-compatible:http://127.0.0.1:${port}/v1:x`]);
    expect(code).toBe(1);
    expect(out).toContain('[p:nikkor] AF-S Nikkor 200-500mm (product): Telephoto zoom lens');
    expect(err).toMatch(/The model failed to answer: .*Above is the evidence an answer would rest on/);
  });
});

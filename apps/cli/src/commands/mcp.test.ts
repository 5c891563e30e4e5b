import { PassThrough } from 'node:stream';
import { createStackRegistry } from '@weft/stacks';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener } from '../testing/toy-store.ts';
import { createMcpCommand } from './mcp.ts';

/** The JSON-RPC messages stdout holds so far (one per line, as MCP's stdio transport frames them). */
const messages = (out: string) =>
  out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id?: number; result?: Record<string, unknown> });

async function answer(out: () => string, id: number) {
  for (let i = 0; i < 2000; i++) {
    const found = messages(out()).find((m) => m.id === id);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no answer to request ${id}; stdout: ${out()}`);
}

describe('weft mcp (in process, on the toy store in memory)', () => {
  it('speaks MCP on stdin/stdout only, stops when stdin ends, closes the store and leaves no signal handlers', async () => {
    const opener = toyOpener();
    const c = captureIo();
    const stdin = new PassThrough();
    const command = createMcpCommand({ openStore: opener.open, registry: createStackRegistry() }, { stdin });
    const listeners = [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
    const running = runCli(['mcp', '--db', 'store', '--stack', 'bm25'], c.io, [command]);
    const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    expect((await answer(c.out, 1)).result).toMatchObject({ serverInfo: { name: 'weft' } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const tools = (await answer(c.out, 2)).result!.tools as { name: string }[];
    expect(tools.map((t) => t.name)).toEqual(['search', 'get_node', 'neighbors']);
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'entry level dslr', limit: 1 } },
    });
    const search = (await answer(c.out, 3)).result as { structuredContent: { results: { id: string }[] } };
    expect(search.structuredContent.results.map((r) => r.id)).toEqual(['p:d3500']);
    stdin.end();
    expect(await running).toBe(0);
    // Nothing but JSON-RPC on stdout; people's lines on stderr.
    expect(messages(c.out()).every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    expect(c.err()).toMatch(
      /^weft mcp: .*store \(15 nodes\) over stdio; tools: search, get_node, neighbors; default stack bm25$/m,
    );
    expect(c.err()).toMatch(/weft mcp: stopped \(stdin closed\)/);
    expect(opener.closed()).toBe(1);
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')]).toEqual(listeners);
  });

  it('an unknown --stack or a stray argument is a usage error (exit 2) before the store is opened', async () => {
    const opener = toyOpener();
    const command = createMcpCommand({ openStore: opener.open, registry: createStackRegistry() });
    const c = captureIo();
    expect(await runCli(['mcp', '--db', 'store', '--stack', 'nope'], c.io, [command])).toBe(2);
    expect(c.err()).toMatch(/weft mcp: unknown stack "nope" \(stacks: bm25, /);
    const d = captureIo();
    expect(await runCli(['mcp', '--db', 'store', 'extra'], d.io, [command])).toBe(2);
    expect(d.err()).toMatch(/unexpected argument "extra"/);
    expect(opener.opened).toHaveLength(0);
  });
});

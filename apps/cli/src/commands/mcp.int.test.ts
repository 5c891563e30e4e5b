// `weft mcp` as MCP clients use it: the real command in its own process on a real store (Kùzu +
// LanceDB, the toy shop), driven by the official SDK's Client over stdio and by the MCP Inspector's CLI.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toyWorkspace } from '../testing/toy-store.ts';

const mainScript = fileURLToPath(new URL('../main.ts', import.meta.url));
const node = ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', mainScript];
const inspector = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
beforeAll(async () => {
  workspace = await toyWorkspace();
  await buildStore({ bundle: workspace.bundle, directory: workspace.db });
});
afterAll(async () => {
  await workspace?.cleanup();
});

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: ToolResult) => (result.content as { type: string; text: string }[])[0]!.text;

describe('weft mcp with the SDK client over stdio', () => {
  it('lists the tools, searches, reads a node and its neighbours, reports errors as tool errors, and stops when stdin closes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...node, 'mcp', '--db', workspace.db, '--stack', 'bm25'],
      env: { ...(process.env as Record<string, string>), LANCEDB_LOG: 'error' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const client = new Client({ name: 'weft-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('weft');
      const { tools } = await client.listTools();
      // No --model: no ask tool.
      expect(tools.map((t) => t.name)).toEqual(['search', 'get_node', 'neighbors']);
      for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(80);

      const search = await client.callTool({
        name: 'search',
        arguments: { query: 'telephoto zoom lens for birds', limit: 3 },
      });
      expect(search.isError).toBeFalsy();
      const ranked = JSON.parse(text(search));
      expect(ranked.stack).toBe('bm25');
      expect(ranked.results[0]).toMatchObject({ rank: 1, id: 'p:nikkor', name: 'AF-S Nikkor 200-500mm' });
      expect(ranked.results[0].why).toBe('text: “Telephoto zoom lens with F-mount for birds and wildlife.”');
      // Another stack than the default, by name.
      const byDefault = JSON.parse(
        text(
          await client.callTool({
            name: 'search',
            arguments: { query: 'Nikon zoom lens', stack: 'default' },
          }),
        ),
      );
      expect(byDefault.stack).toBe('default');
      expect(byDefault.results.map((r: { id: string }) => r.id)).toContain('p:nikkor');

      const nodeView = JSON.parse(
        text(await client.callTool({ name: 'get_node', arguments: { id: 'p:nikkor' } })),
      );
      expect(nodeView).toMatchObject({
        id: 'p:nikkor',
        type: 'product',
        document: 'Telephoto zoom lens with F-mount for birds and wildlife.',
      });
      expect(nodeView.edges).toContainEqual({
        edgeType: 'made_by',
        direction: 'out',
        count: 1,
        neighbours: [{ id: 'b:nikon', name: 'Nikon', type: 'brand' }],
      });

      const neighbours = JSON.parse(
        text(
          await client.callTool({
            name: 'neighbors',
            arguments: { id: 'b:nikon', edgeType: 'made_by', direction: 'in' },
          }),
        ),
      );
      expect(neighbours.neighbours.map((n: { id: string }) => n.id).sort()).toEqual([
        'p:d3500',
        'p:d850',
        'p:nikkor',
      ]);

      const missing = await client.callTool({ name: 'get_node', arguments: { id: 'p:nope' } });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/^WEFT_NOT_FOUND: no node has the id "p:nope"/);
      const badDirection = await client.callTool({
        name: 'neighbors',
        arguments: { id: 'b:nikon', direction: 'sideways' },
      });
      expect(badDirection.isError).toBe(true);
      expect(text(badDirection)).toMatch(/direction/);
      const badStack = await client.callTool({ name: 'search', arguments: { query: 'lens', stack: 'nope' } });
      expect(text(badStack)).toMatch(/^WEFT_BAD_INPUT: unknown stack "nope" \(stacks: bm25, /);
      // Still serving after the errors.
      expect((await client.listTools()).tools).toHaveLength(3);
    } finally {
      await client.close();
    }
    await expect.poll(() => stderr, { timeout: 10_000 }).toMatch(/weft mcp: stopped \(stdin closed\)/);
    expect(stderr).toMatch(
      /weft mcp: .+ \(15 nodes\) over stdio; tools: search, get_node, neighbors; default stack bm25/,
    );
  });

  it('refuses an unknown --stack and a missing --db before serving (exit 2)', async () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [...node, 'mcp', ...args], { timeout: 60_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    const stack = await run(['--db', workspace.db, '--stack', 'nope']);
    expect(stack.code).toBe(2);
    expect(stack.stderr).toMatch(/weft mcp: unknown stack "nope"/);
    const db = await run([]);
    expect(db.code).toBe(2);
    expect(db.stderr).toMatch(/--db is required/);
  });
});

describe('weft mcp with the MCP Inspector CLI (npx @modelcontextprotocol/inspector --cli)', () => {
  const runInspector = (args: string[]) =>
    promisify(execFile)(
      process.execPath,
      [inspector, '--cli', process.execPath, ...node, 'mcp', '--db', workspace.db, ...args],
      {
        timeout: 120_000,
        maxBuffer: 16 * 2 ** 20,
        // Its catalog of servers goes to the test's folder, never to ~/.mcp-inspector.
        env: { ...process.env, MCP_CATALOG_PATH: path.join(workspace.root, 'inspector-catalog.json') },
      },
    );

  it('tools/list: the three tools with their input schemas', async () => {
    const { stdout } = await runInspector(['--method', 'tools/list']);
    const { tools } = JSON.parse(stdout) as {
      tools: { name: string; inputSchema: { required?: string[]; properties: Record<string, unknown> } }[];
    };
    expect(tools.map((t) => t.name)).toEqual(['search', 'get_node', 'neighbors']);
    expect(tools[0]!.inputSchema.required).toEqual(['query']);
    expect(tools[2]!.inputSchema.properties.direction).toMatchObject({ enum: ['out', 'in', 'both'] });
  });

  it('tools/call search with --tool-arg: the ranked nodes', async () => {
    const { stdout } = await runInspector([
      '--method',
      'tools/call',
      '--tool-name',
      'search',
      '--tool-arg',
      'query=entry level dslr',
      'limit=2',
    ]);
    const result = JSON.parse(stdout) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    const ranked = JSON.parse(result.content[0]!.text);
    expect(ranked.results).toHaveLength(2);
    expect(ranked.results[0]).toMatchObject({ rank: 1, id: 'p:d3500', name: 'Nikon D3500' });
  });

  it('tools/call get_node of an unknown id: a tool error, and the Inspector says so (exit 5)', async () => {
    const failed = await runInspector([
      '--method',
      'tools/call',
      '--tool-name',
      'get_node',
      '--tool-arg',
      'id=p:nope',
    ]).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(5);
    expect(failed?.stderr).toContain(`"code":"tool_is_error"`);
    const result = JSON.parse(failed!.stdout) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^WEFT_NOT_FOUND: no node has the id "p:nope"/);
  });
});

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WeftError } from '@weft/core';
import { askInput, getNodeInput, neighborsInput, searchInput, toolDescriptions } from './tool-schemas.ts';
import {
  createWeftOperations,
  type WeftOperations,
  type WeftToolsOptions,
  type WeftToolsStore,
} from './weft-operations.ts';

/** The version the MCP server reports in its handshake. */
export const weftMcpVersion = '0.1.0';

/** A tool's result: its JSON as text (what every client shows a model) and as structured content. */
function success(value: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/** A failure as a tool error (`isError`), never a crash of the server: `WEFT_NOT_FOUND: no node …`. */
function failure(error: unknown): CallToolResult {
  const code = error instanceof WeftError ? error.code : 'WEFT_RUNTIME';
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
}

async function run(work: () => Promise<object>): Promise<CallToolResult> {
  try {
    return success(await work());
  } catch (error) {
    return failure(error);
  }
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * Registers Weft's tools on an MCP server: `search`, `get_node`, `neighbors`, and `ask` when the
 * operations have a model. Arguments are validated by the SDK against the same zod schemas as the AI
 * SDK tools (a bad one is a tool error), and every failure is a tool error with its Weft code.
 */
export function registerWeftTools(
  server: McpServer,
  store: WeftToolsStore | WeftOperations,
  options: WeftToolsOptions = {},
): WeftOperations {
  const operations = 'search' in store ? store : createWeftOperations(store, options);
  server.registerTool(
    'search',
    {
      title: 'Search the knowledge graph',
      description: toolDescriptions.search,
      inputSchema: searchInput,
      annotations: readOnly,
    },
    (input, extra) => run(() => operations.search(input, { abortSignal: extra.signal })),
  );
  server.registerTool(
    'get_node',
    {
      title: 'Read a node',
      description: toolDescriptions.get_node,
      inputSchema: getNodeInput,
      annotations: readOnly,
    },
    (input, extra) => run(() => operations.getNode(input, { abortSignal: extra.signal })),
  );
  server.registerTool(
    'neighbors',
    {
      title: 'Follow relations',
      description: toolDescriptions.neighbors,
      inputSchema: neighborsInput,
      annotations: readOnly,
    },
    (input, extra) => run(() => operations.neighbors(input, { abortSignal: extra.signal })),
  );
  if (operations.model)
    server.registerTool(
      'ask',
      {
        title: 'Answer with citations',
        description: toolDescriptions.ask,
        inputSchema: askInput,
        annotations: { ...readOnly, idempotentHint: false, openWorldHint: true },
      },
      (input, extra) => run(() => operations.ask(input, { abortSignal: extra.signal })),
    );
  return operations;
}

/** What a client is told about the store when it connects (the schema's types and relations). */
function instructions(operations: WeftOperations): string {
  const schema = operations.schema();
  const list = (names: readonly string[]) =>
    names.length > 30 ? `${names.slice(0, 30).join(', ')}, … (${names.length - 30} more)` : names.join(', ');
  return [
    `Weft: hybrid graph and text retrieval over the knowledge graph "${schema.name}"${schema.description ? ` (${schema.description})` : ''}.`,
    `Node types: ${list(schema.nodeTypes.map((t) => t.name))}.`,
    `Edge types: ${list([...new Set(schema.edgeTypes.map((e) => e.name))])}.`,
    'Use search to find nodes for a question, get_node to read one, neighbors to follow its relations.',
  ].join('\n');
}

/** An MCP server named `weft` with the tools registered (connect it to a transport). */
export function createWeftMcpServer(
  store: WeftToolsStore | WeftOperations,
  options: WeftToolsOptions = {},
): McpServer {
  const operations = 'search' in store ? store : createWeftOperations(store, options);
  const server = new McpServer(
    { name: 'weft', version: weftMcpVersion },
    { instructions: instructions(operations), capabilities: { tools: {} } },
  );
  registerWeftTools(server, operations);
  return server;
}

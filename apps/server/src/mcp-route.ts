import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createWeftMcpServer, type WeftOperations } from '@weft/agent-tools';
import type { Context, MiddlewareHandler } from 'hono';
import type { RequestTracker } from './request-tracker.ts';

const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('McpMessage', {
    description: 'A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them)',
    example: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 'a part of the eye', limit: 5 } },
    },
  });

const jsonRpcAnswer = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]).optional(),
    result: z.unknown().optional(),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi('McpAnswer', { description: 'The JSON-RPC answer (tool errors are results with isError: true)' });

const json = <T>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A JSON-RPC error answer for what a stateless server does not do. */
const notAllowed = (c: Context) =>
  c.json(
    {
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages to it',
      },
      id: null,
    },
    405,
    { Allow: 'POST' },
  );

/**
 * `POST /mcp`: the agent tools of `@weft/agent-tools` (search, get_node, neighbors, and ask with a
 * model) over MCP's Streamable HTTP transport, stateless: each request gets a server and a transport
 * of its own over the app's shared operations (and so its shared stacks), answered as JSON. `GET` and
 * `DELETE` (server-sent streams and sessions) are 405. Behind the same API keys and read scope as the
 * other read endpoints (the caller adds them).
 */
export function registerMcpRoute(
  app: OpenAPIHono,
  options: {
    readonly operations: WeftOperations;
    readonly tracker: RequestTracker;
    readonly before: readonly MiddlewareHandler[];
  },
): void {
  app.use('/mcp', ...options.before);
  app.post('/mcp', async (c) => {
    const server = createWeftMcpServer(options.operations);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await options.tracker.track(transport.handleRequest(c.req.raw));
    } finally {
      await server.close();
    }
  });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);

  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    summary:
      'The Model Context Protocol (Streamable HTTP, stateless): tools search, get_node, neighbors, ask',
    description:
      'An MCP endpoint for AI agents: the tools of weft mcp (search, get_node, neighbors; ask when the server has a model). ' +
      'Send JSON-RPC messages (initialize, tools/list, tools/call) with Accept: application/json, text/event-stream; each is answered as JSON. ' +
      'Needs the read scope when the server has API keys.',
    request: { body: { content: { 'application/json': { schema: jsonRpcMessage } }, required: true } },
    responses: {
      200: json(jsonRpcAnswer, 'the JSON-RPC answer'),
      202: { description: 'a notification or response was accepted (no body)' },
      400: json(jsonRpcAnswer, 'not a JSON-RPC message (JSON-RPC error -32700 or -32600)'),
      401: json(jsonRpcAnswer, 'WEFT_UNAUTHORIZED: no valid API key; only when the server has keys'),
      403: json(
        jsonRpcAnswer,
        'WEFT_FORBIDDEN: the API key lacks the read scope; only when the server has keys',
      ),
      406: json(jsonRpcAnswer, 'the Accept header does not take application/json and text/event-stream'),
      413: json(jsonRpcAnswer, 'WEFT_BODY_TOO_LARGE'),
      415: json(jsonRpcAnswer, 'the body is not declared as JSON'),
    },
  });
}

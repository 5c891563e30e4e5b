import { createRoute } from '@hono/zod-openapi';
import type { ApiSchemas } from './api-schemas.ts';

/** The API's routes as OpenAPI operations: method, path, request schemas and every answer. */
export function apiRoutes(s: ApiSchemas) {
  const json = <T>(schema: T, description: string) => ({
    content: { 'application/json': { schema } },
    description,
  });
  const badInput = json(
    s.error,
    'bad input: WEFT_BAD_JSON, WEFT_BAD_INPUT, WEFT_UNKNOWN_STACK, WEFT_QUERY_TOO_LONG, WEFT_LIMIT_OUT_OF_RANGE',
  );
  const unavailable = json(s.error, 'WEFT_UNAVAILABLE: the server is shutting down');
  // Only when the server has API keys (weft serve --api-key-file).
  const keyed = {
    401: json(
      s.error,
      'WEFT_UNAUTHORIZED: no valid API key (Authorization: Bearer <key>); only when the server has keys',
    ),
    403: json(s.error, 'WEFT_FORBIDDEN: the API key lacks the read scope; only when the server has keys'),
  };

  const query = createRoute({
    method: 'post',
    path: '/query',
    operationId: 'queryNodes',
    summary: 'Rank the nodes of the store for a question (the JSON of weft query --json)',
    request: { body: { content: { 'application/json': { schema: s.queryRequest } }, required: true } },
    responses: {
      200: json(s.queryResponse, 'the ranking; with explain, the plan, the trace and the paths'),
      400: badInput,
      ...keyed,
      413: json(s.error, 'WEFT_BODY_TOO_LARGE'),
      415: json(s.error, 'WEFT_UNSUPPORTED_MEDIA_TYPE: the body is not declared as JSON'),
      500: json(s.error, 'WEFT_RUNTIME: the retrieval failed'),
      503: unavailable,
      504: json(s.error, 'WEFT_TIMEOUT: the retrieval ran past the per-request timeout and was aborted'),
    },
  });

  const stacks = createRoute({
    method: 'get',
    path: '/stacks',
    operationId: 'listStacks',
    summary: 'The stacks POST /query may name',
    responses: { 200: json(s.stacksResponse, 'the stacks, in listing order'), ...keyed, 503: unavailable },
  });

  const node = createRoute({
    method: 'get',
    path: '/nodes/{id}',
    operationId: 'getNode',
    summary: 'A node, its document, and its neighbours by edge type and direction (capped)',
    request: { params: s.nodeParams, query: s.nodeQuery },
    responses: {
      200: json(s.nodeResponse, 'the node'),
      400: badInput,
      ...keyed,
      404: json(s.error, 'WEFT_NOT_FOUND: no node has this id'),
      503: unavailable,
      504: json(s.error, 'WEFT_TIMEOUT'),
    },
  });

  const nodeSearch = createRoute({
    method: 'get',
    path: '/nodes',
    operationId: 'searchNodes',
    summary: 'Nodes by name or alias (exact matches first, then approximate ones)',
    request: { query: s.nodeSearchQuery },
    responses: {
      200: json(s.nodeSearchResponse, 'the matches, best first'),
      400: badInput,
      ...keyed,
      503: unavailable,
      504: json(s.error, 'WEFT_TIMEOUT'),
    },
  });

  const health = createRoute({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness, the store, request counters and memory',
    description: 'Open even when the server has API keys: load balancers call it.',
    security: [],
    responses: {
      200: json(s.healthResponse, 'serving'),
      408: {
        description:
          "the request's headers did not arrive within 10 s (Node's headersTimeout answers before any route runs)",
      },
      503: json(s.healthResponse, 'draining: shutting down, finishing in-flight requests'),
    },
  });

  const ask = createRoute({
    method: 'post',
    path: '/ask',
    operationId: 'askQuestion',
    summary: 'Answer a question from the store, citing node ids, streamed as server-sent events',
    description:
      'Events: `evidence` (the stack, the ranking and the evidence the answer rests on), then `delta` ' +
      '(`{text}`, as the model writes) and last `done` (the answer, each citation checked against the ' +
      'evidence, the sentences that cite nothing, and `status`: answered, ungrounded (the reply cites no ' +
      'node of the evidence: no answer to rely on), no-model, aborted or failed). ' +
      'Without a model on the server (`weft serve --model`) only the evidence comes, with status no-model.',
    request: { body: { content: { 'application/json': { schema: s.askRequest } }, required: true } },
    responses: {
      200: {
        content: { 'text/event-stream': { schema: s.askEvents } },
        description: 'events: evidence, delta…, done',
      },
      400: badInput,
      ...keyed,
      413: json(s.error, 'WEFT_BODY_TOO_LARGE'),
      415: json(s.error, 'WEFT_UNSUPPORTED_MEDIA_TYPE: the body is not declared as JSON'),
      500: json(s.error, 'WEFT_RUNTIME: the retrieval failed'),
      503: unavailable,
      504: json(s.error, 'WEFT_TIMEOUT: the retrieval ran past the per-request timeout and was aborted'),
    },
  });

  return { query, stacks, node, nodeSearch, health, ask };
}

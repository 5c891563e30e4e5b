import { z } from '@hono/zod-openapi';
import type { ServerLimits } from './server-limits.ts';

/**
 * The zod schemas of the HTTP API: requests are validated with them and `GET /openapi.json` is
 * generated from them, so the document cannot drift from what the server accepts. Request limits
 * come from the server's `ServerLimits`, hence a function.
 */
export function apiSchemas(limits: ServerLimits) {
  const error = z
    .object({
      error: z.object({
        code: z.string().openapi({ example: 'WEFT_UNKNOWN_STACK' }),
        message: z.string(),
        details: z.unknown().optional(),
      }),
    })
    .openapi('Error');

  const queryRequest = z
    .strictObject({
      query: z
        .string()
        .max(limits.maxQueryChars)
        .refine((text) => text.trim() !== '', { message: 'the query text is empty' })
        .openapi({ example: 'telephoto zoom lens for birds' }),
      stack: z
        .string()
        .optional()
        .openapi({ description: 'a name from GET /stacks (default: the default stack)' }),
      limit: z.int().min(1).max(limits.maxLimit).optional().openapi({ description: 'results (default 20)' }),
      explain: z
        .boolean()
        .optional()
        .openapi({ description: 'add the plan, the trace and the trajectories' }),
      documents: z
        .boolean()
        .optional()
        .openapi({ description: "add each result's document as `text` (not part of weft query --json)" }),
    })
    .openapi('QueryRequest');

  const hop = z
    .object({
      node: z.string(),
      nodeType: z.string().optional(),
      edgeType: z.string().optional(),
      direction: z.enum(['in', 'out']).optional(),
      textScore: z.number().optional(),
      via: z.enum(['anchor', 'structure', 'text', 'vector']),
    })
    .openapi('TrajectoryHop');
  const trajectory = z.object({ hops: z.array(hop), path: z.int().optional() }).openapi('Trajectory');

  const queryResponse = z
    .object({
      query: z.string(),
      stack: z.string(),
      results: z.array(
        z.object({
          rank: z.int(),
          id: z.string(),
          type: z.string().nullable(),
          name: z.string().nullable(),
          score: z.number(),
          text: z.string().optional().openapi({ description: 'the document, with `documents: true`' }),
        }),
      ),
      llm: z.object({
        calls: z.int(),
        inputTokens: z.int(),
        outputTokens: z.int(),
        embeddingCalls: z.int(),
        stages: z.array(z.looseObject({ stage: z.string() })),
      }),
      warnings: z.array(z.string()),
      explanation: z
        .object({
          plan: z.looseObject({}).nullable().openapi({ description: 'the Plan of @weft/spec (final round)' }),
          trace: z
            .looseObject({})
            .openapi({ description: 'the RetrievalTrace of @weft/spec, without the plan' }),
          trajectories: z.record(z.string(), z.array(trajectory)),
          labels: z.record(z.string(), z.object({ name: z.string(), type: z.string() })),
        })
        .optional(),
    })
    .openapi('QueryResponse');

  const stacksResponse = z
    .object({
      default: z.string(),
      stacks: z.array(z.object({ name: z.string(), description: z.string() })),
    })
    .openapi('Stacks');

  const nodeParams = z.object({
    id: z
      .string()
      .min(1)
      .openapi({ param: { name: 'id', in: 'path' }, example: 'p:d850' }),
  });
  const nodeQuery = z.object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(limits.maxNeighboursPerGroup)
      .optional()
      .openapi({
        description: `neighbours per edge type and direction (at most ${limits.maxNeighboursPerGroup})`,
      }),
  });
  const nodeResponse = z
    .object({
      node: z.object({
        id: z.string(),
        type: z.string(),
        name: z.string(),
        aliases: z.array(z.string()).optional(),
        props: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
      }),
      document: z.string(),
      neighbours: z.array(
        z.object({
          edgeType: z.string(),
          direction: z.enum(['in', 'out']),
          nodes: z.array(z.object({ id: z.string(), type: z.string(), name: z.string().nullable() })),
          truncated: z.boolean(),
        }),
      ),
    })
    .openapi('Node');

  const nodeSearchQuery = z.object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(limits.maxQueryChars)
      .openapi({ description: 'a name or alias, matched exactly, then approximately', example: 'Nikon' }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(limits.maxNeighboursPerGroup)
      .optional()
      .openapi({ description: `matches (default 10, at most ${limits.maxNeighboursPerGroup})` }),
  });
  const nodeSearchResponse = z
    .object({
      matches: z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          name: z.string(),
          matched: z.string().openapi({ description: 'the name or alias that matched' }),
          score: z.number().openapi({ description: '1 = the exact name' }),
        }),
      ),
    })
    .openapi('NodeMatches');

  const healthResponse = z
    .object({
      status: z.enum(['ok', 'draining']),
      store: z.object({
        name: z.string(),
        nodes: z.int(),
        edges: z.int(),
        version: z
          .int()
          .openapi({ description: 'updates committed since the store was built (weft update)' }),
        warnings: z.array(z.string()).openapi({
          description:
            'what answers from this store warn about, e.g. trained artifacts made stale by updates (run weft train)',
        }),
      }),
      stacks: z.int(),
      requests: z.object({
        inFlight: z.int(),
        served: z.int(),
        aborted: z.int(),
        timedOut: z.int(),
        rejected: z.int(),
        failed: z.int(),
      }),
      memory: z.object({ rssMiB: z.number(), peakRssMiB: z.number(), heapUsedMiB: z.number() }),
      limits: z.object({
        maxBodyBytes: z.int(),
        maxQueryChars: z.int(),
        maxLimit: z.int(),
        timeoutMs: z.int(),
      }),
      uptimeSeconds: z.number(),
    })
    .openapi('Health');

  const askRequest = z
    .strictObject({
      question: z
        .string()
        .max(limits.maxQueryChars)
        .refine((text) => text.trim() !== '', { message: 'the question is empty' })
        .openapi({ example: 'Which kind of headache affects mostly women?' }),
      stack: z
        .string()
        .optional()
        .openapi({ description: 'the stack that gathers the evidence (default: the default stack)' }),
      limit: z.int().min(1).max(limits.maxLimit).optional().openapi({
        description: 'nodes retrieved (default 20); the best ten and their paths are the evidence',
      }),
      maxEvidenceTokens: z
        .int()
        .min(50)
        .max(8000)
        .optional()
        .openapi({ description: 'token budget of the evidence (default 1500)' }),
    })
    .openapi('AskRequest');

  const askEvents = z.string().openapi({
    example:
      'event: evidence\ndata: {"question":"…","stack":"default","results":["…"],"evidence":{…}}\n\n' +
      'event: delta\ndata: {"text":"The …"}\n\n' +
      'event: done\ndata: {"status":"answered","answer":"…","citations":[…],…}\n\n',
  });

  return {
    error,
    queryRequest,
    queryResponse,
    stacksResponse,
    nodeParams,
    nodeQuery,
    nodeResponse,
    nodeSearchQuery,
    nodeSearchResponse,
    healthResponse,
    askRequest,
    askEvents,
  };
}

export type ApiSchemas = ReturnType<typeof apiSchemas>;

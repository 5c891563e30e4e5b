import { OpenAPIHono } from '@hono/zod-openapi';
import { createWeftOperations } from '@weft/agent-tools';
import {
  evidenceJson,
  type GroundedAnswerStream,
  groundedAnswerJson,
  streamGroundedAnswer,
} from '@weft/answer';
import { retrieve, WeftError } from '@weft/core';
import { fetchLabels, mentionedIds, queryResultJson } from '@weft/explain';
import type { StackCreateOptions, StackRegistry } from '@weft/stacks';
import { type OpenedStore, storeVersion } from '@weft/store';
import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { ApiError } from './api-error.ts';
import { type ApiKeys, apiKeyAuth, requireScope } from './api-keys.ts';
import { apiRoutes } from './api-routes.ts';
import { apiSchemas } from './api-schemas.ts';
import { type ApplyChangeSet, registerChangesRoute } from './changes-route.ts';
import { registerMcpRoute } from './mcp-route.ts';
import type { AssetSource } from './asset-source.ts';
import { nodeView } from './node-view.ts';
import { RequestTracker } from './request-tracker.ts';
import { runWithModelDeadline, withRequestModelDeadline } from './model-deadline.ts';
import { defaultLimits, modelCallTimeoutMs, type ServerLimits } from './server-limits.ts';
import { StackPool } from './stack-pool.ts';

/** What the server needs of an opened store. */
export type ServedStore = Pick<OpenedStore, 'context' | 'graph' | 'manifest'>;

export interface AppOptions {
  /** Opened once by the caller and shared by every request; the app never closes it. */
  readonly store: ServedStore;
  /** The stacks requests may name (default: the built-in stacks, via `@weft/stacks`). */
  readonly registry: StackRegistry;
  /** Handed to every stack when it is built (e.g. a language model for the LLM stacks). */
  readonly createOptions?: StackCreateOptions;
  readonly limits?: Partial<ServerLimits>;
  /** Static files for paths no route takes (the explorer); without it such paths are 404. */
  readonly assets?: AssetSource;
  /** Shared with the listener so that a shutdown can drain; a fresh one by default. */
  readonly tracker?: RequestTracker;
  /**
   * API keys (`weft serve --api-key-file`): every request but `GET /health` then needs
   * `Authorization: Bearer <key>` (401 without), and the API routes the key's `read` scope (403).
   * Without keys the server is open.
   */
  readonly apiKeys?: ApiKeys;
  /**
   * Called before every request: a served store that can change (`LiveStore`, after `weft update`)
   * switches to the committed version here.
   */
  readonly refreshStore?: () => Promise<void>;
  /**
   * What the served store's answers must warn about, asked on every `POST /query` (added to its
   * `warnings`) and `GET /health` (`store.warnings`): `serveStore` says when the trained artifacts
   * are stale (`staleArtifactsWarning` of `@weft/store`), as `weft query` does. None by default.
   */
  readonly storeWarnings?: () => Promise<readonly string[]>;
  /** What `POST /changes` runs (with API keys only; see `registerChangesRoute`); absent = 404. */
  readonly applyChanges?: ApplyChangeSet;
}

export interface WeftApp {
  readonly app: OpenAPIHono;
  readonly tracker: RequestTracker;
  readonly limits: ServerLimits;
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Zod issues as a 400: query length and limit range get their own codes, the rest WEFT_BAD_INPUT. */
function validationError(error: ZodError, limits: ServerLimits, path: string): ApiError {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = error.issues[0];
  const field = first?.path[0];
  if ((field === 'query' || field === 'question') && first?.code === 'too_big')
    return new ApiError(
      400,
      'WEFT_QUERY_TOO_LONG',
      `the ${field} is longer than ${limits.maxQueryChars} characters`,
    );
  if (
    field === 'limit' &&
    (first?.code === 'too_big' || first?.code === 'too_small' || first?.code === 'invalid_type')
  )
    return new ApiError(
      400,
      'WEFT_LIMIT_OUT_OF_RANGE',
      // The range the route's schema (and so the OpenAPI document) says: GET /nodes has its own.
      `limit must be an integer from 1 to ${path === '/nodes' || path.startsWith('/nodes/') ? limits.maxNeighboursPerGroup : limits.maxLimit}`,
      { issues },
    );
  const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return new ApiError(400, 'WEFT_BAD_INPUT', `invalid request: ${text}`, { issues });
}

/** Any error thrown by a handler as a JSON response. */
function errorResponse(c: Context, error: unknown): Response {
  let api: ApiError;
  if (error instanceof ApiError) api = error;
  else if (error instanceof HTTPException && error.status === 400)
    // Hono's JSON validator throws this for a body that does not parse (or is not declared JSON).
    api = new ApiError(400, 'WEFT_BAD_JSON', `the body is not JSON: ${error.message}`);
  else if (error instanceof HTTPException && error.status === 413)
    api = new ApiError(413, 'WEFT_BODY_TOO_LARGE', error.message);
  else if (WeftError.is(error, 'WEFT_BAD_INPUT') || WeftError.is(error, 'WEFT_EMBEDDER_MISMATCH'))
    api = new ApiError(400, 'WEFT_BAD_INPUT', error.message);
  else api = new ApiError(500, 'WEFT_RUNTIME', error instanceof Error ? error.message : String(error));
  return c.json(api.body(), api.status as ContentfulStatusCode);
}

interface Deadline {
  /** Fires on the per-request timeout, when the client goes away, or when a shutdown stops waiting. */
  readonly signal: AbortSignal;
  /** Why the signal fired, if it did. */
  readonly cause: 'timeout' | 'client' | 'shutdown' | undefined;
  /**
   * Waits for `work` (tracked in flight until it settles), or answers as soon as the signal fires even
   * if a stage does not honour it; an abort becomes the ApiError of its cause.
   */
  run<T>(work: Promise<T>): Promise<T>;
  dispose(): void;
}

/** One request's abort signal and the timer and listeners behind it. */
function requestDeadline(c: Context, tracker: RequestTracker, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let cause: Deadline['cause'];
  const stop = (why: 'timeout' | 'client' | 'shutdown') => {
    cause ??= why;
    controller.abort(
      new WeftError({ code: why === 'timeout' ? 'WEFT_TIMEOUT' : 'WEFT_ABORTED', message: why }),
    );
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onClient = () => stop('client');
  const onShutdown = () => stop('shutdown');
  const clientSignal = c.req.raw.signal;
  if (clientSignal.aborted) onClient();
  clientSignal.addEventListener('abort', onClient, { once: true });
  tracker.stopSignal.addEventListener('abort', onShutdown, { once: true });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(controller.signal.reason);
    controller.signal.addEventListener('abort', onAbort, { once: true });
  });
  // Nobody may be racing it when it fires (a stream outlives its run).
  aborted.catch(() => {});
  return {
    signal: controller.signal,
    get cause() {
      return cause;
    },
    async run(work) {
      try {
        return await Promise.race([tracker.track(work), aborted]);
      } catch (error) {
        if (cause === 'timeout')
          throw new ApiError(
            504,
            'WEFT_TIMEOUT',
            `the request ran past the ${timeoutMs} ms limit and was aborted`,
          );
        if (cause === 'client') throw new ApiError(499, 'WEFT_ABORTED', 'the client went away');
        if (cause === 'shutdown') throw new ApiError(503, 'WEFT_UNAVAILABLE', 'the server is shutting down');
        throw error;
      }
    },
    dispose() {
      clearTimeout(timer);
      clientSignal.removeEventListener('abort', onClient);
      tracker.stopSignal.removeEventListener('abort', onShutdown);
      if (onAbort) controller.signal.removeEventListener('abort', onAbort);
    },
  };
}

/** Runs one request's work under its deadline (see `requestDeadline`). */
async function withDeadline<T>(
  c: Context,
  tracker: RequestTracker,
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = requestDeadline(c, tracker, timeoutMs);
  try {
    return await deadline.run(work(deadline.signal));
  } finally {
    deadline.dispose();
  }
}

/**
 * The HTTP API over one opened store: `POST /query`, `GET /stacks`, `GET /nodes/{id}`, `GET /health`,
 * `POST /ask` (the answer as server-sent events), `POST /mcp` (the agent tools over MCP),
 * `GET /openapi.json`, and static assets for the rest.
 */
export function createApp(options: AppOptions): WeftApp {
  const limits: ServerLimits = { ...defaultLimits, ...options.limits };
  const tracker = options.tracker ?? new RequestTracker();
  const { store, registry } = options;
  // A model's calls end (as timed out) with time left for the fallback: a query is never failed by
  // its model. Throws a RangeError for settings that cannot work (see `modelCallTimeoutMs`).
  const givenModel = options.createOptions?.languageModel;
  const modelMs = givenModel
    ? modelCallTimeoutMs(limits.timeoutMs, options.createOptions?.modelTimeoutMs)
    : undefined;
  const createOptions =
    givenModel && modelMs !== undefined
      ? {
          ...options.createOptions,
          languageModel: withRequestModelDeadline(givenModel),
          modelTimeoutMs: modelMs,
        }
      : options.createOptions;
  const underModelDeadline = <T>(work: () => Promise<T>): Promise<T> =>
    modelMs === undefined ? work() : runWithModelDeadline(modelMs, work);
  const pool = new StackPool(registry, store, createOptions);
  const schemas = apiSchemas(limits);
  const routes = apiRoutes(schemas);
  const started = performance.now();
  const storeWarnings = options.storeWarnings ?? (async () => []);

  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return errorResponse(c, validationError(result.error, limits, c.req.path));
    },
  });
  app.onError((error, c) => errorResponse(c, error));
  app.notFound((c) =>
    errorResponse(c, new ApiError(404, 'WEFT_NOT_FOUND', `no route for ${c.req.method} ${c.req.path}`)),
  );

  // Draining: refuse new work, and ask keep-alive clients to reconnect elsewhere.
  app.use('*', async (c, next) => {
    if (tracker.draining && c.req.path !== '/health') {
      c.header('Connection', 'close');
      return errorResponse(c, new ApiError(503, 'WEFT_UNAVAILABLE', 'the server is shutting down'));
    }
    await next();
    if (tracker.draining) c.header('Connection', 'close');
    if (c.req.path === '/health') return;
    const status = c.res.status;
    if (status < 400) tracker.count('served');
    else if (status === 499 || status === 503) tracker.count('aborted');
    else if (status === 504) tracker.count('timedOut');
    else if (status < 500) tracker.count('rejected');
    else tracker.count('failed');
  });
  if (options.refreshStore) {
    const refresh = options.refreshStore;
    app.use('*', async (_c, next) => {
      await refresh();
      await next();
    });
  }
  if (options.apiKeys) {
    const assets = options.assets;
    // The explorer's files are open (the page then asks for a key); every API route needs one.
    app.use(
      '*',
      apiKeyAuth(options.apiKeys, assets ? async (path) => (await assets(path)) !== undefined : undefined),
    );
    const read = requireScope('read');
    for (const path of ['/query', '/ask', '/stacks', '/nodes', '/nodes/*', '/mcp']) app.use(path, read);
  }
  // Refused before the body is read (Content-Length) or as soon as a streamed body passes the limit.
  const limitBody = bodyLimit({
    maxSize: limits.maxBodyBytes,
    onError: (c) =>
      errorResponse(
        c,
        new ApiError(
          413,
          'WEFT_BODY_TOO_LARGE',
          `the request body is larger than ${limits.maxBodyBytes} bytes`,
        ),
      ),
  });
  // zod-openapi validates a JSON body only when the request says it is JSON; say so rather than guess.
  const jsonOnly = async (c: Context, next: () => Promise<void>) => {
    if (c.req.method === 'POST' && !/^application\/(.+\+)?json\b/i.test(c.req.header('content-type') ?? ''))
      return errorResponse(
        c,
        new ApiError(
          415,
          'WEFT_UNSUPPORTED_MEDIA_TYPE',
          'send the body as JSON (Content-Type: application/json)',
        ),
      );
    await next();
  };
  const knownStack = (name: string | undefined): string => {
    const stackName = name ?? registry.defaultName;
    if (pool.has(stackName)) return stackName;
    const stacks = registry.list().map((e) => e.name);
    throw new ApiError(
      400,
      'WEFT_UNKNOWN_STACK',
      `unknown stack "${stackName}" (stacks: ${stacks.join(', ')})`,
      {
        stacks,
      },
    );
  };
  app.use('/query', limitBody, jsonOnly);
  app.use('/ask', limitBody, jsonOnly);
  registerMcpRoute(app, {
    // The tools share the stacks of POST /query (the pool), over the store version being served.
    operations: createWeftOperations(store, {
      registry,
      ...(options.createOptions ? { createOptions: options.createOptions } : {}),
      retriever: (name) => pool.get(name),
      // As POST /query: a call past the limit is aborted (a tool error WEFT_TIMEOUT).
      timeoutMs: limits.timeoutMs,
    }),
    tracker,
    before: [limitBody],
  });
  registerChangesRoute(app, {
    ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
    ...(options.applyChanges ? { applyChanges: options.applyChanges } : {}),
    tracker,
    jsonOnly,
  });

  app.openapi(routes.query, async (c) => {
    const body = c.req.valid('json');
    const stackName = knownStack(body.stack);
    const explain = body.explain === true;
    // The model's deadline starts with the request's (building the stack on first use counts too).
    const json = await withDeadline(c, tracker, limits.timeoutMs, (abortSignal) =>
      underModelDeadline(async () => {
        const retriever = await pool.get(stackName);
        const result = await retrieve(retriever, { query: body.query, limit: body.limit ?? 20, abortSignal });
        const labels = await fetchLabels(
          store.graph,
          explain ? mentionedIds(result) : result.ranking.map((r) => r.id),
        );
        const ranked = queryResultJson(result, labels, { query: body.query, stack: retriever.name, explain });
        const warnings = await storeWarnings();
        const answer =
          warnings.length > 0 ? { ...ranked, warnings: [...ranked.warnings, ...warnings] } : ranked;
        if (body.documents !== true) return answer;
        const nodes = await store.graph.doGetNodes(
          answer.results.map((r) => r.id),
          { abortSignal },
        );
        return { ...answer, results: answer.results.map((r, i) => ({ ...r, text: nodes[i]?.text ?? '' })) };
      }),
    );
    // The schema describes the plan and the trace loosely (their types live in @weft/spec).
    return c.json(json as unknown as z.infer<typeof schemas.queryResponse>, 200);
  });

  app.openapi(routes.stacks, (c) =>
    c.json(
      {
        default: registry.defaultName,
        stacks: registry.list().map((entry) => ({ name: entry.name, description: entry.description })),
      },
      200,
    ),
  );

  app.openapi(routes.node, async (c) => {
    const { id } = c.req.valid('param');
    const { limit } = c.req.valid('query');
    const view = await withDeadline(c, tracker, limits.timeoutMs, (abortSignal) =>
      nodeView(store.graph, store.manifest.schema, id, limit ?? limits.maxNeighboursPerGroup, abortSignal),
    );
    if (!view) throw new ApiError(404, 'WEFT_NOT_FOUND', `no node has the id "${id}"`);
    return c.json(
      {
        node: { ...view.node, aliases: view.node.aliases ? [...view.node.aliases] : undefined },
        document: view.document,
        neighbours: view.neighbours.map((g) => ({ ...g, nodes: [...g.nodes] })),
      },
      200,
    );
  });

  app.openapi(routes.nodeSearch, async (c) => {
    const { name, limit } = c.req.valid('query');
    const [matches = []] = await withDeadline(c, tracker, limits.timeoutMs, (abortSignal) =>
      store.graph.doLookup([name], { limit: limit ?? 10, fuzzy: true, abortSignal }),
    );
    return c.json(
      {
        matches: matches
          .slice(0, limit ?? 10)
          .map((m) => ({ id: m.id, type: m.type, name: m.name, matched: m.matched, score: m.score })),
      },
      200,
    );
  });

  app.openapi(routes.health, async (c) => {
    const warnings = await storeWarnings();
    const memory = process.memoryUsage();
    const body = {
      status: tracker.draining ? ('draining' as const) : ('ok' as const),
      store: {
        name: store.manifest.schema.name,
        nodes: store.manifest.counts.nodes,
        edges: store.manifest.counts.edges,
        version: storeVersion(store.manifest),
        warnings: [...warnings],
      },
      stacks: registry.list().length,
      requests: tracker.snapshot(),
      memory: {
        rssMiB: mib(memory.rss),
        // maxRSS is in KiB.
        peakRssMiB: mib(process.resourceUsage().maxRSS * 1024),
        heapUsedMiB: mib(memory.heapUsed),
      },
      limits: {
        maxBodyBytes: limits.maxBodyBytes,
        maxQueryChars: limits.maxQueryChars,
        maxLimit: limits.maxLimit,
        timeoutMs: limits.timeoutMs,
      },
      uptimeSeconds: Math.round(performance.now() - started) / 1000,
    };
    return tracker.draining ? c.json(body, 503) : c.json(body, 200);
  });

  app.openapi(routes.ask, async (c) => {
    const body = c.req.valid('json');
    const stackName = knownStack(body.stack);
    const model = createOptions?.languageModel;
    const deadline = requestDeadline(c, tracker, limits.timeoutMs);
    let answer: GroundedAnswerStream;
    try {
      // Retrieval and evidence run before the stream opens, so that their errors are plain JSON.
      answer = await deadline.run(
        underModelDeadline(async () =>
          streamGroundedAnswer({
            question: body.question,
            retriever: await pool.get(stackName),
            graph: store.graph,
            ...(model ? { model } : {}),
            limit: body.limit ?? 20,
            evidence: { maxTokens: body.maxEvidenceTokens ?? 1500 },
            abortSignal: deadline.signal,
          }),
        ),
      );
    } catch (error) {
      deadline.dispose();
      throw error;
    }
    const send = (stream: SSEStreamingApi, event: string, data: unknown) =>
      stream.writeSSE({ event, data: JSON.stringify(data) });
    // As on POST /query: an answer built on stale trained parts says so.
    const warnings = await storeWarnings();
    return streamSSE(c, async (stream) => {
      try {
        await tracker.track(
          (async () => {
            await send(stream, 'evidence', {
              question: body.question,
              stack: stackName,
              results: answer.retrieval.ranking.map((r) => r.id),
              evidence: evidenceJson(answer.evidence),
              llmCalls: answer.retrieval.trace.llmCalls,
              ...(warnings.length > 0 ? { warnings } : {}),
            });
            // A write to a client that has gone fails; the model's stream is aborted by then.
            for await (const text of answer.textStream) await send(stream, 'delta', { text });
            const done = await answer.finished();
            await send(stream, 'done', {
              ...groundedAnswerJson(done),
              ...(done.status === 'no-model'
                ? { note: 'the server has no model (weft serve --model SPEC): evidence only' }
                : {}),
              ...(done.status === 'aborted' && deadline.cause ? { reason: deadline.cause } : {}),
            });
          })(),
        );
      } finally {
        deadline.dispose();
      }
    });
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key of the server (weft serve --api-key-file), sent as Authorization: Bearer <key>. Only servers started with keys ask for one.',
  });
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Weft',
      version: '0.1.0',
      description:
        'Hybrid structural and textual retrieval over one store: rank nodes with a named stack, see the plan and the paths, browse nodes.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: new URL(c.req.url).origin, description: 'this server' }],
    // With keys every operation but GET /health needs one; without, a key is optional ({}: none needed).
    security: (options.apiKeys ? [{ apiKey: [] }] : [{}, { apiKey: [] }]) as Record<string, string[]>[],
  }));

  if (options.assets) {
    const assets = options.assets;
    app.get('*', async (c, next) => {
      const asset = await assets(c.req.path);
      if (!asset) return next();
      c.header('Content-Type', asset.contentType);
      c.header('Cache-Control', 'no-cache');
      return c.body(typeof asset.body === 'string' ? asset.body : new Uint8Array(asset.body), 200);
    });
  }

  return { app, tracker, limits };
}

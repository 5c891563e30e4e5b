import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { WeftError } from '@weft/core';
import type { AppliedChanges } from '@weft/store';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './api-error.ts';
import { type ApiKeys, requireScope } from './api-keys.ts';
import type { RequestTracker } from './request-tracker.ts';

/** The largest change set `POST /changes` takes, in bytes of JSON (a larger one is `weft update`'s). */
export const maxChangeBytes = 32 * 1024 * 1024;

/** Applies a change-set folder to the served store (`applyChanges` of `@weft/store` on its directory). */
export type ApplyChangeSet = (changesDirectory: string) => Promise<AppliedChanges>;

const record = z.record(z.string(), z.unknown());

/** The body of `POST /changes`: a change set's three files as arrays, each element one line. */
const changesRequest = z
  .strictObject({
    nodes: z.array(record).optional().openapi({ description: 'node upserts, as lines of nodes.jsonl' }),
    edges: z.array(record).optional().openapi({ description: 'edge upserts, as lines of edges.jsonl' }),
    deletions: z.array(record).optional().openapi({
      description: 'deletions, as lines of deletions.jsonl: {"node": id} or {"edge": {src, type, dst}}',
    }),
  })
  .openapi('ChangesRequest', {
    example: {
      nodes: [{ id: 'p:new', type: 'product', name: 'New lens', text: 'A new telephoto lens' }],
      edges: [{ src: 'p:new', type: 'compatible_with', dst: 'p:eos' }],
      deletions: [{ node: 'p:old' }],
    },
  });

const changesResponse = z
  .object({
    version: z.int().openapi({
      description: 'the store version now served (one more than before; the same when `unchanged`)',
    }),
    previousVersion: z.int(),
    unchanged: z.boolean().openapi({
      description:
        'the change set changes nothing (no upsert; deletions only of nodes and edges the store does not hold, or none): no version was created — as weft update says',
    }),
    nodesUpserted: z.int(),
    nodesDeleted: z.int().openapi({ description: 'nodes of the store deleted' }),
    edgesUpserted: z.int(),
    edgesDeleted: z
      .int()
      .openapi({ description: 'edges of the store deleted, those that went with a deleted node included' }),
    edgesDeletedWithNodes: z
      .int()
      .openapi({ description: 'of edgesDeleted, those that went with a deleted node' }),
    nodes: z.int().openapi({ description: 'nodes in the store now' }),
    edges: z.int().openapi({ description: 'edges in the store now' }),
    seconds: z.number(),
  })
  .openapi('ChangesApplied');

const error = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) })
  .openapi('ChangesError');

const json = <T>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const changesRoute = createRoute({
  method: 'post',
  path: '/changes',
  operationId: 'applyChanges',
  summary: 'Apply a change set to the store (weft update): upserts and deletions, atomically',
  description:
    'Only on a server with API keys (weft serve --api-key-file), for a key with the write scope; otherwise 404. ' +
    'The body holds the lines of a change set (docs/skb-format.md, "Change sets"); problems are reported ' +
    'as file:line of those files (nodes.jsonl:3 is the third element of `nodes`) and change nothing. ' +
    'Requests that arrive after the answer see the new version.',
  request: { body: { content: { 'application/json': { schema: changesRequest } }, required: true } },
  responses: {
    200: json(changesResponse, 'applied: the new store version'),
    400: json(error, 'WEFT_BAD_INPUT: the change set has problems (file:line), or the body is not one'),
    401: json(error, 'WEFT_UNAUTHORIZED: no valid API key'),
    403: json(error, 'WEFT_FORBIDDEN: the API key lacks the write scope'),
    404: json(error, 'WEFT_NOT_FOUND: the server has no API keys, so no endpoint that writes'),
    409: json(error, 'WEFT_BUSY: another update of the store is running'),
    413: json(error, 'WEFT_BODY_TOO_LARGE'),
    500: json(error, 'WEFT_RUNTIME: the update failed; the store is as it was'),
    503: json(error, 'WEFT_UNAVAILABLE: the server is shutting down'),
  },
});

const jsonl = (records: readonly unknown[] | undefined) =>
  (records ?? []).map((r) => `${JSON.stringify(r)}\n`).join('');

/**
 * `POST /changes`: writes the body as a change-set folder and applies it. Registered on every
 * server so that the document is one; without API keys (or without a store directory to update)
 * it answers 404 — a server without keys is open to anyone, and must not write.
 */
export function registerChangesRoute(
  app: OpenAPIHono,
  options: {
    readonly apiKeys?: ApiKeys;
    readonly applyChanges?: ApplyChangeSet;
    readonly tracker: RequestTracker;
    /** Refuses a body not declared as JSON (the app's own check). */
    readonly jsonOnly: MiddlewareHandler;
  },
): void {
  const enabled = options.apiKeys !== undefined && options.applyChanges !== undefined;
  app.use(
    '/changes',
    async (_c: Context, next) => {
      if (enabled) return next();
      throw new ApiError(
        404,
        'WEFT_NOT_FOUND',
        'POST /changes is off: it needs a server started with API keys (weft serve --api-key-file) and a key with the write scope',
      );
    },
    requireScope('write'),
    bodyLimit({
      maxSize: maxChangeBytes,
      onError: () => {
        throw new ApiError(
          413,
          'WEFT_BODY_TOO_LARGE',
          `a change set over HTTP is at most ${maxChangeBytes} bytes; use weft update`,
        );
      },
    }),
    options.jsonOnly,
  );
  app.openapi(changesRoute, async (c) => {
    const body = c.req.valid('json');
    const folder = await mkdtemp(join(tmpdir(), 'weft-changes-'));
    try {
      await writeFile(join(folder, 'nodes.jsonl'), jsonl(body.nodes));
      await writeFile(join(folder, 'edges.jsonl'), jsonl(body.edges));
      await writeFile(join(folder, 'deletions.jsonl'), jsonl(body.deletions));
      const applied = await options.tracker.track(options.applyChanges!(folder)).catch((cause: unknown) => {
        if (WeftError.is(cause, 'WEFT_WRITE_REJECTED')) throw new ApiError(409, 'WEFT_BUSY', cause.message);
        // The folder's name means nothing to the client: problems name the files alone.
        if (WeftError.is(cause, 'WEFT_BAD_INPUT'))
          throw new ApiError(
            400,
            'WEFT_BAD_INPUT',
            cause.message.replaceAll(`${folder}: `, 'the change set: '),
            cause.details,
          );
        throw cause;
      });
      return c.json(
        {
          version: applied.version,
          previousVersion: applied.previousVersion,
          unchanged: applied.unchanged,
          nodesUpserted: applied.nodesUpserted,
          nodesDeleted: applied.nodesDeleted,
          edgesUpserted: applied.edgesUpserted,
          edgesDeleted: applied.edgesDeleted,
          edgesDeletedWithNodes: applied.edgesDeletedWithNodes,
          nodes: applied.manifest.counts.nodes,
          edges: applied.manifest.counts.edges,
          seconds: Math.round(applied.seconds * 1000) / 1000,
        },
        200,
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
}

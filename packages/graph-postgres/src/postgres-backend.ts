import { join } from 'node:path';
import { WeftError } from '@weft/kit';
import type { GraphBackendV1 } from '@weft/spec';
import { buildPostgresGraph, formatPostgresLocation } from './build-postgres-graph.ts';
import { PostgresGraphStore } from './postgres-graph-store.ts';

/**
 * PostgreSQL behind Weft's graph seam (`--graph postgres://user@host:port/db[?schema=name]`;
 * manifest provider `postgres`, path = the URL without password, with `?schema=`).
 */
export const postgresBackend: GraphBackendV1 = {
  specificationVersion: 'v1',
  id: 'postgres',
  embedded: false,
  async build(input) {
    if (!input.target)
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: 'the postgres graph backend needs a server: --graph postgres://user@host:port/database',
      });
    const built = await buildPostgresGraph({
      url: input.target,
      schema: input.schema,
      nodes: input.nodes,
      edges: input.edges,
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    });
    return {
      location: formatPostgresLocation(built.location),
      nodes: built.nodes,
      edges: built.edges,
      nodesByType: built.nodesByType,
      edgesByType: built.edgesByType,
      timings: built.timings,
    };
  },
  open(location, options = {}) {
    return PostgresGraphStore.open(location, {
      ...(options.readWrite ? { readWrite: true } : {}),
      // The store directory keeps what each process would otherwise scan from the server again.
      ...(options.baseDirectory !== undefined
        ? { cacheDirectory: join(options.baseDirectory, 'graph') }
        : {}),
    });
  },
};

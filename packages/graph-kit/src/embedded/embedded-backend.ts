import { isAbsolute, join, resolve } from 'node:path';
import type {
  GraphBackendV1,
  GraphBuildInput,
  GraphBuildResult,
  GraphInPlaceInput,
  GraphInPlaceSession,
  GraphOpenOptions,
  GraphStoreV1,
  GraphUpdateInput,
} from '@weft/spec';
import { buildEmbeddedGraph } from './build-embedded-graph.ts';
import { updateEmbeddedGraph } from './update-embedded-graph.ts';
import { openEmbeddedGraphForUpdate } from './update-in-place.ts';
import type { EmbeddedEngine } from './engine.ts';

/** The folder of the graph inside a store directory. */
export const embeddedGraphFolder = 'graph';

/**
 * The `GraphBackendV1` of an embedded Kùzu-API engine: `build` bulk-loads `<store>/graph/`, `open`
 * opens it through `open` (the engine package's store, read-only unless `readWrite`), `update` writes
 * a changed copy of it to `<directory>/graph/`, and `updateInPlace` changes it where it is, in one
 * engine transaction, when no one else has it open.
 */
export function embeddedGraphBackend(
  engine: EmbeddedEngine,
  open: (directory: string, options: GraphOpenOptions) => Promise<GraphStoreV1>,
): GraphBackendV1 {
  return {
    specificationVersion: 'v1',
    id: engine.id,
    embedded: true,
    async build(input: GraphBuildInput): Promise<GraphBuildResult> {
      const built = await buildEmbeddedGraph(engine, {
        directory: join(input.directory, embeddedGraphFolder),
        schema: input.schema,
        nodes: input.nodes,
        edges: input.edges,
        ...(input.onProgress ? { onProgress: input.onProgress } : {}),
      });
      return {
        location: embeddedGraphFolder,
        nodes: built.nodes,
        edges: built.edges,
        nodesByType: built.nodesByType,
        edgesByType: built.edgesByType,
        timings: built.timings,
      };
    },
    async update(input: GraphUpdateInput): Promise<GraphBuildResult> {
      const source = isAbsolute(input.location)
        ? input.location
        : resolve(input.baseDirectory, input.location);
      const updated = await updateEmbeddedGraph(engine, {
        source,
        directory: join(input.directory, embeddedGraphFolder),
        schema: input.schema,
        changes: input.changes,
        ...(input.version === undefined ? {} : { version: input.version }),
        ...(input.onProgress ? { onProgress: input.onProgress } : {}),
      });
      return {
        location: embeddedGraphFolder,
        nodes: updated.nodes,
        edges: updated.edges,
        nodesByType: updated.nodesByType,
        edgesByType: updated.edgesByType,
        timings: updated.timings,
      };
    },
    updateInPlace(input: GraphInPlaceInput): Promise<GraphInPlaceSession | undefined> {
      const directory = isAbsolute(input.location)
        ? input.location
        : resolve(input.baseDirectory, input.location);
      return openEmbeddedGraphForUpdate(engine, directory);
    },
    open(location, options = {}) {
      const directory = isAbsolute(location) ? location : resolve(options.baseDirectory ?? '.', location);
      return open(directory, options.readWrite ? { readWrite: true } : {});
    },
  };
}

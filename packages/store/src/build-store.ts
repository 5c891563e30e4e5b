import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { WeftError } from '@weft/kit';
import { formatSkbIssue, openBundle, type ValidationReport, validateBundle } from '@weft/skb';
import type { GraphBackendV1, GraphBuildResult, IndexBackendV1, IndexStorageOptions } from '@weft/spec';
import { defaultGraphBackend, parseGraphBackend, resolveGraphBackend } from './graph-backends.ts';
import { type RelationDocumentOptions, RelationDocuments } from './relation-documents.ts';
import { parseIndexesLocation } from './index-backends.ts';
import type { EmbeddingStats, RemoteEmbeddingOptions } from './cached-embedder.ts';
import { embeddingCacheFolder } from './embedding-cache.ts';
import { buildIndexes } from './store-indexes.ts';
import {
  assertReplaceable,
  manifestFileName,
  recoverStoreDirectory,
  rescueEmbeddingCache,
  retiredDirectory,
  stagingDirectory,
} from './store-directory.ts';
import type { StoreManifest } from './store-manifest.ts';

export interface BuildStoreOptions {
  readonly bundle: string;
  /** The store directory (`--db`); replaced atomically when it already holds a store. */
  readonly directory: string;
  readonly strict?: boolean;
  /**
   * The graph backend: `kuzu` (default), `ladybug`, `postgres://…` or `<id>[:<target>]` of one of
   * `graphBackends` (see `parseGraphBackend`).
   */
  readonly graph?: string;
  /** Graph backends besides (or instead of) the built-in ones, chosen by id. */
  readonly graphBackends?: readonly GraphBackendV1[];
  /**
   * Where the text and vector indexes go: a folder or `s3://bucket/prefix` (default: `index/lance`
   * inside the store). On object storage they are not part of the atomic swap: a rebuild into the
   * same prefix replaces the table there.
   */
  readonly indexes?: string;
  /** Storage settings for `indexes` (`endpoint`, `region`, `allow_http`, keys…); secrets are not recorded. */
  readonly indexStorageOptions?: IndexStorageOptions;
  readonly indexBackends?: readonly IndexBackendV1[];
  /** Embedder for the vector index (default `local`). */
  readonly embedder?: string;
  /**
   * Index each target node's neighbour names by relation as text fields (`relations`, `combined`);
   * default true. Caps per node and edge type: `relationLimits`.
   */
  readonly relationFields?: boolean;
  readonly relationLimits?: RelationDocumentOptions;
  /**
   * Where the vectors of a hosted embedder are cached (see `EmbeddingCache`): by default
   * `<directory>/embedding-cache`, kept across ingests into the same directory (a killed ingest's
   * included) and used by `applyChanges`; a folder of your own to share it between stores; `false`
   * for none. The local embedder is never cached (it is fitted anew by each ingest).
   */
  readonly embeddingCache?: string | false;
  /** Batch size, concurrency and retries of a hosted embedder. */
  readonly remoteEmbedding?: RemoteEmbeddingOptions;
  /** Called before a failed embedding call is retried. */
  readonly onEmbeddingRetry?: (error: unknown, delayMs: number) => void;
  /** Stops the build (embedding calls included); nothing is swapped in. */
  readonly abortSignal?: AbortSignal;
  /** `phase` is e.g. `validate`, `graph:copy-edges`, `index:…`; `total` when known. */
  readonly onProgress?: (phase: string, done: number, total?: number) => void;
  /** Test hook: called after the new store is complete, just before it is swapped in. */
  readonly beforeSwap?: () => Promise<void>;
}

export interface BuiltStore {
  readonly manifest: StoreManifest;
  readonly validation: ValidationReport;
  readonly graph: GraphBuildResult;
  readonly seconds: number;
  /** What embedding with a hosted embedder cost (cache hits and misses, calls, retries); absent for `local`. */
  readonly embedding?: EmbeddingStats;
}

/** A bundle that failed validation: the message lists the problems as file:line. */
function invalidBundle(bundle: string, report: ValidationReport): WeftError {
  const counts = Object.entries(report.counts)
    .map(([code, count]) => `${count} ${code}`)
    .join(', ');
  const shown = report.issues.slice(0, 50).map((issue) => `  ${formatSkbIssue(issue)}`);
  const more = report.totalIssues > shown.length ? [`  … and ${report.totalIssues - shown.length} more`] : [];
  return new WeftError({
    code: 'WEFT_BAD_INPUT',
    message: [
      `${bundle}: ${report.totalIssues} problem${report.totalIssues === 1 ? '' : 's'} (${counts})${report.stopped ? ', stopped at the first (--strict)' : ''}; nothing was written`,
      ...shown,
      ...more,
    ].join('\n'),
    details: { issues: report.issues, counts: report.counts, totalIssues: report.totalIssues },
  });
}

/**
 * Validates a bundle and builds a complete store (graph, indexes, manifest) in a staging directory
 * beside `directory`, then swaps it in with renames. Until the swap, the previous store is untouched;
 * a killed build leaves only a staging folder, removed by the next build.
 */
export async function buildStore(options: BuildStoreOptions): Promise<BuiltStore> {
  const started = performance.now();
  const bundle = resolve(options.bundle);
  const directory = resolve(options.directory);
  if (!existsSync(bundle)) throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `no bundle at ${bundle}` });
  const choice = parseGraphBackend(options.graph ?? defaultGraphBackend);
  const backend = await resolveGraphBackend(choice.id, options.graphBackends);
  const indexesLocation = options.indexes === undefined ? undefined : parseIndexesLocation(options.indexes);
  await recoverStoreDirectory(directory);
  assertReplaceable(directory);
  const ownCache = join(directory, embeddingCacheFolder);
  const cacheDirectory =
    options.embeddingCache === false
      ? undefined
      : options.embeddingCache === undefined
        ? ownCache
        : resolve(options.embeddingCache);
  if (
    cacheDirectory !== undefined &&
    cacheDirectory !== ownCache &&
    (cacheDirectory === directory || cacheDirectory.startsWith(`${directory}${sep}`))
  )
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `--embedding-cache ${cacheDirectory} is inside the store ${directory}, which the build replaces; give a folder outside it (the store's own cache is ${ownCache}, the default)`,
    });

  const validation = await validateBundle(bundle, {
    strict: options.strict ?? false,
    onProgress: (phase, done) => options.onProgress?.(`validate:${phase}`, done),
  });
  if (!validation.ok) throw invalidBundle(bundle, validation);
  const opened = await openBundle(bundle);
  const { summary } = validation;

  const staging = stagingDirectory(directory);
  let embedding: EmbeddingStats | undefined;
  try {
    await mkdir(staging, { recursive: true });
    // The graph (an embedded engine's COPY runs on native threads) and the indexes (embedding in JavaScript) are
    // built at the same time: on two cores that hides most of the graph's time.
    // Both are awaited before anything is cleaned up, so a failure of one never removes the staging
    // folder under the other.
    const [graphBuild, indexBuild] = await Promise.allSettled([
      backend.build({
        directory: staging,
        ...(choice.target !== undefined ? { target: choice.target } : {}),
        schema: opened.schema,
        nodes: opened.nodes(),
        edges: opened.edges(),
        onProgress: (phase, done) =>
          options.onProgress?.(
            `graph:${phase}`,
            done,
            phase.includes('edges') ? summary.edges : summary.nodes,
          ),
      }),
      (async () => {
        await mkdir(join(staging, 'index'));
        const relationFields = options.relationFields ?? true;
        const relations = relationFields
          ? (async () => {
              options.onProgress?.('index:relations', 0, summary.edges);
              const built = await RelationDocuments.build(
                opened.schema,
                opened.nodes(),
                opened.edges(),
                options.relationLimits,
              );
              options.onProgress?.('index:relations', summary.edges, summary.edges);
              return built;
            })()
          : undefined;
        // A failure surfaces where buildIndexes awaits it; until then it must not go unhandled.
        relations?.catch(() => {});
        return buildIndexes({
          directory: join(staging, 'index'),
          schema: opened.schema,
          nodes: () => opened.nodes(),
          nodeCount: summary.nodes,
          embedder: options.embedder ?? 'local',
          ...(relations ? { relations } : {}),
          onProgress: (phase, done, total) => options.onProgress?.(`index:${phase}`, done, total),
          ...(indexesLocation !== undefined ? { location: indexesLocation } : {}),
          ...(options.indexStorageOptions ? { storageOptions: options.indexStorageOptions } : {}),
          ...(options.indexBackends ? { indexBackends: options.indexBackends } : {}),
          ...(cacheDirectory !== undefined ? { embeddingCache: cacheDirectory } : {}),
          ...(options.remoteEmbedding ? { remoteEmbedding: options.remoteEmbedding } : {}),
          ...(options.onEmbeddingRetry ? { onEmbeddingRetry: options.onEmbeddingRetry } : {}),
          ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
          onEmbedded: (stats) => {
            embedding = stats;
          },
        });
      })(),
    ]);
    if (graphBuild.status === 'rejected') throw graphBuild.reason;
    if (indexBuild.status === 'rejected') throw indexBuild.reason;
    const graph = graphBuild.value;
    const indexes = indexBuild.value;
    await mkdir(join(staging, 'artifacts'));
    const manifest: StoreManifest = {
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      bundle: { path: bundle, name: opened.schema.name },
      schema: opened.schema,
      counts: {
        nodes: graph.nodes,
        edges: graph.edges,
        nodesByType: graph.nodesByType,
        edgesByType: graph.edgesByType,
      },
      graph: { provider: backend.id, path: graph.location },
      ...(indexes ? { indexes } : {}),
    };
    // The manifest is written last: a directory without it is never taken for a store.
    await writeFile(join(staging, manifestFileName), `${JSON.stringify(manifest, null, 2)}\n`);
    options.abortSignal?.throwIfAborted();
    // The store's own embedding cache moves into the new store (a crash before the swap leaves it in
    // the staging folder, from where recoverStoreDirectory puts it back).
    if (existsSync(ownCache)) await rename(ownCache, join(staging, embeddingCacheFolder));
    await options.beforeSwap?.();
    await swapIn(staging, directory);
    return {
      manifest,
      validation,
      graph,
      seconds: (performance.now() - started) / 1000,
      ...(embedding ? { embedding } : {}),
    };
  } catch (error) {
    // A cache moved into the staging folder goes back before the folder is removed.
    await rescueEmbeddingCache(staging, directory);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

async function swapIn(staging: string, directory: string): Promise<void> {
  if (!existsSync(directory)) {
    await rename(staging, directory);
    return;
  }
  // Two renames: a crash between them leaves the old store as `.<name>.old-…`, which
  // recoverStoreDirectory (run by every build and open) puts back.
  const retired = retiredDirectory(directory);
  await rename(directory, retired);
  await rename(staging, directory);
  await rm(retired, { recursive: true, force: true });
}

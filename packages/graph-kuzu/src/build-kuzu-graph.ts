import { type BuildEmbeddedGraphOptions, buildEmbeddedGraph, type EmbeddedGraphBuild } from '@weft/graph-kit';
import { kuzuEngine } from './kuzu-engine.ts';

export type { BuildPhase } from '@weft/graph-kit';
/** The database goes in `<directory>/graph.kuzu`. */
export type BuildKuzuGraphOptions = BuildEmbeddedGraphOptions;
export type KuzuGraphBuild = EmbeddedGraphBuild;

/**
 * Builds a Kùzu graph from an SKB by bulk loading: the records are written to CSV files, then
 * loaded with one `COPY FROM` per table (never row-by-row inserts). The database is closed, and so
 * checkpointed, before this resolves.
 */
export function buildKuzuGraph(options: BuildKuzuGraphOptions): Promise<KuzuGraphBuild> {
  return buildEmbeddedGraph(kuzuEngine, options);
}

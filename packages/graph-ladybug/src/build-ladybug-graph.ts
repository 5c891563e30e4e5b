import { type BuildEmbeddedGraphOptions, buildEmbeddedGraph, type EmbeddedGraphBuild } from '@weft/graph-kit';
import { type LadybugEngineOptions, ladybugEngine } from './ladybug-engine.ts';

/** The database goes in `<directory>/graph.lbug`. */
export interface BuildLadybugGraphOptions extends BuildEmbeddedGraphOptions, LadybugEngineOptions {}
export type LadybugGraphBuild = EmbeddedGraphBuild;

/**
 * Builds a LadybugDB graph from an SKB by bulk loading: CSV staging, then one `COPY FROM` per table
 * (the same mapping and statements as `@weft/graph-kuzu`). The database is closed, and so
 * checkpointed, before this resolves.
 */
export function buildLadybugGraph(options: BuildLadybugGraphOptions): Promise<LadybugGraphBuild> {
  return buildEmbeddedGraph(ladybugEngine(options), options);
}

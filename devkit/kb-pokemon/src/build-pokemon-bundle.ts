import { Dex } from '@pkmn/dex';
import dexPackage from '@pkmn/dex/package.json' with { type: 'json' };
import { formatSkbIssue, validateBundle, writeBundle } from '@weft/skb';
import type { SkbQuery } from '@weft/spec';
import { extractPokemonGraph } from './extract-pokemon-graph.ts';
import { type GraphStatistics, graphStatistics } from './graph-statistics.ts';
import { pokemonSchema } from './pokemon-schema.ts';
import { querySetNames, readQuerySet } from './query-sets.ts';
import { sourceDocument } from './source-document.ts';

export interface BuildPokemonBundleOptions {
  /** Folder to write the bundle into (created if missing; existing files are overwritten). */
  readonly out: string;
  /** Write `.jsonl.gz` files (default false). */
  readonly gzip?: boolean;
  /** Called with a phase (`extract`, `write`, then validation's `nodes`, `edges`, `queries/<set>`) and a count. */
  readonly onProgress?: (phase: string, done: number) => void;
}

export interface PokemonBundleReport {
  readonly directory: string;
  readonly statistics: GraphStatistics;
  /** Query set -> number of queries. */
  readonly queries: Readonly<Record<string, number>>;
  readonly elapsedMs: number;
}

/**
 * Builds the Pokémon bundle from @pkmn/dex's generation-9 data and this package's hand-written query
 * sets, then validates it and throws when it is not a valid bundle: a query set whose answers no
 * longer exist (after a @pkmn/dex upgrade, say) fails the build rather than reaching an evaluation.
 */
export async function buildPokemonBundle(options: BuildPokemonBundleOptions): Promise<PokemonBundleReport> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const graph = await extractPokemonGraph(Dex.forGen(9));
  progress('extract', graph.nodes.length + graph.edges.length);
  const queries: Record<string, SkbQuery[]> = {};
  for (const set of querySetNames) queries[set] = await readQuerySet(set);
  const statistics = graphStatistics(graph.nodes, graph.edges);
  await writeBundle(
    options.out,
    { schema: pokemonSchema, nodes: graph.nodes, edges: graph.edges, queries },
    {
      gzip: options.gzip ?? false,
      source: sourceDocument({ dexVersion: dexPackage.version, statistics, queries }),
    },
  );
  progress('write', graph.nodes.length + graph.edges.length);
  const report = await validateBundle(options.out, { onProgress: progress });
  if (!report.ok) {
    const examples = report.issues.slice(0, 5).map(formatSkbIssue).join('\n  ');
    throw new Error(
      `the Pokémon bundle in ${options.out} is invalid (${report.totalIssues} issues):\n  ${examples}`,
    );
  }
  return {
    directory: options.out,
    statistics,
    queries: Object.fromEntries(Object.entries(queries).map(([set, list]) => [set, list.length])),
    elapsedMs: performance.now() - started,
  };
}

import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { formatSkbIssue, validateBundle, writeBundle } from '@weft/skb';
import type { SkbQuery } from '@weft/spec';
import { aptListsHelp, locateAptLists, readAptList, releaseDate } from './apt-lists.ts';
import { extractDebianGraph, translationIndex } from './debian-graph.ts';
import { debianSchema } from './debian-schema.ts';
import { type GraphStatistics, graphStatistics } from './graph-statistics.ts';
import { queriesDirectory, querySetNames, readQuerySet } from './query-sets.ts';
import { sourceDocument } from './source-document.ts';
import { parseStanzas } from './stanzas.ts';

export interface BuildDebianBundleOptions {
  /** Folder to write the bundle into (created if missing; existing files are overwritten). */
  readonly out: string;
  /** apt's lists folder (default /var/lib/apt/lists). */
  readonly listsDirectory?: string;
  /** Write `.jsonl.gz` files (default false). */
  readonly gzip?: boolean;
  /** Called with a phase (`read`, `extract`, `write`, then validation's phases) and a count. */
  readonly onProgress?: (phase: string, done: number) => void;
  /** Called with warnings (long descriptions missing). Default: console.warn. */
  readonly onWarning?: (message: string) => void;
}

export interface DebianBundleReport {
  readonly directory: string;
  readonly statistics: GraphStatistics;
  readonly longDescriptions: number;
  readonly queries: Readonly<Record<string, number>>;
  readonly elapsedMs: number;
}

/**
 * Builds the Debian bundle from apt's bookworm main amd64 lists (read at build time, never copied)
 * and this package's hand-written query sets, then validates it and throws when it is invalid. Without
 * Translation-en it still builds, with short descriptions only, and warns how to get them.
 */
export async function buildDebianBundle(options: BuildDebianBundleOptions): Promise<DebianBundleReport> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => {});
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  const files = locateAptLists(options.listsDirectory);
  if (!files) throw new Error(`no Debian bookworm main Packages list found; ${aptListsHelp}`);
  const packageStanzas = parseStanzas(await readAptList(files.packages));
  progress('read', packageStanzas.length);
  let translations = new Map<string, string>();
  if (files.translation) translations = translationIndex(parseStanzas(await readAptList(files.translation)));
  else
    warn(
      `Translation-en of bookworm main is missing: building with short descriptions only. ${aptListsHelp}`,
    );
  const graph = extractDebianGraph(packageStanzas, translations);
  progress('extract', graph.nodes.length + graph.edges.length);
  const queries: Record<string, SkbQuery[]> = {};
  for (const set of querySetNames)
    if (existsSync(`${queriesDirectory}/${set}.jsonl`)) queries[set] = await readQuerySet(set);
  const statistics = graphStatistics(graph.nodes, graph.edges);
  await writeBundle(
    options.out,
    { schema: debianSchema, nodes: graph.nodes, edges: graph.edges, queries },
    {
      gzip: options.gzip ?? false,
      source: sourceDocument({
        packagesFile: files.packages,
        ...(files.translation
          ? {
              translationFile: files.translation,
              translationDate: (await stat(files.translation)).mtime.toISOString(),
            }
          : {}),
        ...((await releaseDate(files.release)) ? { releaseDate: await releaseDate(files.release) } : {}),
        longDescriptions: graph.longDescriptions,
        statistics,
        queries,
      }),
    },
  );
  progress('write', graph.nodes.length + graph.edges.length);
  const report = await validateBundle(options.out, { onProgress: progress });
  if (!report.ok) {
    const examples = report.issues.slice(0, 5).map(formatSkbIssue).join('\n  ');
    throw new Error(
      `the Debian bundle in ${options.out} is invalid (${report.totalIssues} issues):\n  ${examples}`,
    );
  }
  return {
    directory: options.out,
    statistics,
    longDescriptions: graph.longDescriptions,
    queries: Object.fromEntries(Object.entries(queries).map(([set, list]) => [set, list.length])),
    elapsedMs: performance.now() - started,
  };
}

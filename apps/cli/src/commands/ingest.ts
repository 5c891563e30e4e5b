import { resolve } from 'node:path';
import { type Command, listOption, requiredOption, stringOption, UsageError } from '../command.ts';
import {
  embeddingLine,
  embeddingOptionDetails,
  embeddingOptions,
  embeddingOptionSpecs,
  retryNotice,
} from '../embedding-options.ts';
import { phaseProgress } from '../progress.ts';
import {
  buildStore,
  builtInGraphBackends,
  defaultGraphBackend,
  parseIndexesLocation,
  parseStorageOptions,
} from '@weft/store';

const phaseLabels: Record<string, string> = {
  'validate:nodes': 'validate nodes',
  'validate:edges': 'validate edges',
  'graph:write-nodes': 'stage nodes',
  'graph:write-edges': 'stage edges',
  'graph:copy-nodes': 'load nodes (COPY)',
  'graph:copy-edges': 'load edges (COPY)',
  'graph:checkpoint': 'checkpoint',
  'graph:index': 'index the graph tables',
  'graph:swap': 'swap the graph schema in',
};

function table(counts: Readonly<Record<string, number>>): string[] {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const width = Math.max(0, ...entries.map(([name]) => name.length));
  return entries.map(
    ([name, count]) => `    ${name.padEnd(width)}  ${count.toLocaleString('en-US').padStart(9)}`,
  );
}

/** `weft ingest`: validate a bundle and build (or atomically replace) a store from it. */
export const ingestCommand: Command = {
  name: 'ingest',
  summary: 'Validate an SKB bundle and build a store from it (graph, text and vector indexes)',
  usage:
    'weft ingest <bundle> --db <dir> [--graph <backend>] [--indexes <dir|s3://bucket/prefix>] [--strict] [--embedder local|provider:model] [--embedding-cache <dir|none>] [--json]',
  details: [
    '--db <dir>         the store directory; an existing store there is replaced atomically,',
    '                   a non-empty directory that is not a Weft store is refused',
    `--graph <backend>  the graph engine: ${builtInGraphBackends.join(', ')} (default ${defaultGraphBackend}),`,
    '                   or a server URL such as postgres://user@host:5432/db',
    '--indexes <where>  where the text and vector indexes go: a folder or s3://bucket/prefix',
    '                   (default: inside the store); S3 credentials from AWS_ACCESS_KEY_ID,',
    '                   AWS_SECRET_ACCESS_KEY (never written to the store) or --indexes-option',
    '--indexes-option k=v  a LanceDB storage option for --indexes, repeatable: endpoint=http://…,',
    '                   region=…, allow_http=true, virtual_hosted_style_request=false (path-style)',
    '--strict           stop validation at the first problem (default: report every problem)',
    '--embedder <spec>  embedder of the vector index: local (default) or provider:model',
    ...embeddingOptionDetails,
    '--json             print the summary as one JSON object on stdout',
  ],
  examples: [
    'weft ingest .weft/wordnet-bundle --db /tmp/wn',
    'weft ingest my-bundle --db stores/mine --strict --json',
    'weft ingest .weft/wordnet-bundle --db /tmp/wn-kuzu --graph kuzu',
    'weft ingest my-bundle --db stores/mine --embedder openai:text-embedding-3-small --embed-concurrency 8',
    'weft ingest .weft/wordnet-bundle --db /tmp/wn-s3 --indexes s3://weft/wn --indexes-option endpoint=http://127.0.0.1:9000 --indexes-option allow_http=true',
  ],
  options: {
    db: { type: 'string' },
    graph: { type: 'string' },
    indexes: { type: 'string' },
    'indexes-option': { type: 'string', multiple: true },
    strict: { type: 'boolean' },
    embedder: { type: 'string' },
    ...embeddingOptionSpecs,
  },
  async run(args, io) {
    const [bundleArgument, ...extra] = args.positionals;
    if (!bundleArgument) throw new UsageError('give the bundle directory: weft ingest <bundle> --db <dir>');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const bundle = resolve(io.cwd, bundleArgument);
    const directory = resolve(io.cwd, requiredOption(args, 'db'));
    const embedder = stringOption(args, 'embedder') ?? 'local';
    const graph = stringOption(args, 'graph');
    const indexesSpec = stringOption(args, 'indexes');
    const indexes = indexesSpec === undefined ? undefined : parseIndexesLocation(indexesSpec, io.cwd);
    const indexStorageOptions = parseStorageOptions(listOption(args, 'indexes-option'));
    if (Object.keys(indexStorageOptions).length > 0 && indexes === undefined)
      throw new UsageError('--indexes-option needs --indexes <dir|s3://bucket/prefix>');
    const embedding = embeddingOptions(args, io.cwd);
    const progress = phaseProgress(io.stderr, phaseLabels);
    const built = await buildStore({
      bundle,
      directory,
      strict: args.values.strict === true,
      embedder,
      ...(graph !== undefined ? { graph } : {}),
      ...(indexes !== undefined ? { indexes } : {}),
      ...(Object.keys(indexStorageOptions).length > 0 ? { indexStorageOptions } : {}),
      ...embedding,
      onEmbeddingRetry: (error, delayMs) => progress.note(retryNotice(error, delayMs)),
      // The graph and the indexes are built at once: one progress line per phase.
      onProgress: progress.onProgress,
    });
    const { manifest } = built;
    const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
    const seconds = Math.round(built.seconds * 10) / 10;
    if (args.values.json) {
      io.stdout.write(
        `${JSON.stringify({
          store: directory,
          bundle,
          schema: manifest.schema.name,
          nodes: manifest.counts.nodes,
          edges: manifest.counts.edges,
          nodesByType: manifest.counts.nodesByType,
          edgesByType: manifest.counts.edgesByType,
          queries: built.validation.summary.queries,
          graph: manifest.graph,
          indexes: manifest.indexes ?? null,
          seconds,
          graphTimings: built.graph.timings,
          embedding: built.embedding ?? null,
          peakRssMiB,
        })}\n`,
      );
      return 0;
    }
    const lines = [
      `Built ${directory} from ${manifest.schema.name} (${bundle})`,
      `  ${manifest.counts.nodes.toLocaleString('en-US')} nodes, ${manifest.counts.edges.toLocaleString('en-US')} edges in ${seconds} s, peak memory ${peakRssMiB.toLocaleString('en-US')} MiB`,
      `  nodes by type (${Object.keys(manifest.counts.nodesByType).length}):`,
      ...table(manifest.counts.nodesByType),
      `  edges by type (${Object.keys(manifest.counts.edgesByType).length}):`,
      ...table(manifest.counts.edgesByType),
      `  query sets: ${
        Object.entries(built.validation.summary.queries)
          .map(([set, n]) => `${set} (${n})`)
          .join(', ') || 'none'
      }`,
      `  graph: ${manifest.graph.provider}`,
      ...[embeddingLine(built.embedding)].filter((line) => line !== undefined),
      `  indexes: ${manifest.indexes ? `text (${manifest.indexes.text.provider})${manifest.indexes.vector ? `, vector (${manifest.indexes.vector.embedder}, ${manifest.indexes.vector.dimensions} dims)` : ''} at ${manifest.indexes.text.path}` : 'none (graph only)'}`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};

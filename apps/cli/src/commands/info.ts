import path from 'node:path';
import { type StoreInfo, storeInfo } from '@weft/store';
import { type Command, requiredOption, UsageError } from '../command.ts';
import { missingStoreParts, readStoreManifest } from '../store-files.ts';

function table(counts: Readonly<Record<string, number>>, indent = '    '): string[] {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const width = Math.max(0, ...entries.map(([name]) => name.length));
  return entries.map(
    ([name, count]) => `${indent}${name.padEnd(width)}  ${count.toLocaleString('en-US').padStart(9)}`,
  );
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function storeVersionLine(info: StoreInfo): string {
  if (info.storeVersion === 0) return '0 (as weft ingest built it)';
  return `${info.storeVersion} (${info.storeVersion} update(s) since the build changed ${info.changedRecords.toLocaleString('en-US')} records${info.updatedAt ? `, the last at ${info.updatedAt}` : ''})`;
}

export function renderStoreInfo(info: StoreInfo): string {
  const { counts, indexes } = info;
  const lines = [
    `Store ${info.directory} (format ${info.formatVersion}, built ${info.createdAt}, ${mib(info.bytes)})`,
    `  version: ${storeVersionLine(info)}`,
    `  bundle: ${info.bundle.name} (${info.bundle.path})`,
    `  schema: ${info.schema.nodeTypes} node types, ${info.schema.edgeTypes} edge types; answers are ${info.schema.targetTypes?.join(', ') ?? 'any type'}`,
    `  graph: ${info.graph.provider} at ${info.graph.path}: ${counts.nodes.toLocaleString('en-US')} nodes, ${counts.edges.toLocaleString('en-US')} edges`,
    `  nodes by type (${Object.keys(counts.nodesByType).length}):`,
    ...table(counts.nodesByType),
    `  edges by type (${Object.keys(counts.edgesByType).length}):`,
    ...table(counts.edgesByType),
  ];
  if (!indexes) lines.push('  indexes: none (graph only)');
  else {
    const fields = indexes.text.fields?.map((f) => f.name).join(', ') ?? 'document';
    lines.push(`  text index: ${indexes.text.provider} at ${indexes.text.path}, fields: ${fields}`);
    if (indexes.vector) {
      lines.push(
        `  vector index: ${indexes.vector.provider} at ${indexes.vector.path}, embedder ${indexes.vector.embedder} (${indexes.vector.dimensions} dims, --embedder ${indexes.vector.embedderSpec ?? '?'}), ANN ${indexes.vector.annIndex ?? 'flat'}`,
      );
    } else lines.push('  vector index: none');
  }
  if (info.artifacts.length === 0) lines.push('  trained artifacts: none (run weft train)');
  else {
    lines.push(`  trained artifacts (${info.artifacts.length}):`);
    const width = Math.max(...info.artifacts.map((a) => a.name.length));
    for (const artifact of info.artifacts) {
      lines.push(
        `    ${artifact.name.padEnd(width)}  ${artifact.kind === 'unknown' ? 'unversioned (re-run weft train)' : `${artifact.kind} v${artifact.version}`}${artifact.createdAt ? `, ${artifact.createdAt}` : ''}, ${(artifact.bytes / 1024).toFixed(1)} KiB`,
      );
    }
  }
  return lines.join('\n');
}

/** Exit code of `weft info` for a store whose manifest names parts that are gone (bad input, like a non-store). */
const brokenStore = 2;

/** `weft info`: what a store holds, without opening the graph or the indexes. */
export const infoCommand: Command = {
  name: 'info',
  summary: 'Describe a store: version, counts per node and edge type, indexes, embedder, trained artifacts',
  usage: 'weft info --db <dir> [--json]',
  details: [
    '--db <dir>   store directory built by weft ingest (required)',
    '--json       one JSON object (the StoreInfo of @weft/store), with broken and missing: the parts',
    '             the manifest names that are gone',
    'A store whose graph or index folder is gone is reported BROKEN (exit 2).',
  ],
  examples: ['weft info --db .weft/wordnet', 'weft info --db .weft/wordnet --json'],
  options: { db: { type: 'string' } },
  async run(args, io) {
    if (args.positionals.length > 0)
      throw new UsageError(`unexpected arguments: ${args.positionals.join(' ')}`);
    const db = path.resolve(io.cwd, requiredOption(args, 'db'));
    const manifest = await readStoreManifest(db);
    const info = await storeInfo(db, manifest);
    const missing = missingStoreParts(db, manifest);
    if (args.values.json === true)
      io.stdout.write(`${JSON.stringify({ ...info, broken: missing.length > 0, missing })}\n`);
    else {
      io.stdout.write(`${renderStoreInfo(info)}\n`);
      if (missing.length > 0)
        io.stdout.write(
          `BROKEN: ${missing.join('; ')}; queries on this store fail: rebuild it with weft ingest <bundle> --db ${db}\n`,
        );
    }
    if (missing.length > 0) {
      io.stderr.write(`weft info: ${db} is a broken store: ${missing.join('; ')}\n`);
      return brokenStore;
    }
    return 0;
  },
};

import { resolve } from 'node:path';
import { applyChanges } from '@weft/store';
import { type Command, requiredOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import {
  embeddingLine,
  embeddingOptionDetails,
  embeddingOptions,
  embeddingOptionSpecs,
  retryNotice,
} from '../embedding-options.ts';

/** `weft update`: apply a change set to a store, atomically, without rebuilding it. */
export const updateCommand: Command = {
  name: 'update',
  summary: 'Apply a change set (node/edge upserts, deletions) to a store in place, atomically',
  usage: 'weft update --db <dir> <changes> [--strict] [--embedding-cache <dir|none>] [--json]',
  details: [
    '<changes>          a change-set folder: nodes.jsonl, edges.jsonl (upserts in the bundle format)',
    '                   and deletions.jsonl ({"node": id} or {"edge": {src, type, dst}}); see docs/skb-format.md',
    '--db <dir>         the store to change; it applies whole or not at all, and readers keep',
    '                   answering from the previous version until the new one is committed',
    '--strict           stop validation at the first problem (default: report every problem)',
    ...embeddingOptionDetails,
    '--json             print the summary as one JSON object on stdout',
  ],
  examples: ['weft update --db /tmp/wn changes/2026-11-25', 'weft update --db stores/mine my-changes --json'],
  options: {
    db: { type: 'string' },
    strict: { type: 'boolean' },
    ...embeddingOptionSpecs,
  },
  async run(args, io) {
    const [changesArgument, ...extra] = args.positionals;
    if (!changesArgument)
      throw new UsageError('give the change-set folder: weft update --db <dir> <changes>');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const changes = resolve(io.cwd, changesArgument);
    const directory = resolve(io.cwd, requiredOption(args, 'db'));
    let embedding: Progress | undefined;
    const applied = await applyChanges(directory, changes, {
      strict: args.values.strict === true,
      // A hosted embedder's progress (the local one embeds a change set in moments).
      onProgress: (phase, done, total) => {
        if (phase !== 'index:embed' || !total) return;
        embedding ??= new Progress({ stream: io.stderr, label: 'embed', total });
        embedding.update(done);
        if (done >= total) embedding.finish();
      },
      ...embeddingOptions(args, io.cwd),
      onEmbeddingRetry: (error, delayMs) => io.stderr.write(retryNotice(error, delayMs)),
    });
    const seconds = Math.round(applied.seconds * 100) / 100;
    if (args.values.json) {
      io.stdout.write(
        `${JSON.stringify({
          store: directory,
          changes,
          version: applied.version,
          previousVersion: applied.previousVersion,
          nodesUpserted: applied.nodesUpserted,
          nodesDeleted: applied.nodesDeleted,
          edgesUpserted: applied.edgesUpserted,
          edgesDeleted: applied.edgesDeleted,
          rowsRewritten: applied.rowsRewritten,
          embedded: applied.embedded,
          embedding: applied.embedding ?? null,
          nodes: applied.manifest.counts.nodes,
          edges: applied.manifest.counts.edges,
          seconds,
          timings: applied.timings,
        })}\n`,
      );
      return 0;
    }
    io.stdout.write(
      [
        `Updated ${directory} to version ${applied.version} (from ${applied.previousVersion}) in ${seconds} s`,
        `  nodes: ${applied.nodesUpserted} upserted, ${applied.nodesDeleted} deleted; edges: ${applied.edgesUpserted} upserted, ${applied.edgesDeleted} deleted`,
        `  index rows rewritten: ${applied.rowsRewritten} (${applied.embedded} embedded)`,
        ...[embeddingLine(applied.embedding)].filter((line) => line !== undefined),
        `  the store now holds ${applied.manifest.counts.nodes.toLocaleString('en-US')} nodes, ${applied.manifest.counts.edges.toLocaleString('en-US')} edges`,
      ].join('\n') + '\n',
    );
    return 0;
  },
};

import { resolve } from 'node:path';
import { applyChanges } from '@weft/store';
import { type Command, requiredOption, UsageError } from '../command.ts';
import {
  embeddingLine,
  embeddingOptionDetails,
  embeddingOptions,
  embeddingOptionSpecs,
  retryNotice,
} from '../embedding-options.ts';
import { phaseProgress } from '../progress.ts';

/** What the phases of `applyChanges` are called on the progress bars (on a terminal). */
const phaseLabels: Record<string, string> = {
  validate: 'read and check the change set',
  graph: 'change the graph',
  relations: 'relation text of the nodes around the change',
  embed: 'embed the upserted documents',
  index: 'rewrite the index rows',
};

/** `weft update`: apply a change set to a store, atomically, without rebuilding it. */
export const updateCommand: Command = {
  name: 'update',
  summary: 'Apply a change set (node/edge upserts, deletions) to a store in place, atomically',
  usage: 'weft update --db <dir> <changes> [--strict] [--copy] [--embedding-cache <dir|none>] [--json]',
  details: [
    '<changes>          a change-set folder: nodes.jsonl, edges.jsonl (upserts in the bundle format)',
    '                   and deletions.jsonl ({"node": id} or {"edge": {src, type, dst}}); see docs/skb-format.md',
    '--db <dir>         the store to change; it applies whole or not at all, even when killed.',
    '                   With no one else holding the store (weft serve, a query running), the graph',
    '                   is changed in place and a reader that opens it meanwhile waits (seconds);',
    '                   otherwise the new version gets a changed copy of the graph, and readers keep',
    '                   answering from the previous version until the new one is committed',
    '--strict           stop validation at the first problem (default: report every problem)',
    '--copy             write a changed copy of the graph even when it could be changed in place',
    ...embeddingOptionDetails,
    '--json             print the summary as one JSON object on stdout',
  ],
  examples: ['weft update --db /tmp/wn changes/2026-11-25', 'weft update --db stores/mine my-changes --json'],
  options: {
    db: { type: 'string' },
    strict: { type: 'boolean' },
    copy: { type: 'boolean' },
    ...embeddingOptionSpecs,
  },
  async run(args, io) {
    const [changesArgument, ...extra] = args.positionals;
    if (!changesArgument)
      throw new UsageError('give the change-set folder: weft update --db <dir> <changes>');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const changes = resolve(io.cwd, changesArgument);
    const directory = resolve(io.cwd, requiredOption(args, 'db'));
    const json = args.values.json === true;
    // One bar per phase, on a terminal only (with --json too: the bars go to stderr); a hosted
    // embedder's texts advance the embed phase's bar as they get their vectors.
    const progress = phaseProgress(io.stderr, phaseLabels);
    const applied = await applyChanges(directory, changes, {
      strict: args.values.strict === true,
      ...(args.values.copy === true ? { inPlace: false } : {}),
      onProgress: progress.onProgress,
      ...embeddingOptions(args, io.cwd),
      onEmbeddingRetry: (error, delayMs) => progress.note(retryNotice(error, delayMs)),
    });
    progress.finish();
    const seconds = Math.round(applied.seconds * 100) / 100;
    if (json) {
      io.stdout.write(
        `${JSON.stringify({
          store: directory,
          changes,
          version: applied.version,
          previousVersion: applied.previousVersion,
          unchanged: applied.unchanged,
          mode: applied.mode,
          copyReason: applied.copyReason ?? null,
          nodesUpserted: applied.nodesUpserted,
          nodesDeleted: applied.nodesDeleted,
          edgesUpserted: applied.edgesUpserted,
          edgesDeleted: applied.edgesDeleted,
          edgesDeletedWithNodes: applied.edgesDeletedWithNodes,
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
    if (applied.unchanged) {
      io.stdout.write(
        `Nothing to change: the change set upserts nothing and deletes no node or edge the store holds; ${directory} stays at version ${applied.version} (no version created)\n`,
      );
      return 0;
    }
    const withNodes =
      applied.edgesDeletedWithNodes > 0 ? ` (${applied.edgesDeletedWithNodes} with the deleted nodes)` : '';
    io.stdout.write(
      [
        `Updated ${directory} to version ${applied.version} (from ${applied.previousVersion}) in ${seconds} s`,
        `  nodes: ${applied.nodesUpserted} upserted, ${applied.nodesDeleted} deleted; edges: ${applied.edgesUpserted} upserted, ${applied.edgesDeleted} deleted${withNodes}`,
        `  index rows rewritten: ${applied.rowsRewritten} (${applied.embedded} embedded)`,
        applied.mode === 'in-place'
          ? '  graph: changed in place'
          : `  graph: written as a changed copy (${applied.copyReason ?? 'the backend cannot change it in place'})`,
        ...[embeddingLine(applied.embedding)].filter((line) => line !== undefined),
        `  the store now holds ${applied.manifest.counts.nodes.toLocaleString('en-US')} nodes, ${applied.manifest.counts.edges.toLocaleString('en-US')} edges`,
      ].join('\n') + '\n',
    );
    return 0;
  },
};

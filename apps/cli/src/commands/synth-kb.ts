import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { WeftError } from '@weft/core';
import { type Command, integerOption, requiredOption } from '../command.ts';
import { Progress } from '../progress.ts';
import { writeSyntheticBundle } from '@weft/skb';

/** `weft synth-kb`: a synthetic typed bundle of any size, for load and speed benchmarks. */
export const synthKbCommand: Command = {
  name: 'synth-kb',
  summary: 'Write a synthetic SKB bundle (typed scholarly graph with abstracts) of a given size',
  usage: 'weft synth-kb --out <dir> --nodes N --edges M [--seed S] [--gzip] [--json]',
  details: [
    '--out <dir>   where to write the bundle (must not exist or be empty)',
    '--nodes N     number of nodes (papers, authors, institutions, fields, venues)',
    '--edges M     number of edges (cites, written_by, has_field, published_in, …)',
    '--seed S      random seed (default 1); the same seed writes the same bundle',
    '--gzip        write .jsonl.gz files',
  ],
  examples: ['weft synth-kb --out /tmp/synth-1m --nodes 1000000 --edges 10000000'],
  options: {
    out: { type: 'string' },
    nodes: { type: 'string' },
    edges: { type: 'string' },
    seed: { type: 'string' },
    gzip: { type: 'boolean' },
  },
  async run(args, io) {
    const out = resolve(io.cwd, requiredOption(args, 'out'));
    const nodes = integerOption(args, 'nodes', 1000, 5);
    const edges = integerOption(args, 'edges', 10 * nodes, 0);
    const seed = integerOption(args, 'seed', 1, 0);
    if (existsSync(out) && readdirSync(out).length > 0)
      throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `--out ${out} is not empty` });
    const started = performance.now();
    let progress: Progress | undefined;
    let phase = '';
    const result = await writeSyntheticBundle({
      directory: out,
      nodes,
      edges,
      seed,
      gzip: args.values.gzip === true,
      onProgress: (next, done, total) => {
        if (next !== phase) {
          progress?.finish();
          phase = next;
          progress = new Progress({ stream: io.stderr, label: `write ${next}`, total });
        }
        progress!.update(done);
      },
    });
    progress?.finish();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    if (args.values.json)
      io.stdout.write(
        `${JSON.stringify({ out, nodes, edges, seed, nodesByType: result.nodesByType, seconds })}\n`,
      );
    else
      io.stdout.write(
        `Wrote ${out}: ${nodes.toLocaleString('en-US')} nodes, ${edges.toLocaleString('en-US')} edges in ${seconds} s\n`,
      );
    return 0;
  },
};

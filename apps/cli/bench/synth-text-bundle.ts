/**
 * Writes a bundle that reuses the WordNet graph (symlinks) with one query set, `synth`, of
 * text-only queries synthesised from node descriptions with another seed than `weft train` uses:
 * a held-out check that the default stack does not hurt text-only queries.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/synth-text-bundle.ts --out /tmp/wn-synth
 *   ./weft eval /tmp/wn-synth --db <trained store> --set synth --split val --stack bm25 --stack default
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openBundle, synthesizeTextQueries } from '@weft/skb';
import { repositoryRoot, sharedDirectory } from '../src/commands/demo.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    count: { type: 'string', default: '300' },
    seed: { type: 'string', default: '99' },
  },
});
if (!values.out) {
  console.error('usage: synth-text-bundle.ts --out <dir> [--count 300] [--seed 99]');
  process.exit(2);
}
const source = path.join(sharedDirectory(repositoryRoot()), 'datasets', 'wordnet');
const out = path.resolve(values.out);
await mkdir(path.join(out, 'queries'), { recursive: true });
for (const file of ['schema.json', 'nodes.jsonl.gz', 'edges.jsonl.gz'])
  await symlink(path.join(source, file), path.join(out, file)).catch(() => undefined);
const queries = await synthesizeTextQueries(await openBundle(source), {
  count: Number(values.count),
  seed: Number(values.seed),
  valShare: 1,
});
await writeFile(
  path.join(out, 'queries', 'synth.jsonl'),
  `${queries.map((q) => JSON.stringify(q)).join('\n')}\n`,
);
console.log(`wrote ${queries.length} queries to ${path.join(out, 'queries', 'synth.jsonl')}`);

import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { synthesizeQueries } from '@weft/eval';
import type { SkbQuery } from '@weft/spec';
import { type Command, integerOption, requiredOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

const jsonl = (queries: readonly SkbQuery[]) =>
  queries.map((q) => JSON.stringify(q)).join('\n') + (queries.length ? '\n' : '');

function counts(queries: readonly SkbQuery[]) {
  return {
    train: queries.filter((q) => q.split === 'train').length,
    val: queries.filter((q) => q.split === 'val').length,
    test: queries.filter((q) => q.split === 'test').length,
  };
}

/** `weft synth-queries`: a STaRK-style benchmark of a store's own KB, synthesised from the store. */
export function createSynthQueriesCommand(deps: CommandDeps = defaultDeps): Command {
  return {
    name: 'synth-queries',
    summary: 'Synthesise STaRK-style query sets (relational and text-only, train/val/test) from a store',
    usage: 'weft synth-queries --db <dir> --out <dir> [--n N] [--text N] [--seed S] [--json]',
    details: [
      '--db <dir>    store directory built by weft ingest (required)',
      '--out <dir>   where to write the query sets (must not exist or be empty): schema.json,',
      '              queries/hybrid.jsonl, queries/text.jsonl and SOURCE.md; weft eval reads it',
      '              as the bundle argument together with --db',
      "--n N         relational queries (default 300): a requirement on the answer's text and a",
      '              relation to a named node; gold = every node satisfying both',
      '--text N      text-only queries (default 150): partial paraphrases of one description',
      '--seed S      seed (default 1); the same store and seed give the same queries',
    ],
    examples: [
      'weft synth-queries --db .weft/wordnet --out .weft/wordnet-synth',
      'weft eval .weft/wordnet-synth --db .weft/wordnet --set hybrid --stack bm25-rel --stack default',
    ],
    options: {
      db: { type: 'string' },
      out: { type: 'string' },
      n: { type: 'string' },
      text: { type: 'string' },
      seed: { type: 'string' },
    },
    async run(args, io) {
      if (args.positionals.length > 0)
        throw new UsageError(`unexpected arguments: ${args.positionals.join(' ')}`);
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const out = path.resolve(io.cwd, requiredOption(args, 'out'));
      if (existsSync(out) && readdirSync(out).length > 0)
        throw new UsageError(`--out ${out} exists and is not empty`);
      const hybridCount = integerOption(args, 'n', 300, 0);
      const textCount = integerOption(args, 'text', 150, 0);
      const seed = integerOption(args, 'seed', 1, 0);
      const store = await deps.openStore(db);
      try {
        const progress = new Progress({
          stream: io.stderr,
          label: 'synthesise queries',
          total: hybridCount + textCount,
        });
        const { hybrid, text } = await synthesizeQueries(store.context, {
          hybrid: hybridCount,
          text: textCount,
          seed,
          onProgress: (made) => progress.update(made),
        });
        progress.finish();
        await mkdir(path.join(out, 'queries'), { recursive: true });
        await writeFile(path.join(out, 'schema.json'), `${JSON.stringify(store.manifest.schema, null, 2)}\n`);
        await writeFile(path.join(out, 'queries', 'hybrid.jsonl'), jsonl(hybrid));
        await writeFile(path.join(out, 'queries', 'text.jsonl'), jsonl(text));
        await writeFile(
          path.join(out, 'SOURCE.md'),
          [
            `# Queries synthesised from the store ${db}`,
            '',
            `Made by \`weft synth-queries --n ${hybridCount} --text ${textCount} --seed ${seed}\` (synthesizeQueries of @weft/eval).`,
            'Only the query sets and the schema are here: evaluate with `weft eval <this folder> --db <the store>`.',
            '',
            '- `hybrid`: a sampled answer, a neighbour of it named in the question, and words of the answer’s',
            '  description as the textual requirement; gold = every node of the answer’s type that the named',
            '  node reaches over the same relation and whose document matches the requirement at least 90% as',
            '  well as the sampled answer (BM25 among those candidates).',
            '- `text`: about 70% of the words of one node’s first clause, its own names removed; gold = that node.',
            '',
          ].join('\n'),
        );
        const summary = { out, hybrid: counts(hybrid), text: counts(text) };
        if (args.values.json === true) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          io.stdout.write(
            `Wrote ${out}: hybrid ${hybrid.length} (${summary.hybrid.train}/${summary.hybrid.val}/${summary.hybrid.test} train/val/test), text ${text.length} (${summary.text.train}/${summary.text.val}/${summary.text.test})\n`,
          );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const synthQueriesCommand = createSynthQueriesCommand();

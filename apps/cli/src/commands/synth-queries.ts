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

/** Below this many test queries a set cannot tell two stacks apart (see weft eval's noise rule). */
export const minTestQueries = 30;

type SplitCounts = ReturnType<typeof counts>;

/** Nodes of the types answers are drawn from (the schema's target types, or every type). */
function answerNodeCount(manifest: {
  readonly schema: { readonly targetTypes?: readonly string[] };
  readonly counts: { readonly nodes: number; readonly nodesByType: Readonly<Record<string, number>> };
}): number {
  const targets = manifest.schema.targetTypes;
  if (!targets) return manifest.counts.nodes;
  return targets.reduce((sum, type) => sum + (manifest.counts.nodesByType[type] ?? 0), 0);
}

/**
 * What people must know about a synthesis: fewer queries than asked (and why), and a test split too
 * small to compare stacks on.
 */
export function synthesisNotes(options: {
  readonly asked: { readonly hybrid: number; readonly described?: number; readonly text: number };
  readonly made: {
    readonly hybrid: SplitCounts;
    readonly described?: SplitCounts;
    readonly text: SplitCounts;
  };
  readonly answerNodes: number;
}): string[] {
  const notes: string[] = [];
  const total = (c: SplitCounts) => c.train + c.val + c.test;
  for (const kind of ['hybrid', 'described', 'text'] as const) {
    const madeCounts = options.made[kind] ?? { train: 0, val: 0, test: 0 };
    const made = total(madeCounts);
    const asked = options.asked[kind] ?? 0;
    if (made < asked)
      notes.push(
        `wrote ${made} of the ${asked} ${kind} queries asked for: the store has ${options.answerNodes.toLocaleString('en-US')} nodes of the answer types, each answers at most one query, and ${
          kind === 'text'
            ? 'only nodes whose first clause has four or more describing words make one'
            : `only nodes with a describing first clause and a relation that narrows them to a few answers make one${kind === 'described' ? ', where the related node’s own text has words that find it among its type' : ''}`
        }`,
      );
    if (asked > 0 && madeCounts.test < minTestQueries)
      notes.push(
        `the ${kind} set has only ${madeCounts.test} test quer${madeCounts.test === 1 ? 'y' : 'ies'}: too few to tell two stacks apart (weft eval marks no difference beyond noise on so few); a larger KB gives more`,
      );
  }
  return notes;
}

/** `weft synth-queries`: a STaRK-style benchmark of a store's own KB, synthesised from the store. */
export function createSynthQueriesCommand(deps: CommandDeps = defaultDeps): Command {
  return {
    name: 'synth-queries',
    summary: 'Synthesise STaRK-style query sets (relational and text-only, train/val/test) from a store',
    usage: 'weft synth-queries --db <dir> --out <dir> [--n N] [--described N] [--text N] [--seed S] [--json]',
    details: [
      '--db <dir>    store directory built by weft ingest (required)',
      '--out <dir>   where to write the query sets (must not exist or be empty): schema.json,',
      '              queries/hybrid.jsonl, queries/described.jsonl, queries/text.jsonl and SOURCE.md;',
      '              weft eval reads it',
      '              as the bundle argument together with --db',
      "--n N         relational queries (default 300): a requirement on the answer's text and a",
      '              relation to a named node; gold = every node satisfying both (a third of those',
      '              whose relation alone reaches at most 5 nodes ask about the relation alone)',
      '--described N relational queries whose related node is described by words of its own text',
      '              instead of named (default 150), as people ask',
      '--text N      text-only queries (default 150): partial paraphrases of one description',
      '--seed S      seed (default 1); the same store and seed give the same queries',
      'A small KB yields fewer queries than asked for: the command says how many and why, and warns',
      `when a set has fewer than ${minTestQueries} test queries.`,
    ],
    examples: [
      'weft synth-queries --db .weft/wordnet --out .weft/wordnet-synth',
      'weft eval .weft/wordnet-synth --db .weft/wordnet --set hybrid --stack bm25-rel --stack default',
    ],
    options: {
      db: { type: 'string' },
      out: { type: 'string' },
      n: { type: 'string' },
      described: { type: 'string' },
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
      const describedCount = integerOption(args, 'described', 150, 0);
      const textCount = integerOption(args, 'text', 150, 0);
      const seed = integerOption(args, 'seed', 1, 0);
      const store = await deps.openStore(db);
      try {
        const progress = new Progress({
          stream: io.stderr,
          label: 'synthesise queries',
          total: hybridCount + describedCount + textCount,
        });
        const { hybrid, described, text } = await synthesizeQueries(store.context, {
          hybrid: hybridCount,
          described: describedCount,
          text: textCount,
          seed,
          onProgress: (made) => progress.update(made),
        });
        progress.finish();
        await mkdir(path.join(out, 'queries'), { recursive: true });
        await writeFile(path.join(out, 'schema.json'), `${JSON.stringify(store.manifest.schema, null, 2)}\n`);
        await writeFile(path.join(out, 'queries', 'hybrid.jsonl'), jsonl(hybrid));
        if (described.length > 0)
          await writeFile(path.join(out, 'queries', 'described.jsonl'), jsonl(described));
        await writeFile(path.join(out, 'queries', 'text.jsonl'), jsonl(text));
        await writeFile(
          path.join(out, 'SOURCE.md'),
          [
            `# Queries synthesised from the store ${db}`,
            '',
            `Made by \`weft synth-queries --n ${hybridCount} --described ${describedCount} --text ${textCount} --seed ${seed}\` (synthesizeQueries of @weft/eval).`,
            'Only the query sets and the schema are here: evaluate with `weft eval <this folder> --db <the store>`.',
            '',
            '- `hybrid`: a sampled answer, a neighbour of it named in the question, and words of the answer’s',
            '  description as the textual requirement; gold = every node of the answer’s type that the named',
            '  node reaches over the same relation and whose document matches the requirement at least 90% as',
            '  well as the sampled answer (BM25 among those candidates). A third of the questions whose relation',
            '  alone reaches at most 5 nodes ask about the relation alone (no requirement); gold = all of them.',
            '- `described`: the same, but the neighbour is described by up to five words of its own first',
            '  clause (its names and the requirement’s words left out) instead of named — words that rank it',
            '  first among the nodes of its type.',
            '- `text`: about 70% of the words of one node’s first clause, its own names removed; gold = that node.',
            '',
          ].join('\n'),
        );
        const notes = synthesisNotes({
          asked: { hybrid: hybridCount, described: describedCount, text: textCount },
          made: { hybrid: counts(hybrid), described: counts(described), text: counts(text) },
          answerNodes: answerNodeCount(store.manifest),
        });
        const summary = {
          out,
          hybrid: counts(hybrid),
          described: counts(described),
          text: counts(text),
          asked: { hybrid: hybridCount, described: describedCount, text: textCount },
          notes,
        };
        if (args.values.json === true) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          io.stdout.write(
            `Wrote ${out}: hybrid ${hybrid.length} (${summary.hybrid.train}/${summary.hybrid.val}/${summary.hybrid.test} train/val/test), described ${described.length} (${summary.described.train}/${summary.described.val}/${summary.described.test}), text ${text.length} (${summary.text.train}/${summary.text.val}/${summary.text.test})\n`,
          );
        for (const note of notes) io.stderr.write(`note: ${note}\n`);
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const synthQueriesCommand = createSynthQueriesCommand();

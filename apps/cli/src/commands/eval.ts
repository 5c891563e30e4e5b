import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { WeftError } from '@weft/core';
import {
  compareStacks,
  type EvaluationSummary,
  evaluateStacks,
  evaluationMarkdown,
  evaluationSummary,
  readQuerySet,
} from '@weft/eval';
import type { RetrieverV1, SkbSplit } from '@weft/spec';
import {
  type Command,
  integerOption,
  listOption,
  requiredOption,
  stringOption,
  UsageError,
} from '../command.ts';
import { Progress } from '../progress.ts';
import type { StackCreateOptions, StackRegistry } from '@weft/stacks';
import { modelOptionDetails, modelOptions, parseModelOptions, stackCreateOptions } from '../model-options.ts';
import type { OpenedStore } from '@weft/store';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

const splits = ['train', 'val', 'test'] as const;
/** The yardstick: always evaluated, and every other stack is compared with it. */
export const baselineStack = 'bm25';

export interface EvalRun {
  readonly bundle: string;
  readonly store: OpenedStore;
  readonly registry: StackRegistry;
  readonly set: string;
  readonly split: SkbSplit;
  readonly stacks: readonly string[];
  readonly listLength: number;
  readonly concurrency: number;
  readonly maxQueries?: number;
  /** Further yardsticks: every other stack is also compared with each of these (paired CIs). */
  readonly compareTo?: readonly string[];
  readonly out?: string;
  readonly stderr: NodeJS.WritableStream;
  readonly quiet?: boolean;
  /** Handed to every stack: the language model of the LLM stacks, their budget and `llmWhen`. */
  readonly createOptions?: StackCreateOptions;
}

/**
 * Checks that the store holds the bundle's answers: a store built from another bundle would score 0.
 * A sample is enough (the first 200 distinct answers): such a store misses nearly all of them.
 */
async function checkGold(store: OpenedStore, gold: readonly string[]): Promise<void> {
  const unique = [...new Set(gold)].slice(0, 200);
  const nodes = await store.graph.doGetNodes(unique);
  const missing = unique.filter((_, i) => nodes[i] === undefined);
  if (missing.length > 0) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `${missing.length} of ${unique.length} checked gold answers (e.g. ${missing[0]}) are not in the store at ${store.directory}; was it built from this bundle?`,
    });
  }
}

/** Evaluates stacks on one query set and split of a bundle against an opened store. */
export async function runEvaluation(run: EvalRun): Promise<EvaluationSummary> {
  let queries = await readQuerySet(run.bundle, run.set, { split: run.split });
  if (run.maxQueries !== undefined) queries = queries.slice(0, run.maxQueries);
  if (queries.length === 0) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `query set "${run.set}" has no ${run.split} queries`,
    });
  }
  await checkGold(
    run.store,
    queries.flatMap((q) => q.answers),
  );
  const retrievers: RetrieverV1[] = [];
  for (const name of run.stacks)
    retrievers.push(await run.registry.create(name, run.store, run.createOptions ?? {}));

  let records: ReturnType<typeof createWriteStream> | undefined;
  if (run.out) {
    await mkdir(run.out, { recursive: true });
    records = createWriteStream(path.join(run.out, 'records.jsonl'));
  }
  const progress = new Progress({
    stream: run.stderr,
    label: `eval ${run.set}/${run.split}`,
    total: queries.length * retrievers.length,
    quiet: run.quiet ?? false,
  });
  // Target types that name every node type restrict nothing; skipping them saves type look-ups.
  const schema = run.store.manifest.schema;
  const listed = new Set(schema.targetTypes ?? []);
  const targetTypes = schema.nodeTypes.every((type) => listed.has(type.name))
    ? undefined
    : schema.targetTypes;
  try {
    const evaluation = await evaluateStacks({
      stacks: retrievers,
      queries,
      listLength: run.listLength,
      concurrency: run.concurrency,
      ...(targetTypes ? { targetTypes } : {}),
      resolveTypes: async (ids) => (await run.store.graph.doGetNodes(ids)).map((node) => node?.type),
      onRecord: async (record) => {
        if (records && !records.write(`${JSON.stringify(record)}\n`)) await once(records, 'drain');
      },
      onProgress: (done) => progress.update(done),
    });
    progress.finish();
    const comparisons = [baselineStack, ...(run.compareTo ?? [])].flatMap((name) => {
      const baseline = evaluation.stacks.find((s) => s.stack === name);
      return baseline
        ? evaluation.stacks
            .filter((s) => s !== baseline && s.stack !== baselineStack)
            .map((s) => compareStacks(baseline, s, { seed: 1 }))
        : [];
    });
    const summary = evaluationSummary(evaluation, { set: run.set, split: run.split }, comparisons);
    if (run.out) {
      await writeFile(path.join(run.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
      await writeFile(path.join(run.out, 'summary.md'), `${evaluationMarkdown(summary)}\n`);
    }
    return summary;
  } finally {
    if (records) {
      records.end();
      await once(records, 'close');
    }
  }
}

export function createEvalCommand(deps: CommandDeps = defaultDeps): Command {
  return {
    name: 'eval',
    summary:
      'Evaluate stacks on a query set of a bundle (Hit@1, Hit@5, Recall@20, MRR, latency), bm25 always included',
    usage:
      'weft eval <bundle> --db <dir> --set <name> [--split test] [--stack S]... [--limit 100] [--json] [--out <dir>] [--concurrency N] [--max-queries N] [--model SPEC]',
    details: [
      '<bundle>          the SKB bundle the store was built from (its queries/<set>.jsonl is read)',
      '--db <dir>        store directory built by weft ingest (required)',
      '--set <name>      query set, e.g. hybrid, definitions, wn18rr (required)',
      '--split S         train, val or test (default test)',
      `--stack S         a stack to evaluate; repeat for several (default: ${baselineStack} and ${deps.registry.defaultName}).`,
      `                  ${baselineStack} is always added as the yardstick, with paired 95% bootstrap CIs against it`,
      '--limit N         ranking length asked of each stack; MRR is over it (default 100)',
      '--concurrency N   retrievals at once (default 4)',
      '--max-queries N   only the first N queries of the split',
      '--compare-to S    also compare every stack with S (e.g. bm25-rel), which is evaluated too; repeatable',
      '--embedder SPEC   embed queries with this embedder (must match the store)',
      ...modelOptionDetails,
      '--out <dir>       write records.jsonl (one line per query and stack: ranking, metrics, LLM calls',
      '                  and tokens, stage warnings), summary.md and summary.json',
      '--json            print exactly one JSON object (metrics in percent, LLM calls and tokens per',
      '                  query) instead of the table',
      '',
      'Stacks:',
      ...deps.registry.list().map((entry) => `  ${entry.name.padEnd(16)}${entry.description}`),
    ],
    examples: [
      'weft eval .weft/wordnet-bundle --db .weft/wordnet --set demo',
      'weft eval my-bundle --db my-store --set hybrid --split val --stack bm25-rel --stack default --compare-to bm25-rel --json',
      'weft eval my-bundle --db my-store --set hybrid --stack vector --stack hybrid-rrf --max-queries 500 --out results/hybrid',
      'weft eval my-bundle --db my-store --set hybrid --stack mor --stack focused --model openai:gpt-4o-mini --json',
    ],
    options: {
      db: { type: 'string' },
      set: { type: 'string' },
      split: { type: 'string' },
      stack: { type: 'string', multiple: true },
      limit: { type: 'string' },
      concurrency: { type: 'string' },
      'max-queries': { type: 'string' },
      'compare-to': { type: 'string', multiple: true },
      out: { type: 'string' },
      embedder: { type: 'string' },
      ...modelOptions,
    },
    async run(args, io) {
      if (args.positionals.length !== 1) throw new UsageError('expected one bundle directory');
      const bundle = path.resolve(io.cwd, args.positionals[0]!);
      if (!existsSync(bundle)) throw new UsageError(`bundle not found: ${bundle}`);
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const set = requiredOption(args, 'set');
      const split = stringOption(args, 'split') ?? 'test';
      if (!(splits as readonly string[]).includes(split))
        throw new UsageError(`--split must be train, val or test, got "${split}"`);
      const named = listOption(args, 'stack');
      const requested = named.length ? named : [deps.registry.defaultName];
      const compareTo = listOption(args, 'compare-to');
      const stacks = [baselineStack, ...compareTo, ...requested.filter((name) => name !== baselineStack)];
      const unique = [...new Set(stacks)];
      const listLength = integerOption(args, 'limit', 100);
      const concurrency = integerOption(args, 'concurrency', 4);
      const maxQueriesRaw = stringOption(args, 'max-queries');
      const maxQueries = maxQueriesRaw === undefined ? undefined : integerOption(args, 'max-queries', 1);
      const outRaw = stringOption(args, 'out');
      const out = outRaw === undefined ? undefined : path.resolve(io.cwd, outRaw);
      const embedder = stringOption(args, 'embedder');
      const json = args.values.json === true;
      const createOptions = await stackCreateOptions(parseModelOptions(args, { cwd: io.cwd }));

      const store = await deps.openStore(db, embedder ? { queryEmbedder: embedder } : {});
      try {
        const summary = await runEvaluation({
          bundle,
          store,
          registry: deps.registry,
          set,
          split: split as SkbSplit,
          stacks: unique,
          listLength,
          concurrency,
          ...(maxQueries === undefined ? {} : { maxQueries }),
          ...(compareTo.length ? { compareTo } : {}),
          ...(out ? { out } : {}),
          stderr: io.stderr,
          createOptions,
        });
        io.stdout.write(json ? `${JSON.stringify(summary)}\n` : `${evaluationMarkdown(summary)}\n`);
        if (out && !json)
          io.stderr.write(`wrote ${path.join(out, 'records.jsonl')}, summary.md and summary.json\n`);
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const evalCommand = createEvalCommand();

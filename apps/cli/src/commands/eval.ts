import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { createRetriever, WeftError } from '@weft/core';
import { cassetteModel } from '@weft/llm';
import {
  compareStacks,
  type EvaluationSummary,
  evaluateStacks,
  evaluationMarkdown,
  evaluationSummary,
  goldAnchorsOf,
  oracleAnchors,
  oraclePlans,
  readQuerySet,
  withPlanTransform,
} from '@weft/eval';
import type { RetrieverV1, SkbQuery, SkbSplit } from '@weft/spec';
import {
  corruptPlans,
  goldAnnotations,
  judgedTasks,
  noisyStages,
  oracleLanguageModel,
  readAnnotations,
  resolveGoldPlans,
} from '@weft/oracle';
import {
  type Command,
  integerOption,
  listOption,
  type ParsedArgs,
  requiredOption,
  stringOption,
  UsageError,
} from '../command.ts';
import { Progress } from '../progress.ts';
import type { StackCreateOptions, StackRegistry } from '@weft/stacks';
import { modelOptionDetails, modelOptions, parseModelOptions, stackCreateOptions } from '../model-options.ts';
import { type OpenedStore, staleArtifactsWarning } from '@weft/store';
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
  /** What the query set's gold annotations replace (`--oracle`). */
  readonly oracle?: EvalOracle;
}

/**
 * `anchors`: every stack's plans get the gold anchors instead of their own. `model`: the LLM stacks'
 * language model is the oracle model (gold plans; `noise` of them wrong, chosen by `seed`).
 */
export interface EvalOracle {
  readonly anchors?: boolean;
  /** Every stack's plans are the gold plan: anchors, relation paths followed in the graph, answer type. */
  readonly plan?: boolean;
  readonly model?: {
    readonly noise: number;
    readonly seed: number;
    /** The plans' textual restriction: the question's words (default) or the judge's (`annotation`). */
    readonly restriction?: 'question' | 'annotation';
    /** The rerankers: gold answers first (default) or the given order kept (`keep`, `--oracle-rerank keep`). */
    readonly rerank?: 'gold' | 'keep';
    /**
     * A cassette to record the oracle model's calls into (`--record`), so that `--replay` answers
     * the LLM stacks without the oracle (and `--llm-when always`) with the same figures.
     */
    readonly record?: string;
  };
}

/** The oracle as the summary names it, e.g. `anchors`, `model (noise 0.3, seed 1)`. */
export function oracleLabel(oracle: EvalOracle | undefined): string | undefined {
  const parts = [
    ...(oracle?.anchors ? ['anchors'] : []),
    ...(oracle?.plan ? ['plan'] : []),
    ...(oracle?.model
      ? [
          `model${oracle.model.noise > 0 ? ` (noise ${oracle.model.noise}, seed ${oracle.model.seed})` : ''}${
            oracle.model.restriction === 'annotation' ? ', judged restriction' : ''
          }${oracle.model.rerank === 'keep' ? ', rerankers keep the order' : ''}`,
        ]
      : []),
  ];
  return parts.length > 0 ? parts.join(' + ') : undefined;
}

function isRetriever(value: unknown): value is RetrieverV1 {
  return typeof (value as RetrieverV1).doRetrieve === 'function';
}

/** The oracle model over the query set's gold plans, with what it will answer (for stderr). */
async function oracleModel(
  run: EvalRun,
  queries: readonly SkbQuery[],
  settings: NonNullable<EvalOracle['model']>,
) {
  const schema = run.store.manifest.schema;
  const annotations = goldAnnotations(queries, {
    schema,
    annotations: await readAnnotations(run.bundle, run.set),
  });
  const gold = await resolveGoldPlans(annotations, {
    graph: run.store.graph,
    answers: new Map(queries.map((q) => [q.id, q.answers])),
    ...(settings.restriction ? { restriction: settings.restriction } : {}),
  });
  const noisy =
    settings.noise > 0
      ? corruptPlans(gold, { noise: settings.noise, seed: settings.seed, schema })
      : undefined;
  const wrong =
    settings.noise > 0 ? noisyStages(gold, { noise: settings.noise, seed: settings.seed }) : undefined;
  const withPaths = gold.filter((plan) => plan.paths.length > 0).length;
  const kinds = [...(noisy?.corrupted.values() ?? [])];
  const note = `oracle model: gold plans for ${gold.length} of ${queries.length} queries (${withPaths} with a relation path)${
    noisy
      ? `; ${kinds.length} made wrong (${kinds.filter((k) => k === 'anchor').length} anchor, ${kinds.filter((k) => k === 'relation').length} relation), and ${wrong?.get('validate')?.size ?? 0} answers of each judged stage (${judgedTasks.join(', ')})`
      : ''
  }${settings.rerank === 'keep' ? '; rerankers keep the given order' : ''}`;
  const oracle = oracleLanguageModel({
    plans: noisy?.plans ?? gold,
    ...(wrong ? { wrong } : {}),
    ...(settings.rerank ? { rerank: settings.rerank } : {}),
  });
  return {
    model: settings.record
      ? cassetteModel({ model: oracle, cassette: settings.record, mode: 'record' })
      : oracle,
    note: settings.record ? `${note}; recording its calls into ${settings.record}` : note,
  };
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

/** What `weft eval` reports: the summary, with the warnings about the store when there are any. */
export type EvalReport = EvaluationSummary & {
  /** E.g. that the trained artifacts may be stale (`staleArtifactsWarning` of `@weft/store`). */
  readonly warnings?: readonly string[];
};

/** Evaluates stacks on one query set and split of a bundle against an opened store. */
export async function runEvaluation(run: EvalRun): Promise<EvalReport> {
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
  // Gold anchors are node ids: a node type among them (WordNet's topic_and_type) is no anchor.
  const nodeTypes = new Set(run.store.manifest.schema.nodeTypes.map((type) => type.name));
  const anchored = queries.filter((q) => goldAnchorsOf(q, nodeTypes) !== undefined).length;
  const oracle = run.oracle;
  if ((oracle?.anchors || oracle?.plan || oracle?.model) && anchored === 0) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `--oracle ${oracle.anchors ? 'anchors' : oracle.plan ? 'plan' : 'model'} needs gold anchors (meta.anchors), and no ${run.split} query of "${run.set}" carries any`,
    });
  }
  // Figures of trained stacks fitted before many updates (weft update) say so, as weft query does.
  const stale = await staleArtifactsWarning(run.store.directory, run.store.manifest);
  if (stale) run.stderr.write(`warning: ${stale}\n`);
  let createOptions: StackCreateOptions = run.createOptions ?? {};
  if (oracle?.model) {
    const { model, note } = await oracleModel(run, queries, oracle.model);
    if (!run.quiet) run.stderr.write(`${note}\n`);
    // The ceiling: the planners ask the oracle on every query unless --llm-when says otherwise.
    createOptions = {
      llmWhen: 'always',
      ...createOptions,
      languageModel: model,
    } as StackCreateOptions;
  }
  const transform = oracle?.plan
    ? oraclePlans(
        goldAnnotations(queries, {
          schema: run.store.manifest.schema,
          annotations: await readAnnotations(run.bundle, run.set),
        }),
      )
    : oracle?.anchors
      ? oracleAnchors(queries, { nodeTypes })
      : undefined;
  const retrievers: RetrieverV1[] = [];
  for (const name of run.stacks) {
    if (!transform) {
      retrievers.push(await run.registry.create(name, run.store, createOptions));
      continue;
    }
    const built = await (await run.registry.entry(name)).create(run.store, createOptions);
    if (isRetriever(built))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `stack "${name}" is built as a finished retriever: --oracle ${oracle?.plan ? 'plan' : 'anchors'} cannot reach its planner`,
      });
    retrievers.push(createRetriever(withPlanTransform(built, transform)));
  }

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
      goldAnchors: (query) => goldAnchorsOf(query, nodeTypes),
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
    const label = oracleLabel(oracle);
    const summary: EvalReport = {
      ...evaluationSummary(
        evaluation,
        { set: run.set, split: run.split, ...(label ? { oracle: label } : {}) },
        comparisons,
      ),
      ...(stale ? { warnings: [stale] } : {}),
    };
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
      'weft eval <bundle> --db <dir> --set <name> [--split test] [--stack S]... [--limit 100] [--json] [--out <dir>] [--concurrency N] [--max-queries N] [--model SPEC] [--oracle anchors|plan|model|noisy-model]',
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
      '                  query; warnings, when the trained artifacts may be stale) instead of the table',
      "--oracle O        replace a part of every stack by the query set's gold annotations, to see where",
      '                  the loss is (needs meta.anchors; repeatable: anchors with model or noisy-model):',
      '                  anchors      every plan gets the gold anchors instead of its own (confidence 1,',
      '                               the gold node its only candidate); paths of other anchors go',
      '                  plan         every plan is the gold plan: the gold anchors, the gold relation paths',
      '                               (meta.paths, annotations or meta.relational_part) followed in the',
      '                               graph, their endpoints the candidates, and the gold answer type;',
      '                               each stack ranks with its own text scoring (the execution ceiling)',
      "                  model        the LLM stacks' model is an oracle that answers each planning prompt",
      '                               with the gold plan (anchors, relation path from meta.paths, the',
      "                               bundle's queries/<set>.annotations.jsonl or meta.relational_part),",
      "                               every other LLM stage from the gold annotations too: KAR's expansion",
      "                               (anchor, relation, answer type), MixRAG's expert weights (structure or",
      "                               text), HybGRAG's critic (accepts a gold top result, else says what to",
      '                               correct), the rerankers (gold answers first); no provider; the planners',
      '                               ask it on every query (--llm-when always)',
      '                  noisy-model  the same with 30% of the plans wrong (anchor or relation) and 30% of',
      '                               the answers of each other stage wrong, seeded',
      "                  with --record FILE the oracle model's calls are recorded into a cassette, which",
      '                  --replay FILE --llm-when always then answers with no oracle (the same figures)',
      '--oracle-noise P  share of wrong plans (and of wrong answers of each other stage) of noisy-model, in [0, 1] (default 0.3)',
      '--oracle-seed N   which plans and answers noisy-model makes wrong (default 1)',
      '--oracle-rerank R how the oracle model answers the rerankers: gold (gold answers first, default)',
      '                  or keep (the given order, a tie, one score for all: to measure the planners alone)',
      "--oracle-restriction R  what the oracle model says the answer's text should say: question (the",
      '                  question without its anchor mentions and anchor descriptions, meta.anchor_descriptions:',
      '                  what a model that knows the anchors reads; default) or',
      "                  annotation (the judge's wording, meta.textual_requirement: words the question may lack)",
      '',
      'When the query set carries gold anchors (meta.anchors), a second table reports per stack the',
      'share of queries with every gold anchor among the top-3 candidates of a plan anchor (anchors of',
      'confidence ≥ 0.2), with every gold anchor a top candidate, plan anchors per question, and the',
      'precision of the plan anchors\' top candidates ("linking" in --json).',
      '',
      'Stacks:',
      ...deps.registry.list().map((entry) => `  ${entry.name.padEnd(16)}${entry.description}`),
    ],
    examples: [
      'weft eval .weft/wordnet-bundle --db .weft/wordnet --set demo',
      'weft eval my-bundle --db my-store --set hybrid --split val --stack bm25-rel --stack default --compare-to bm25-rel --json',
      'weft eval my-bundle --db my-store --set hybrid --stack vector --stack hybrid-rrf --max-queries 500 --out results/hybrid',
      'weft eval my-bundle --db my-store --set hybrid --stack mor --stack focused --model openai:gpt-4o-mini --json',
      'weft eval my-bundle --db my-store --set hybrid --split val --stack default --stack mor-offline --oracle anchors',
      'weft eval my-bundle --db my-store --set hybrid --split val --stack mor --stack focused --oracle noisy-model',
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
      oracle: { type: 'string', multiple: true },
      'oracle-noise': { type: 'string' },
      'oracle-seed': { type: 'string' },
      'oracle-restriction': { type: 'string' },
      'oracle-rerank': { type: 'string' },
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
      const parsedOracle = parseOracle(args);
      // --record with the oracle model records the oracle's calls (a cassette --replay answers from).
      const oracleRecord = parsedOracle?.model ? stringOption(args, 'record') : undefined;
      const oracle: EvalOracle | undefined =
        parsedOracle?.model && oracleRecord
          ? { ...parsedOracle, model: { ...parsedOracle.model, record: path.resolve(io.cwd, oracleRecord) } }
          : parsedOracle;
      const settings = parseModelOptions(
        oracleRecord ? { ...args, values: { ...args.values, record: undefined } } : args,
        { cwd: io.cwd },
      );
      if (oracle?.model && (stringOption(args, 'model') || settings.replay))
        throw new UsageError('--oracle model and noisy-model are the model: drop --model and --replay');
      // The oracle model replaces whatever WEFT_MODEL names.
      const { spec: _named, ...withoutSpec } = settings;
      const createOptions = await stackCreateOptions(oracle?.model ? withoutSpec : settings);

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
          ...(oracle ? { oracle } : {}),
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

const oracleKinds = ['anchors', 'plan', 'model', 'noisy-model'] as const;

/** `--oracle`, `--oracle-noise`, `--oracle-seed`; bad values are usage errors (exit 2). */
function parseOracle(args: ParsedArgs): EvalOracle | undefined {
  const kinds = listOption(args, 'oracle');
  for (const kind of kinds)
    if (!(oracleKinds as readonly string[]).includes(kind))
      throw new UsageError(`--oracle must be ${oracleKinds.join(', ')}, got "${kind}"`);
  if (kinds.includes('anchors') && kinds.includes('plan'))
    throw new UsageError('--oracle anchors and --oracle plan exclude each other (a plan holds its anchors)');
  if (kinds.includes('model') && kinds.includes('noisy-model'))
    throw new UsageError('--oracle model and --oracle noisy-model exclude each other');
  const noiseRaw = stringOption(args, 'oracle-noise');
  const seedRaw = stringOption(args, 'oracle-seed');
  if ((noiseRaw !== undefined || seedRaw !== undefined) && !kinds.includes('noisy-model'))
    throw new UsageError('--oracle-noise and --oracle-seed go with --oracle noisy-model');
  const noise = noiseRaw === undefined ? 0.3 : Number(noiseRaw);
  if (noiseRaw !== undefined && !(noiseRaw.trim() !== '' && noise >= 0 && noise <= 1))
    throw new UsageError(`--oracle-noise must be a number in [0, 1], got "${noiseRaw}"`);
  const seed = integerOption(args, 'oracle-seed', 1, 0);
  const restriction = stringOption(args, 'oracle-restriction');
  if (restriction !== undefined && restriction !== 'question' && restriction !== 'annotation')
    throw new UsageError(`--oracle-restriction must be question or annotation, got "${restriction}"`);
  if (restriction !== undefined && !kinds.some((k) => k === 'model' || k === 'noisy-model'))
    throw new UsageError('--oracle-restriction goes with --oracle model or noisy-model');
  const rerank = stringOption(args, 'oracle-rerank');
  if (rerank !== undefined && rerank !== 'gold' && rerank !== 'keep')
    throw new UsageError(`--oracle-rerank must be gold or keep, got "${rerank}"`);
  if (rerank !== undefined && !kinds.some((k) => k === 'model' || k === 'noisy-model'))
    throw new UsageError('--oracle-rerank goes with --oracle model or noisy-model');
  if (kinds.length === 0) return undefined;
  const how = {
    ...(restriction ? { restriction: restriction as 'question' | 'annotation' } : {}),
    ...(rerank ? { rerank: rerank as 'gold' | 'keep' } : {}),
  };
  return {
    ...(kinds.includes('anchors') ? { anchors: true } : {}),
    ...(kinds.includes('plan') ? { plan: true } : {}),
    ...(kinds.includes('model') ? { model: { noise: 0, seed, ...how } } : {}),
    ...(kinds.includes('noisy-model') ? { model: { noise, seed, ...how } } : {}),
  };
}

export const evalCommand = createEvalCommand();

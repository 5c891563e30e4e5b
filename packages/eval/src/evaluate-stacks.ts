import { toWeftError, WeftError } from '@weft/kit';
import type { RetrievalTrace, RetrieverV1, SkbQuery } from '@weft/spec';
import {
  anchorLinking,
  goldPathAmongReadings,
  goldPathsOf,
  goldAnchorsOf,
  type LinkingSummary,
  type QueryLinking,
  summarizeLinking,
} from './anchor-linking.ts';
import { quantileSorted } from './paired-bootstrap.ts';
import { meanMetricsPercent, type QueryMetrics, rankingMetrics, targetRanking } from './ranking-metrics.ts';

export interface EvaluateStacksOptions {
  readonly stacks: readonly RetrieverV1[];
  readonly queries: readonly SkbQuery[];
  /** Length of the ranking asked of every stack; MRR is computed over it (default 100). */
  readonly listLength?: number;
  /** Retrievals running at once, over all stacks (default 4). */
  readonly concurrency?: number;
  /** The schema's target types; absent = every type counts. */
  readonly targetTypes?: readonly string[];
  /**
   * Types of ids whose candidate carries none (only asked when `targetTypes` is set). Without it,
   * untyped candidates are dropped from the ranking that is scored.
   */
  readonly resolveTypes?: (ids: readonly string[]) => Promise<readonly (string | undefined)[]>;
  /** Called once per finished (query, stack), in completion order: write JSONL here. */
  readonly onRecord?: (record: QueryRecord) => void | Promise<void>;
  readonly onProgress?: (done: number, total: number) => void;
  /** Record a failing retrieval as an empty ranking and go on (default false: the first failure aborts). */
  readonly continueOnError?: boolean;
  readonly abortSignal?: AbortSignal;
  /**
   * The gold anchors of a query, for linking figures (default: `goldAnchorsOf`, the ids of
   * `meta.anchors`); queries without any are left out of them.
   */
  readonly goldAnchors?: (query: SkbQuery) => readonly string[] | undefined;
  /** Plan anchors below this confidence are not counted by the linking figures (default 0.2). */
  readonly linkingMinConfidence?: number;
}

export interface RankedNode {
  readonly id: string;
  readonly type?: string;
  readonly score: number;
}

/** A small summary of a trace: which stages ran, how long, with how many LLM calls. */
export interface TraceSummary {
  readonly rounds: number;
  readonly stages: readonly {
    kind: string;
    name: string;
    round: number;
    durationMs: number;
    llmCalls: number;
    inputTokens: number;
    outputTokens: number;
    /** What the stage reported (fallbacks taken, models missing), in order. */
    warnings?: readonly string[];
    error?: string;
  }[];
  readonly plan?: { targetTypes: string[]; anchors: string[]; paths: number; confidence: number };
}

/** What happened for one query and one stack. */
export interface QueryRecord {
  readonly stack: string;
  readonly queryId: string;
  readonly query: string;
  readonly split: string;
  /** The scored ranking: distinct ids of the target types, best first. */
  readonly ranking: readonly RankedNode[];
  readonly gold: readonly string[];
  readonly metrics: QueryMetrics;
  /** Wall time of the retrieval in milliseconds (includes waiting on shared stores under concurrency). */
  readonly timeMs: number;
  readonly llmCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly trace?: TraceSummary;
  /** The plan's anchors against the query's gold anchors (`anchorLinking`), when it has any. */
  readonly linking?: QueryLinking;
  readonly error?: { readonly code: string; readonly message: string };
}

export interface StackEvaluation {
  readonly stack: string;
  readonly n: number;
  /** Means over the queries, in percent. */
  readonly metrics: QueryMetrics;
  readonly latencyMs: { readonly p50: number; readonly p95: number; readonly mean: number };
  readonly llmCallsPerQuery: number;
  readonly tokensPerQuery: { readonly input: number; readonly output: number };
  readonly errors: number;
  /** Linking recall and precision over the queries with gold anchors; absent when none has any. */
  readonly linking?: LinkingSummary;
  /** One record per query, in the order of the query set. */
  readonly records: readonly QueryRecord[];
}

export interface Evaluation {
  readonly n: number;
  readonly listLength: number;
  readonly stacks: readonly StackEvaluation[];
}

/**
 * Runs every stack on every query (the query text only: ids and `meta` never reach a retriever) and
 * scores the rankings. Work is spread over `concurrency` slots; records come out as they finish and
 * are also returned in query order.
 */
export async function evaluateStacks(options: EvaluateStacksOptions): Promise<Evaluation> {
  const listLength = options.listLength ?? 100;
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(listLength) || listLength < 1) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `listLength must be a positive integer, got ${listLength}`,
    });
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `concurrency must be a positive integer, got ${concurrency}`,
    });
  }
  const names = options.stacks.map((stack) => stack.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined)
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `stack "${duplicate}" is listed twice` });
  for (const query of options.queries) {
    if (query.answers.length === 0) {
      throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `query ${query.id} has no gold answers` });
    }
  }

  const targetTypes = options.targetTypes ? new Set(options.targetTypes) : undefined;
  const goldAnchors = options.goldAnchors ?? ((query: SkbQuery) => goldAnchorsOf(query));
  const linkingOptions =
    options.linkingMinConfidence === undefined ? {} : { minConfidence: options.linkingMinConfidence };
  const knownTypes = new Map<string, string | undefined>();
  const records: QueryRecord[][] = options.stacks.map(() => new Array<QueryRecord>(options.queries.length));
  const tasks: { stack: number; query: number }[] = [];
  for (let query = 0; query < options.queries.length; query++) {
    for (let stack = 0; stack < options.stacks.length; stack++) tasks.push({ stack, query });
  }
  let next = 0;
  let done = 0;
  options.onProgress?.(0, tasks.length);

  const typesOf = async (ranking: readonly RankedNode[]) => {
    if (!targetTypes) return;
    for (const node of ranking) if (node.type !== undefined) knownTypes.set(node.id, node.type);
    const missing = [...new Set(ranking.filter((node) => !knownTypes.has(node.id)).map((node) => node.id))];
    if (missing.length === 0 || !options.resolveTypes) return;
    const types = await options.resolveTypes(missing);
    for (const [i, id] of missing.entries()) knownTypes.set(id, types[i]);
  };

  const runOne = async (task: { stack: number; query: number }): Promise<QueryRecord> => {
    const retriever = options.stacks[task.stack]!;
    const query = options.queries[task.query]!;
    const started = performance.now();
    const gold = goldAnchors(query);
    const paths = goldPathsOf(query);
    const linkingOf = (
      plan: Parameters<typeof goldPathAmongReadings>[0] & Parameters<typeof anchorLinking>[0],
    ) =>
      gold
        ? {
            linking: {
              ...anchorLinking(plan, gold, linkingOptions),
              ...(paths ? { pathTop3: goldPathAmongReadings(plan, paths) } : {}),
            },
          }
        : {};
    const base = {
      stack: retriever.name,
      queryId: query.id,
      query: query.query,
      split: query.split,
      gold: query.answers,
    };
    try {
      const result = await retriever.doRetrieve({
        query: query.query,
        limit: listLength,
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      });
      const timeMs = performance.now() - started;
      const returned = result.ranking.map((c) => ({
        id: c.id,
        ...(c.type === undefined ? {} : { type: c.type }),
        score: c.score,
      }));
      await typesOf(returned);
      const kept = new Set(
        targetRanking(
          returned.map((node) => node.id),
          targetTypes,
          (id) => knownTypes.get(id),
        ),
      );
      const ranking = returned.filter((node) => kept.delete(node.id));
      return {
        ...base,
        ranking,
        metrics: rankingMetrics(
          ranking.map((node) => node.id),
          query.answers,
        ),
        timeMs,
        llmCalls: result.trace.llmCalls,
        inputTokens: result.trace.inputTokens,
        outputTokens: result.trace.outputTokens,
        trace: summarizeTrace(result.trace),
        ...linkingOf(result.trace.plan),
      };
    } catch (error) {
      if (!options.continueOnError || options.abortSignal?.aborted) {
        throw toWeftError(
          error,
          'WEFT_STAGE_FAILED',
          `stack "${retriever.name}" failed on query ${query.id}`,
        );
      }
      const failure = toWeftError(error, 'WEFT_STAGE_FAILED', 'retrieval failed');
      return {
        ...base,
        ranking: [],
        metrics: rankingMetrics([], query.answers),
        timeMs: performance.now() - started,
        llmCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
        ...linkingOf(undefined),
        error: { code: failure.code, message: failure.message },
      };
    }
  };

  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      const record = await runOne(task);
      records[task.stack]![task.query] = record;
      await options.onRecord?.(record);
      done++;
      options.onProgress?.(done, tasks.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, tasks.length)) }, worker));

  return {
    n: options.queries.length,
    listLength,
    stacks: options.stacks.map((stack, i) => summarizeStack(stack.name, records[i]!)),
  };
}

function summarizeStack(stack: string, records: readonly QueryRecord[]): StackEvaluation {
  const times = Float64Array.from(records.map((r) => r.timeMs)).sort();
  const n = records.length;
  const perQuery = (value: (r: QueryRecord) => number) =>
    n === 0 ? 0 : records.reduce((sum, r) => sum + value(r), 0) / n;
  const linking = summarizeLinking(records.flatMap((r) => (r.linking ? [r.linking] : [])));
  return {
    stack,
    n,
    metrics: meanMetricsPercent(records.map((r) => r.metrics)),
    latencyMs: {
      p50: n === 0 ? 0 : quantileSorted(times, 0.5),
      p95: n === 0 ? 0 : quantileSorted(times, 0.95),
      mean: perQuery((r) => r.timeMs),
    },
    llmCallsPerQuery: perQuery((r) => r.llmCalls),
    tokensPerQuery: { input: perQuery((r) => r.inputTokens), output: perQuery((r) => r.outputTokens) },
    errors: records.filter((r) => r.error).length,
    ...(linking ? { linking } : {}),
    records,
  };
}

export function summarizeTrace(trace: RetrievalTrace): TraceSummary {
  return {
    rounds: trace.rounds,
    stages: trace.stages.map((stage) => ({
      kind: stage.kind,
      name: stage.name,
      round: stage.round,
      durationMs: Math.round(stage.durationMs * 100) / 100,
      llmCalls: stage.llmCalls,
      inputTokens: stage.inputTokens,
      outputTokens: stage.outputTokens,
      ...(stage.warnings?.length ? { warnings: stage.warnings } : {}),
      ...(stage.error ? { error: `${stage.error.code}: ${stage.error.message}` } : {}),
    })),
    ...(trace.plan
      ? {
          plan: {
            targetTypes: trace.plan.targetTypes.slice(0, 3).map((t) => t.type),
            anchors: trace.plan.anchors.map((a) => a.mention),
            paths: trace.plan.paths.length,
            confidence: trace.plan.confidence,
          },
        }
      : {}),
  };
}

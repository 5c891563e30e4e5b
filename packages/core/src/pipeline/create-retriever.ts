import type {
  Candidate,
  CriticFeedback,
  CriticV1,
  ExpanderV1,
  Plan,
  PlannerV1,
  RerankerV1,
  RetrievalContext,
  RetrievalResult,
  RetrieverV1,
  RetrieveOptions,
  StageKind,
  StageTrace,
  TraverserV1,
} from '@weft/spec';
import { emptyPlan, type Fusion, reciprocalRankFusion, toWeftError, WeftError } from '@weft/kit';
import { LlmMeter } from '../llm/llm-meter.ts';
import { meterEmbeddingModel } from '../llm/meter-embedding-model.ts';
import { withMeters } from '../llm/meter-scope.ts';
import { meterLanguageModel } from '../llm/metering-middleware.ts';
import { summarizeCandidates, summarizePlan } from './summaries.ts';

export interface StackDefinition {
  /** The stack's name, e.g. `'default'`; shown in traces and evaluation tables. */
  readonly name: string;
  /** Stores and models shared by every stage. */
  readonly context: RetrievalContext;
  readonly expander?: ExpanderV1;
  /** Without a planner, the whole query restricts the schema's target types. */
  readonly planner?: PlannerV1;
  readonly traversers: readonly TraverserV1[];
  /** How the traversers' lists are merged (default: reciprocal rank fusion). */
  readonly fusion?: Fusion;
  readonly rerankers?: readonly RerankerV1[];
  readonly critic?: CriticV1;
  /** Rounds of plan → … → critic (default 3 with a critic, else 1). */
  readonly maxRounds?: number;
  /** LLM calls allowed per query, over all stages (default: unlimited; offline stacks make none). */
  readonly llmBudget?: number;
  /** How many candidates each traverser returns (default: max(100, limit)). */
  readonly candidateLimit?: number;
}

/** Stages that can be dropped for a query when the LLM budget runs out, keeping a ranking. */
const optionalStages: ReadonlySet<StageKind> = new Set(['expander', 'reranker', 'critic']);

/**
 * Builds a retriever from stages. Every stage run is timed and recorded in the trace with its LLM
 * calls and tokens; LLM calls are counted against `llmBudget` through a metered model.
 */
export function createRetriever(stack: StackDefinition): RetrieverV1 {
  if (stack.traversers.length === 0) {
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `stack "${stack.name}" has no traverser` });
  }
  const fusion = stack.fusion ?? reciprocalRankFusion();
  const maxRounds = Math.max(1, stack.maxRounds ?? (stack.critic ? 3 : 1));
  const targetTypes = stack.context.schema.targetTypes
    ? new Set(stack.context.schema.targetTypes)
    : undefined;

  return {
    specificationVersion: 'v1',
    name: stack.name,
    async doRetrieve(options: RetrieveOptions): Promise<RetrievalResult> {
      const limit = options.limit ?? 20;
      if (!Number.isInteger(limit) || limit < 1) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `limit must be a positive integer, got ${limit}`,
        });
      }
      const candidateLimit = Math.max(stack.candidateLimit ?? 100, limit);
      const started = performance.now();
      const queryMeter = new LlmMeter(stack.llmBudget);
      const stages: StageTrace[] = [];
      // Warnings raised before a stage's own run (by the pipeline, or by doPrepare) join its trace.
      const pendingWarnings = new Map<string, string[]>();
      const warnBefore = (stage: string, message: string) => {
        const list = pendingWarnings.get(stage) ?? [];
        list.push(message);
        pendingWarnings.set(stage, list);
      };

      const run = async <T>(
        kind: StageKind,
        name: string,
        round: number,
        input: unknown,
        body: (context: RetrievalContext) => Promise<T>,
        summarize: (output: T) => unknown,
        // A traverser's meter already holds what its doPrepare embedded.
        stageMeter: LlmMeter = new LlmMeter(),
      ): Promise<T> => {
        const warnings: string[] = [...(pendingWarnings.get(name) ?? [])];
        pendingWarnings.delete(name);
        const base = stack.context;
        const meters = [queryMeter, stageMeter];
        const context: RetrievalContext = {
          ...base,
          ...(base.languageModel ? { languageModel: meterLanguageModel(base.languageModel, meters) } : {}),
          ...(base.embeddingModel
            ? { embeddingModel: meterEmbeddingModel(base.embeddingModel, meters) }
            : {}),
          ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
          warn: (message) => {
            warnings.push(message);
          },
        };
        const startedAtMs = performance.now() - started;
        const record = (extra: Partial<StageTrace>) =>
          stages.push({
            kind,
            name,
            round,
            startedAtMs,
            durationMs: performance.now() - started - startedAtMs,
            llmCalls: stageMeter.calls,
            inputTokens: stageMeter.inputTokens,
            outputTokens: stageMeter.outputTokens,
            input,
            ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
            ...(stageMeter.log.length > 0 ? { modelCalls: [...stageMeter.log] } : {}),
            ...extra,
          });
        try {
          options.abortSignal?.throwIfAborted();
          // Models a stage brings itself, wrapped with meteringMiddleware(), charge these meters too.
          const output = await withMeters(meters, () => body(context));
          record({ output: summarize(output) });
          return output;
        } catch (error) {
          const failure =
            options.abortSignal?.aborted === true
              ? new WeftError({ code: 'WEFT_ABORTED', message: 'retrieval aborted', cause: error })
              : toWeftError(error, 'WEFT_STAGE_FAILED', `${kind} "${name}" failed`);
          record({ error: { code: failure.code, message: failure.message } });
          throw failure;
        }
      };

      /** Runs an optional stage; when the LLM budget runs out there, goes on without it. */
      const runOptional = async <T>(
        kind: StageKind,
        name: string,
        round: number,
        input: unknown,
        body: (context: RetrievalContext) => Promise<T>,
        summarize: (output: T) => unknown,
      ): Promise<T | undefined> => {
        try {
          return await run(kind, name, round, input, body, summarize);
        } catch (error) {
          if (optionalStages.has(kind) && WeftError.is(error, 'WEFT_LLM_BUDGET_EXCEEDED')) return undefined;
          throw error;
        }
      };

      let query = options.query;
      if (stack.expander) {
        const expander = stack.expander;
        const expansion = await runOptional(
          'expander',
          expander.name,
          0,
          { query },
          (context) => expander.doExpand({ query, context }),
          (output) => ({ expansion: output.expansion, triples: output.triples.length }),
        );
        if (expansion) query = expansion.query;
      }

      // Query-only work of the traversers (global searches) overlaps with planning; each handle goes
      // back to its traverser, so nothing of one retrieval is kept on a shared instance. What it
      // embeds is metered on the traverser's first-round meter.
      const prepareMeters = stack.traversers.map(() => new LlmMeter());
      const prepared = stack.traversers.map((traverser, t) => {
        if (!traverser.doPrepare) return undefined;
        const embeddingModel = stack.context.embeddingModel;
        try {
          return traverser.doPrepare({
            query,
            limit: candidateLimit,
            context: {
              ...stack.context,
              ...(embeddingModel
                ? { embeddingModel: meterEmbeddingModel(embeddingModel, [queryMeter, prepareMeters[t]!]) }
                : {}),
              ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
              warn: (message) => warnBefore(traverser.name, message),
            },
          });
        } catch {
          // Preparation is an optimisation: doTraverse does the work itself when it failed.
          return undefined;
        }
      });

      const feedback: CriticFeedback[] = [];
      let plan: Plan | undefined;
      let ranking: Candidate[] = [];
      let rounds = 0;
      for (let round = 0; round < maxRounds; round++) {
        rounds = round + 1;
        const planner = stack.planner;
        const previous = plan;
        plan = planner
          ? await run(
              'planner',
              planner.name,
              round,
              { query, feedback: feedback.length },
              (context) =>
                planner.doPlan({
                  query,
                  feedback: [...feedback],
                  ...(previous ? { previous } : {}),
                  context,
                }),
              summarizePlan,
            )
          : emptyPlan(query, stack.context.schema);
        const currentPlan = plan;

        const lists = await Promise.all(
          stack.traversers.map((traverser, t) =>
            run(
              'traverser',
              traverser.name,
              round,
              { limit: candidateLimit },
              (context) =>
                traverser.doTraverse({
                  query,
                  plan: currentPlan,
                  limit: candidateLimit,
                  context,
                  // A handle serves the first round only: a later round's plan may need other work.
                  ...(round === 0 && prepared[t] !== undefined ? { prepared: prepared[t] } : {}),
                }),
              summarizeCandidates,
              round === 0 ? prepareMeters[t] : undefined,
            ),
          ),
        );
        let candidates =
          lists.length === 1
            ? lists[0]!
            : await run(
                'fusion',
                fusion.name,
                round,
                { lists: lists.map((list) => list.length) },
                async () => fusion.fuse(lists, { limit: candidateLimit }),
                summarizeCandidates,
              );

        for (const reranker of stack.rerankers ?? []) {
          const input = candidates;
          const missing = missingScores(reranker, input);
          if (missing.length > 0)
            warnBefore(
              reranker.name,
              `reranker "${reranker.name}" reads scores ${missing.map((k) => `"${k}"`).join(', ')} that no candidate carries (traversers: ${stack.traversers.map((t) => t.name).join(', ')}); those features count as 0`,
            );
          const reranked = await runOptional(
            'reranker',
            reranker.name,
            round,
            { candidates: input.length },
            (context) =>
              reranker.doRerank({
                query,
                plan: currentPlan,
                candidates: input,
                limit: candidateLimit,
                context,
              }),
            summarizeCandidates,
          );
          if (reranked) candidates = reranked;
        }
        ranking = finalRanking(candidates, targetTypes, limit);

        if (!stack.critic || round + 1 >= maxRounds) break;
        const critic = stack.critic;
        const final = ranking;
        const verdict = await runOptional(
          'critic',
          critic.name,
          round,
          { candidates: final.length },
          (context) => critic.doCritique({ query, plan: currentPlan, candidates: final, round, context }),
          (output) => output,
        );
        if (!verdict || verdict.accept) break;
        feedback.push(...verdict.feedback);
      }

      const usage = queryMeter.snapshot();
      return {
        ranking,
        trace: {
          stack: stack.name,
          query: options.query,
          stages,
          ...(plan ? { plan } : {}),
          rounds,
          feedback,
          llmCalls: usage.calls,
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          ...(usage.embeddingCalls > 0 ? { embeddingCalls: usage.embeddingCalls } : {}),
          durationMs: performance.now() - started,
        },
      };
    },
  };
}

/** Keys a reranker reads (`requiredScores`) that no candidate carries. */
function missingScores(reranker: RerankerV1, candidates: readonly Candidate[]): string[] {
  if (!reranker.requiredScores?.length || candidates.length === 0) return [];
  return reranker.requiredScores.filter((key) => !candidates.some((c) => c.scores[key] !== undefined));
}

/**
 * Equal scores ordered by id: each run of adjacent candidates with the same score is sorted by id, so
 * that a ranking does not depend on the order an index or a store happened to return ties in (which
 * changes after an update). Candidates of different scores keep the order the stages gave them.
 */
export function breakTiesById(candidates: readonly Candidate[]): Candidate[] {
  const out = [...candidates];
  let start = 0;
  while (start < out.length) {
    let end = start + 1;
    while (end < out.length && out[end]!.score === out[start]!.score) end++;
    if (end - start > 1) {
      const run = out.slice(start, end).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      out.splice(start, run.length, ...run);
    }
    start = end;
  }
  return out;
}

/** Distinct ids, of the target types when the type is known, best first (ties by id), at most `limit`. */
function finalRanking(
  candidates: readonly Candidate[],
  targetTypes: ReadonlySet<string> | undefined,
  limit: number,
) {
  const seen = new Set<string>();
  const ranking: Candidate[] = [];
  for (const candidate of breakTiesById(candidates)) {
    if (seen.has(candidate.id)) continue;
    if (targetTypes && candidate.type !== undefined && !targetTypes.has(candidate.type)) continue;
    seen.add(candidate.id);
    ranking.push(candidate);
    if (ranking.length >= limit) break;
  }
  return ranking;
}

/** Runs a retriever: the function users call (`do*` methods are for implementations). */
export function retrieve(retriever: RetrieverV1, options: RetrieveOptions): Promise<RetrievalResult> {
  if (typeof options.query !== 'string') {
    return Promise.reject(new WeftError({ code: 'WEFT_BAD_INPUT', message: 'query must be a string' }));
  }
  return retriever.doRetrieve(options);
}

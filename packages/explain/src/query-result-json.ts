import type { RetrievalResult } from '@weft/spec';
import { type NodeLabels, traceWarnings } from './explain-retrieval.ts';

/** One ranked node as `weft query --json` and `POST /query` print it. */
export interface QueryResultRow {
  readonly rank: number;
  readonly id: string;
  readonly type: string | null;
  readonly name: string | null;
  readonly score: number;
}

/** LLM calls and tokens of one retrieval, in total and per stage that made any. */
export function llmUsage(result: RetrievalResult) {
  const { trace } = result;
  return {
    calls: trace.llmCalls,
    inputTokens: trace.inputTokens,
    outputTokens: trace.outputTokens,
    embeddingCalls: trace.embeddingCalls ?? 0,
    stages: trace.stages
      .filter((s) => (s.modelCalls ?? []).some((c) => c.kind === 'language'))
      .map((s) => ({
        stage: `${s.kind} ${s.name}`,
        round: s.round,
        calls: s.llmCalls,
        inputTokens: s.inputTokens,
        outputTokens: s.outputTokens,
        outcomes: (s.modelCalls ?? [])
          .filter((c) => c.kind === 'language')
          .map((c) => ({
            purpose: c.purpose ?? null,
            outcome: c.outcome,
            ...(c.message ? { message: c.message } : {}),
          })),
      })),
  };
}

export type LlmUsage = ReturnType<typeof llmUsage>;

export interface QueryResultJsonOptions {
  /** The query as asked. */
  readonly query: string;
  /** The stack's name as the caller asked for it (the retriever's `name`). */
  readonly stack: string;
  /** Add the plan, the trace and every result's trajectories (`--explain`). */
  readonly explain?: boolean;
}

/**
 * One retrieval as one JSON-safe object: what `weft query --json` prints and `weft serve` answers to
 * `POST /query`, built in one place so that the two never drift apart. `labels` names the results
 * (and, with `explain`, every node the plan and paths mention: fetch them for `mentionedIds`).
 */
export function queryResultJson(
  result: RetrievalResult,
  labels: NodeLabels,
  options: QueryResultJsonOptions,
) {
  const results: QueryResultRow[] = result.ranking.map((candidate, i) => ({
    rank: i + 1,
    id: candidate.id,
    type: candidate.type ?? labels.get(candidate.id)?.type ?? null,
    name: labels.get(candidate.id)?.name ?? null,
    score: candidate.score,
  }));
  const explanation = options.explain
    ? {
        plan: result.trace.plan ?? null,
        // The plan is given once, above; JSON drops the undefined key.
        trace: { ...result.trace, plan: undefined },
        trajectories: Object.fromEntries(result.ranking.map((c) => [c.id, c.trajectories])),
        labels: Object.fromEntries(labels),
      }
    : undefined;
  return {
    query: options.query,
    stack: options.stack,
    results,
    llm: llmUsage(result),
    warnings: traceWarnings(result),
    ...(explanation ? { explanation } : {}),
  };
}

export type QueryResultJson = ReturnType<typeof queryResultJson>;

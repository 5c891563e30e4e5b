import {
  callStructured,
  type ModelFailure,
  relevanceVerdictSchema,
  untrustedText,
  untrustedTextNotice,
} from '@weft/llm';
import type { Candidate, RerankerV1, RerankOptions } from '@weft/spec';
import { candidateTexts } from './candidate-texts.ts';
import { type LlmRerankerOptions, stopReasons } from './llm-reranker-options.ts';
import { byScoreThenOffline, rankedOutput } from './ranked-output.ts';

const instructions = `You judge how well one candidate from a knowledge base answers a question. Answer with one JSON object and nothing else: {"score": <0 to 10>, "reason": "<a few words>"}; 10 means it is exactly what is asked for, 0 that it is unrelated.
${untrustedTextNotice}`;

/**
 * Pointwise LLM reranking: the model scores each of the best `topK` offline candidates on its own
 * (one call each, at most `maxCalls`, default 10); the judged ones are ordered by that score, ties
 * broken by the offline score, and everything else keeps its offline order below them. Without a
 * model, with the budget spent, or when the model is unreachable, the offline ranking stands and
 * the trace says why.
 */
export class PointwiseLlmReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LlmRerankerOptions;

  constructor(options: LlmRerankerOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'llm-pointwise';
  }

  async doRerank({ query, candidates, limit, context }: RerankOptions): Promise<Candidate[]> {
    if (candidates.length === 0) return [];
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the offline ranking is kept');
      return rankedOutput(candidates, [], limit);
    }
    const head = candidates.slice(0, Math.min(this.options.topK ?? 20, this.options.maxCalls ?? 10));
    const texts = await candidateTexts(head, context, this.options.maxDocumentTokens ?? 120);
    const scores = new Map<number, number>();
    const unusable: ModelFailure[] = [];
    for (const [i, text] of texts.entries()) {
      const verdict = await callStructured({
        model: context.languageModel,
        purpose: 'judge relevance',
        instructions,
        prompt: `Question: ${untrustedText(query)}\nCandidate: ${text}\nJudgement:`,
        schema: relevanceVerdictSchema,
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxOutputTokens: 100,
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      });
      if (verdict.ok) {
        scores.set(i, verdict.value.score);
        continue;
      }
      if (stopReasons.has(verdict.failure.reason)) {
        context.warn?.(
          `judge relevance: ${verdict.failure.message}; ${scores.size > 0 ? `${scores.size} candidates judged, the rest keep the offline order` : 'the offline ranking is kept'}`,
        );
        break;
      }
      unusable.push(verdict.failure);
    }
    if (unusable.length > 0)
      context.warn?.(
        `judge relevance: ${unusable.length} answers unusable (${[...new Set(unusable.map((f) => f.message))].slice(0, 3).join('; ')}); those candidates keep their offline order below the judged ones`,
      );
    return rankedOutput(candidates, byScoreThenOffline(candidates, scores), limit, scores);
  }
}

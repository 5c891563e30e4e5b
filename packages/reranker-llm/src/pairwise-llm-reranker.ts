import { callStructured, pairwiseVerdictSchema, untrustedText, untrustedTextNotice } from '@weft/llm';
import type { Candidate, RerankerV1, RerankOptions } from '@weft/spec';
import { candidateTexts } from './candidate-texts.ts';
import { type LlmRerankerOptions, stopReasons } from './llm-reranker-options.ts';
import { rankedOutput } from './ranked-output.ts';

const instructions = `You compare two candidates from a knowledge base: which answers the question better? Answer with one JSON object and nothing else: {"better": "A" | "B" | "tie"}.
${untrustedTextNotice}`;

/**
 * Pairwise LLM reranking: adjacent candidates of the best `topK` (default 10) offline ones are
 * compared from the bottom up and swapped when the model prefers the lower one, pass after pass,
 * until a pass swaps nothing or `maxCalls` (default 10) comparisons are spent — so the best
 * candidate can rise to the top in one pass. A tie, or an answer it cannot read, keeps the
 * offline order. No model, a spent budget or an unreachable model: the offline ranking stands.
 */
export class PairwiseLlmReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LlmRerankerOptions;

  constructor(options: LlmRerankerOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'llm-pairwise';
  }

  async doRerank({ query, candidates, limit, context }: RerankOptions): Promise<Candidate[]> {
    if (candidates.length === 0) return [];
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the offline ranking is kept');
      return rankedOutput(candidates, [], limit);
    }
    const topK = Math.min(candidates.length, this.options.topK ?? 10);
    const maxCalls = this.options.maxCalls ?? 10;
    const texts = await candidateTexts(
      candidates.slice(0, topK),
      context,
      this.options.maxDocumentTokens ?? 120,
    );
    const order = [...Array(topK).keys()];
    let calls = 0;
    let unreadable = 0;
    let stopped = false;
    let swapped = true;
    while (swapped && !stopped && calls < maxCalls) {
      swapped = false;
      for (let i = topK - 2; i >= 0 && calls < maxCalls; i--) {
        const [a, b] = [order[i]!, order[i + 1]!];
        const verdict = await callStructured({
          model: context.languageModel,
          purpose: 'compare two candidates',
          instructions,
          prompt: `Question: ${untrustedText(query)}\nCandidate A: ${texts[a]}\nCandidate B: ${texts[b]}\nBetter:`,
          schema: pairwiseVerdictSchema,
          timeoutMs: this.options.timeoutMs ?? 30_000,
          maxOutputTokens: 40,
          ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
        });
        calls++;
        if (!verdict.ok) {
          if (stopReasons.has(verdict.failure.reason)) {
            context.warn?.(`compare two candidates: ${verdict.failure.message}; the order so far is kept`);
            stopped = true;
            break;
          }
          unreadable++;
          continue;
        }
        if (verdict.value.better === 'B') {
          order[i] = b;
          order[i + 1] = a;
          swapped = true;
        }
      }
    }
    if (unreadable > 0)
      context.warn?.(`compare two candidates: ${unreadable} answers unusable; those pairs kept their order`);
    return rankedOutput(candidates, order, limit);
  }
}

import { callStructured, listwiseVerdictSchema, untrustedText, untrustedTextNotice } from '@weft/llm';
import type { Candidate, RerankerV1, RerankOptions } from '@weft/spec';
import { candidateTexts } from './candidate-texts.ts';
import { type LlmRerankerOptions, stopReasons } from './llm-reranker-options.ts';
import { rankedOutput } from './ranked-output.ts';

const instructions = `You rank candidates from a knowledge base by how well they answer a question. Answer with one JSON object and nothing else: {"ranking": [<candidate numbers, best first>]}. Rank every candidate; use only the numbers shown.
${untrustedTextNotice}`;

/**
 * Listwise LLM reranking (RankGPT): the model orders the best offline candidates in one prompt. With
 * more candidates than `window` (default 20) and `maxCalls` > 1, windows slide from the bottom of
 * the `topK` up by half a window, so the best can rise to the top. Numbers the model invents or
 * repeats are dropped; candidates it leaves out follow in offline order (ties broken by the offline
 * score). No model, a spent budget or an unreachable model: the offline ranking stands.
 */
export class ListwiseLlmReranker implements RerankerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LlmRerankerOptions & { readonly window?: number };

  constructor(options: LlmRerankerOptions & { readonly window?: number } = {}) {
    this.options = options;
    this.name = options.name ?? 'llm-listwise';
  }

  async doRerank({ query, candidates, limit, context }: RerankOptions): Promise<Candidate[]> {
    if (candidates.length === 0) return [];
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the offline ranking is kept');
      return rankedOutput(candidates, [], limit);
    }
    const topK = Math.min(candidates.length, this.options.topK ?? 20);
    const window = Math.max(2, this.options.window ?? 20);
    const maxCalls = this.options.maxCalls ?? 1;
    const texts = await candidateTexts(
      candidates.slice(0, topK),
      context,
      this.options.maxDocumentTokens ?? 80,
    );
    // The current order of the top-K, as indices into `candidates`.
    const order = [...Array(topK).keys()];
    const starts: number[] = [];
    for (let end = topK; starts.length < maxCalls; end -= Math.ceil(window / 2)) {
      starts.push(Math.max(0, end - window));
      if (end - window <= 0) break;
    }
    let calls = 0;
    const dropped = new Set<string>();
    for (const start of starts) {
      const slice = order.slice(start, start + window);
      const verdict = await callStructured({
        model: context.languageModel,
        purpose: 'rank candidates',
        instructions,
        prompt: `Question: ${untrustedText(query)}\nCandidates:\n${slice.map((c, i) => `[${i + 1}] ${texts[c]}`).join('\n')}\nRanking:`,
        schema: listwiseVerdictSchema,
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxOutputTokens: 20 + 6 * slice.length,
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      });
      calls++;
      if (!verdict.ok) {
        const stop = stopReasons.has(verdict.failure.reason);
        context.warn?.(
          `rank candidates: ${verdict.failure.message}; ${stop ? 'the offline ranking is kept for what was not ranked yet' : 'this window keeps its order'}`,
        );
        if (stop) break;
        continue;
      }
      const picked: number[] = [];
      for (const n of verdict.value.ranking) {
        const index = slice[n - 1];
        if (index === undefined) dropped.add(`${n} (no such candidate)`);
        else if (picked.includes(index)) dropped.add(`${n} (repeated)`);
        else picked.push(index);
      }
      // Left out: after the ranked ones, by offline score then offline rank.
      const rest = slice
        .filter((i) => !picked.includes(i))
        .sort((a, b) => candidates[b]!.score - candidates[a]!.score || a - b);
      order.splice(start, slice.length, ...picked, ...rest);
    }
    if (dropped.size > 0) context.warn?.(`rank candidates: ignored ${[...dropped].slice(0, 5).join(', ')}`);
    return rankedOutput(candidates, calls > 0 ? order : [], limit);
  }
}

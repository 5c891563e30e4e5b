import { callStructured } from '@weft/llm';
import type { Expansion, ExpanderV1, ExpandOptions } from '@weft/spec';
import { composeExpansion } from './compose-expansion.ts';
import { gatherKnowledge, type KarKnowledge } from './gather-knowledge.ts';
import type { KarExpanderOptions } from './kar-expander.ts';
import {
  documentTriples,
  karExpansionsSchema,
  karInstructions,
  karPrompt,
  repairExpansions,
} from './kar-prompt.ts';

export interface LlmKarExpanderOptions extends KarExpanderOptions {
  /** Expansions the model writes in its one call (KAR's n, default 3). */
  readonly n?: number;
  /** Token budget of the document triples in the prompt (default 600). */
  readonly maxTripleTokens?: number;
  /** Each document in a triple is cut to this many tokens (default 60). */
  readonly maxDocumentTokens?: number;
  /** Time limit of the call (default 30 s). */
  readonly timeoutMs?: number;
  /** Default 400 tokens: three short passages. */
  readonly maxOutputTokens?: number;
  /**
   * `minRelevance` of the neighbours shown to the model as facts (default: `minRelevance`, as the
   * offline expansion). The offline expansion needs the floor because it appends what it keeps
   * blindly; a model reads the facts and names those that fit, so the `kar` stack shows it the top
   * `k` whatever they score (0). Without a model, or when the call fails, the offline expansion is
   * composed from the knowledge gathered with `minRelevance`, as `KarExpander` does.
   */
  readonly factsMinRelevance?: number;
}

/**
 * KAR with an LLM (`ExpanderV1`): the same knowledge as `KarExpander` (linked entities, neighbours
 * filtered by their documents' similarity to the question, document triples cut to a token budget),
 * and one model call that writes `n` expansions from the question and the triples; they are
 * appended to the question for the final text and vector retrieval. No model, a spent budget,
 * unreadable or empty output: the offline expansion is used, and the trace says why.
 */
export class LlmKarExpander implements ExpanderV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LlmKarExpanderOptions;

  constructor(options: LlmKarExpanderOptions = {}) {
    this.name = options.name ?? 'kar-llm';
    this.options = options;
  }

  async doExpand({ query, context }: ExpandOptions): Promise<Expansion> {
    if (query.trim() === '') return { query, expansion: '', triples: [] };
    const none: KarKnowledge = { entities: [], neighbours: [], triples: [] };
    const gather = (minRelevance: number | undefined) =>
      this.options.knowledge === 'none'
        ? Promise.resolve(none)
        : gatherKnowledge(query, context, {
            ...this.options,
            ...(minRelevance !== undefined ? { minRelevance } : {}),
          });
    const offline = async (shown?: KarKnowledge): Promise<Expansion> => {
      const factsFloor = this.options.factsMinRelevance;
      const knowledge =
        shown && (factsFloor === undefined || factsFloor === this.options.minRelevance)
          ? shown
          : await gather(this.options.minRelevance);
      const composed = composeExpansion(query, knowledge, this.options);
      return { query: composed.query, expansion: composed.expansion, triples: knowledge.triples };
    };
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the offline expansion is used');
      return offline();
    }
    const knowledge = await gather(this.options.factsMinRelevance ?? this.options.minRelevance);
    const n = this.options.n ?? 3;
    const answer = await callStructured({
      model: context.languageModel,
      purpose: 'expand query',
      instructions: karInstructions,
      prompt: karPrompt({
        query,
        n,
        triples: documentTriples(knowledge, {
          maxTokens: this.options.maxTripleTokens ?? 600,
          maxDocumentTokens: this.options.maxDocumentTokens ?? 60,
        }),
      }),
      schema: karExpansionsSchema,
      repair: repairExpansions,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      maxOutputTokens: this.options.maxOutputTokens ?? 400,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      ...(context.warn ? { warn: context.warn } : {}),
      fallback: 'the offline expansion is used',
    });
    if (!answer.ok) return offline(knowledge);
    const seen = new Set<string>();
    const expansions = answer.value.expansions
      .map((text) => text.replace(/\s+/g, ' ').trim())
      .filter((text) => text !== '' && !seen.has(text.toLowerCase()) && seen.add(text.toLowerCase()))
      .slice(0, n);
    if (expansions.length === 0) {
      context.warn?.('expand query: the model wrote no expansion; the offline expansion is used');
      return offline(knowledge);
    }
    const expansion = expansions.join(' ');
    return { query: `${query} ${expansion}`, expansion, triples: knowledge.triples };
  }
}

/** What every LLM reranker takes. */
export interface LlmRerankerOptions {
  readonly name?: string;
  /** Most model calls per `doRerank` (the stage's call budget; the stack's `llmBudget` applies too). */
  readonly maxCalls?: number;
  /** How many of the best offline candidates the model sees (default 20); the rest keep their order below. */
  readonly topK?: number;
  /** Each candidate's name and text are cut to this many tokens (estimated) in prompts. */
  readonly maxDocumentTokens?: number;
  /** Time limit of each call (default 30 s). */
  readonly timeoutMs?: number;
}

/** Failures after which no further call of this rerank is worth making. */
export const stopReasons: ReadonlySet<string> = new Set([
  'no-model',
  'budget',
  'aborted',
  'unreachable',
  'timeout',
]);

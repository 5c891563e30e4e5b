import { readOnlyCypherProblem, WeftError } from '@weft/kit';
import { callText, defaultUnsureThreshold, isLlmWhen, type LlmWhen, looksLikeRefusal } from '@weft/llm';
import type { Plan, PlannerV1, PlanOptions } from '@weft/spec';
import { type CypherExample, cypherInstructions, cypherPrompt } from './cypher-prompt.ts';
import { CypherSyntaxError } from './cypher-tokens.ts';
import { extractCypher } from './extract-cypher.ts';
import { groundCypher } from './ground-cypher.ts';
import { parseCypher } from './parse-cypher.ts';

export interface CypherPlannerOptions {
  /** The offline planner whose plan stands when the model is not asked or gives nothing usable. */
  readonly fallback: PlannerV1;
  /**
   * When to ask the model (default `always`: FocusedRetriever plans with the model). `unsure` asks
   * only when the offline plan's confidence is below `threshold` (default 0.5).
   */
  readonly when?: LlmWhen;
  readonly threshold?: number;
  /** Worked examples (question → Cypher) for the prompt. */
  readonly examples?: readonly CypherExample[];
  /** Time limit of the model call (default 30 s). */
  readonly timeoutMs?: number;
  /** Default 400 tokens: one query. */
  readonly maxOutputTokens?: number;
  readonly name?: string;
}

/**
 * FocusedRetriever's planner: the model writes one Cypher query from the schema; it is checked to be
 * read-only before anything else happens (writes and procedures are rejected and nothing runs —
 * the query is parsed, never executed), parsed into variables, triplets and constraints, and
 * grounded against the schema and the name index (`groundCypher`). The plan keeps the query text
 * (`Plan.cypher`) and feeds a constraint-grounding traverser. Bad output never breaks retrieval: the
 * offline plan is returned and the trace says why.
 */
export class CypherPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: CypherPlannerOptions;

  constructor(options: CypherPlannerOptions) {
    if (!options?.fallback || typeof options.fallback.doPlan !== 'function')
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: 'CypherPlanner needs { fallback }: the offline planner it falls back to',
      });
    if (options.when !== undefined && !isLlmWhen(options.when))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `CypherPlanner: when must be unsure, always or never, got ${JSON.stringify(options.when)}`,
      });
    this.options = options;
    this.name = options.name ?? 'cypher';
  }

  async doPlan(options: PlanOptions): Promise<Plan> {
    const { query, context } = options;
    const offline = await this.options.fallback.doPlan(options);
    const when = this.options.when ?? 'always';
    if (when === 'never' || query.trim() === '') return offline;
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the offline plan is used');
      return offline;
    }
    if (
      when === 'unsure' &&
      options.feedback.length === 0 &&
      offline.confidence >= (this.options.threshold ?? defaultUnsureThreshold)
    )
      return offline;
    const fail = (message: string) => {
      context.warn?.(`write cypher: ${message}; the offline plan is used`);
      return offline;
    };
    const answer = await callText({
      model: context.languageModel,
      purpose: 'write cypher',
      instructions: cypherInstructions,
      prompt: cypherPrompt({
        schema: context.schema,
        query,
        examples: this.options.examples ?? [],
        feedback: options.feedback,
      }),
      timeoutMs: this.options.timeoutMs ?? 30_000,
      maxOutputTokens: this.options.maxOutputTokens ?? 400,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    if (!answer.ok) return fail(answer.failure.message);
    const extracted = extractCypher(answer.text);
    // Checked first, before parsing: a writing statement is refused as such whatever else is wrong.
    // Parsed, never run: no procedure is let through.
    const write = readOnlyCypherProblem(extracted.text, { procedures: 'none' });
    if (write) return fail(`the model's query was rejected before anything ran: ${write}`);
    if (extracted.problem)
      return fail(
        looksLikeRefusal(answer.text)
          ? `the model refused: “${answer.text.trim().slice(0, 120)}”`
          : extracted.problem,
      );
    let parsed: ReturnType<typeof parseCypher>;
    try {
      parsed = parseCypher(extracted.text);
    } catch (error) {
      if (error instanceof CypherSyntaxError)
        return fail(`the model's query cannot be read (${error.message})`);
      throw error;
    }
    const grounded = await groundCypher(parsed, { query, context, offline, cypher: extracted.text });
    if (!grounded.plan)
      return fail(`${grounded.reason}${grounded.notes.length ? ` (${grounded.notes.join('; ')})` : ''}`);
    if (grounded.notes.length > 0)
      context.warn?.(`write cypher: the model's query was repaired: ${grounded.notes.join('; ')}`);
    return { ...grounded.plan, raw: answer.text };
  }
}

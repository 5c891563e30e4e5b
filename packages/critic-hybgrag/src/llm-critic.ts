import { describeAction, readBankAction } from '@weft/ego-graph';
import { callStructured, untrustedText } from '@weft/llm';
import type { CriticFeedback, CriticV1, CritiqueOptions } from '@weft/spec';
import {
  commentorInstructions,
  commentorPrompt,
  commentorSchema,
  repairCommentor,
  repairValidator,
  validatorInstructions,
  validatorPrompt,
  validatorSchema,
} from './critic-prompts.ts';
import { reasoningPaths } from './reasoning-paths.ts';
import { type HybgragVerdict, RuleCritic } from './rule-critic.ts';

export interface LlmCriticOptions {
  readonly name?: string;
  /** What judges when the model cannot (default: a `RuleCritic` with its defaults). */
  readonly fallback?: CriticV1;
  /** Top results shown to the validator (default 3). */
  readonly topK?: number;
  /** Each result's document is cut to this many tokens (default 60). */
  readonly maxDocumentTokens?: number;
  /** Time limit of each call (default 30 s). */
  readonly timeoutMs?: number;
}

/**
 * HybGRAG's critic with an LLM: a **validator** call (the question and the top results with the
 * reasoning paths from the topic entities that found them) accepts or rejects the round; on a
 * rejection a separate **commentor** call (the question, the action, the linked mentions and the
 * validator's reason) returns corrective feedback of HybGRAG's kinds. Two short contexts, as in the
 * paper. The model failing — none configured, the budget spent, unreadable output — never fails
 * the round: the rule-based critic judges instead, and the trace says why.
 */
export class LlmCritic implements CriticV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LlmCriticOptions;
  private readonly fallback: CriticV1;

  constructor(options: LlmCriticOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'hybgrag-llm';
    this.fallback = options.fallback ?? new RuleCritic();
  }

  async doCritique(options: CritiqueOptions): Promise<HybgragVerdict> {
    const { query, plan, candidates, round, context } = options;
    const action = describeAction(readBankAction(plan));
    const ruled = async () => {
      const verdict = await this.fallback.doCritique(options);
      return { ...verdict, action } as HybgragVerdict;
    };
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the rule-based verdict is used');
      return ruled();
    }
    // Nothing to validate: the rules say why without a call.
    if (candidates.length === 0) return ruled();
    const results = await reasoningPaths(candidates, context, {
      topK: this.options.topK ?? 3,
      maxDocumentTokens: this.options.maxDocumentTokens ?? 60,
    });
    const common = {
      model: context.languageModel,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      ...(context.warn ? { warn: context.warn } : {}),
    };
    const validated = await callStructured({
      ...common,
      purpose: 'validate results',
      instructions: validatorInstructions,
      prompt: validatorPrompt(query, results),
      schema: validatorSchema,
      repair: repairValidator,
      maxOutputTokens: 120,
      fallback: 'the rule-based verdict is used',
    });
    if (!validated.ok) return ruled();
    if (validated.value.accept) return { accept: true, action };
    const prefix = `round ${round} (${action})`;
    const mentions = plan.anchors
      .filter((a) => a.candidates[0])
      .map((a) => `${untrustedText(a.mention)} → ${a.candidates[0]!.id} (${a.candidates[0]!.type})`);
    const commented = await callStructured({
      ...common,
      purpose: 'comment on results',
      instructions: commentorInstructions,
      prompt: commentorPrompt({ query, action, mentions, reason: validated.value.reason, results }),
      schema: commentorSchema,
      repair: repairCommentor,
      maxOutputTokens: 300,
      fallback: 'the rule-based feedback is used',
    });
    let feedback: CriticFeedback[];
    if (commented.ok) {
      feedback = commented.value.feedback.map((f) => ({
        kind: f.kind,
        message: `${prefix}: ${f.message}`,
        ...(f.entity ? { entity: f.entity } : {}),
      }));
    } else {
      // The validator rejected; the rules may say why, else the module is what to change.
      const verdict = await ruled();
      feedback = verdict.accept
        ? [
            {
              kind: readBankAction(plan).module === 'text' ? 'wrong-module' : 'incorrect-entity',
              message: `${prefix}: the validator rejected the results (${validated.value.reason ?? 'no reason given'})`,
            },
          ]
        : [...verdict.feedback];
    }
    return { accept: false, feedback, action };
  }
}

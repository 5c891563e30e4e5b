import { WeftError } from '@weft/kit';
import type { ArtifactLoad } from '@weft/kit';
import {
  callStructured,
  defaultUnsureThreshold,
  isLlmWhen,
  type LlmWhen,
  pathPlanOutputSchema,
} from '@weft/llm';
import type { ArtifactStore, Plan, PlannerV1, PlanOptions } from '@weft/spec';
import { groundPathPlan } from './ground-path-plan.ts';
import { pathPlanInstructions, pathPlanPrompt } from './path-plan-prompt.ts';
import {
  type LlmPathPlannerModel,
  llmPathPlannerArtifact,
  type PathPlanExample,
} from './path-planner-artifact.ts';
import { repairPathPlan } from './repair-path-plan.ts';

export interface LlmPathPlannerOptions {
  /**
   * The offline planner (e.g. `SchemaPlanner`): its confidence decides whether to call the model
   * under `unsure`, its links are hints in the prompt, and its plan is what the stage returns when
   * the model is not called or gives nothing usable.
   */
  readonly fallback: PlannerV1;
  /** When to call the model (default `unsure`). */
  readonly when?: LlmWhen;
  /** The `unsure` threshold; overrides the one learned on val. */
  readonly threshold?: number;
  /**
   * The artifact `weft train` stored the learned threshold and few-shot examples under
   * (`artifactName(stack, 'planner-llm-paths')`), read from `context.artifacts`.
   */
  readonly artifact?: string;
  /** Few-shot examples to show besides (before) the artifact's. */
  readonly examples?: readonly PathPlanExample[];
  /** Most examples in a prompt (default 3). */
  readonly maxExamples?: number;
  /** Time limit of the model call (default 30 s). */
  readonly timeoutMs?: number;
  /** Default 800 tokens: a plan of three paths fits easily. */
  readonly maxOutputTokens?: number;
  readonly name?: string;
}

/**
 * MoR's LLM planner: the model writes the planning graph (target types, anchor mentions, typed
 * reasoning paths with a textual restriction per hop), which is grounded against the schema and the
 * name index (`groundPathPlan`) and handed to the same traversers as an offline plan. Cost-adaptive:
 * under `unsure` the model is called only when the offline planner's confidence is below the
 * threshold learned on val. Bad output never breaks retrieval: the stage repairs what it can and
 * otherwise returns the offline plan, with the reason in the trace (`context.warn`).
 */
export class LlmPathPlanner implements PlannerV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: LlmPathPlannerOptions;
  /** Loaded artifacts by store: one planner serves several stores, each with its own. */
  private readonly loads = new WeakMap<ArtifactStore, Promise<ArtifactLoad<LlmPathPlannerModel>>>();

  constructor(options: LlmPathPlannerOptions) {
    if (!options?.fallback || typeof options.fallback.doPlan !== 'function')
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: 'LlmPathPlanner needs { fallback }: the offline planner it falls back to',
      });
    if (options.when !== undefined && !isLlmWhen(options.when))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `LlmPathPlanner: when must be unsure, always or never, got ${JSON.stringify(options.when)}`,
      });
    this.options = options;
    this.name = options.name ?? 'llm-paths';
  }

  private async learned(
    context: PlanOptions['context'],
  ): Promise<{ model?: LlmPathPlannerModel; message?: string }> {
    if (!this.options.artifact) return {};
    const artifacts = context.artifacts;
    if (!artifacts) return { message: `no artifact store: "${this.options.artifact}" cannot be loaded` };
    let load = this.loads.get(artifacts);
    if (!load) {
      load = llmPathPlannerArtifact.load(artifacts, this.options.artifact);
      this.loads.set(artifacts, load);
      load.catch(() => this.loads.delete(artifacts));
    }
    const result = await load;
    return result.status === 'loaded' ? { model: result.value } : { message: result.message };
  }

  async doPlan(options: PlanOptions): Promise<Plan> {
    const { query, context } = options;
    const offline = await this.options.fallback.doPlan(options);
    const when = this.options.when ?? 'unsure';
    if (when === 'never' || query.trim() === '') return offline;
    if (!context.languageModel) {
      context.warn?.('no language model is configured: the offline plan is used');
      return offline;
    }
    const learned = await this.learned(context);
    if (when === 'unsure' && options.feedback.length === 0) {
      let threshold = this.options.threshold ?? learned.model?.threshold;
      if (threshold === undefined) {
        threshold = defaultUnsureThreshold;
        // Only a planner that expects a trained artifact says that it is missing.
        if (learned.message)
          context.warn?.(
            `${learned.message}; the default threshold ${defaultUnsureThreshold} decides when the model is asked`,
          );
      }
      if (offline.confidence >= threshold) return offline;
    }
    const examples = [...(this.options.examples ?? []), ...(learned.model?.examples ?? [])].slice(
      0,
      this.options.maxExamples ?? 3,
    );
    const answer = await callStructured({
      model: context.languageModel,
      purpose: 'plan paths',
      instructions: pathPlanInstructions,
      prompt: pathPlanPrompt({
        schema: context.schema,
        query,
        offline,
        examples,
        feedback: options.feedback,
      }),
      schema: pathPlanOutputSchema,
      repair: repairPathPlan,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      maxOutputTokens: this.options.maxOutputTokens ?? 800,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      ...(context.warn ? { warn: context.warn } : {}),
      fallback: 'the offline plan is used',
    });
    if (!answer.ok) return offline;
    const grounded = await groundPathPlan(answer.value, { query, context, offline });
    if (!grounded.plan) {
      context.warn?.(
        `plan paths: ${grounded.reason}${grounded.notes.length ? ` (${grounded.notes.join('; ')})` : ''}; the offline plan is used`,
      );
      return offline;
    }
    const repairs = [...answer.repairs.filter((r) => r !== 'code fence removed'), ...grounded.notes];
    if (repairs.length > 0)
      context.warn?.(`plan paths: the model's plan was repaired: ${repairs.join('; ')}`);
    return { ...grounded.plan, raw: answer.text };
  }
}

import type { ArtifactLoad } from '@weft/kit';
import { callStructured } from '@weft/llm';
import type { ArtifactStore, Plan, PlanOptions } from '@weft/spec';
import { groundRouterOutput } from './ground-router-output.ts';
import { HybgragPlanner, type HybgragPlannerOptions, type RouteDecision } from './hybgrag-planner.ts';
import { type RouterExample, routerExamplesArtifact } from './router-examples.ts';
import { repairRouterOutput, routerInstructions, routerOutputSchema, routerPrompt } from './router-prompt.ts';
import { choiceKey, type RouteRound } from './route-state.ts';

export interface LlmHybgragPlannerOptions extends HybgragPlannerOptions {
  /** Few-shot examples shown before the artifact's. */
  readonly examples?: readonly RouterExample[];
  /**
   * The artifact `weft train` stored few-shot examples from the train split under
   * (`artifactName(stack, 'planner-hybgrag')`), read from `context.artifacts`.
   */
  readonly artifact?: string;
  /** Most examples in a prompt (default 6). */
  readonly maxExamples?: number;
  /** Time limit of each call (default 30 s). */
  readonly timeoutMs?: number;
  /** Default 300 tokens: an action with a few entities. */
  readonly maxOutputTokens?: number;
}

/**
 * HybGRAG's router with an LLM: on each round but the last, one call asks the model for the module,
 * the topic entities (by the question's words) and their relations, with few-shot examples from the
 * train split and — from round 1 on — the earlier rounds' actions and the critic's feedback. The
 * answer is grounded on the schema and the graph (`groundRouterOutput`). No model, a spent budget,
 * an answer that does not parse, grounds to nothing or repeats a tried action: the offline router
 * decides instead, and the trace says why. The last round replays the best one without a call.
 */
export class LlmHybgragPlanner extends HybgragPlanner {
  protected override readonly options: LlmHybgragPlannerOptions;
  /** Loaded examples by store: one router serves several stores, each with its own. */
  private readonly loads = new WeakMap<ArtifactStore, Promise<ArtifactLoad<RouterExample[]>>>();

  constructor(options: LlmHybgragPlannerOptions) {
    super({ ...options, name: options.name ?? 'hybgrag-llm-router' });
    this.options = options;
  }

  private async examples(context: PlanOptions['context']): Promise<RouterExample[]> {
    const own = [...(this.options.examples ?? [])];
    const artifact = this.options.artifact;
    const artifacts = context.artifacts;
    if (artifact && artifacts) {
      let load = this.loads.get(artifacts);
      if (!load) {
        load = routerExamplesArtifact.load(artifacts, artifact);
        this.loads.set(artifacts, load);
        load.catch(() => this.loads.delete(artifacts));
      }
      const result = await load;
      if (result.status === 'loaded') own.push(...result.value);
      else context.warn?.(`${result.message}; the router prompts without few-shot examples from train`);
    }
    return own.slice(0, this.options.maxExamples ?? 6);
  }

  protected override async firstRoute(base: Plan, options: PlanOptions): Promise<RouteDecision> {
    return (await this.ask(base, [], new Set(), options)) ?? super.firstRoute(base, options);
  }

  protected override async refine(
    base: Plan,
    history: readonly RouteRound[],
    tried: ReadonlySet<string>,
    options: PlanOptions,
  ): Promise<RouteDecision | undefined> {
    return (await this.ask(base, history, tried, options)) ?? super.refine(base, history, tried, options);
  }

  /** One call for the round's action; undefined (with a warning) when the offline router must decide. */
  private async ask(
    base: Plan,
    history: readonly RouteRound[],
    tried: ReadonlySet<string>,
    options: PlanOptions,
  ): Promise<RouteDecision | undefined> {
    const { context, query } = options;
    const fallback = history.length === 0 ? 'the offline route is used' : 'the offline refinement is used';
    if (!context.languageModel) {
      context.warn?.(`no language model is configured: ${fallback}`);
      return undefined;
    }
    if (query.trim() === '') return undefined;
    const answer = await callStructured({
      model: context.languageModel,
      purpose: history.length === 0 ? 'route' : 'refine route',
      instructions: routerInstructions,
      prompt: routerPrompt({
        schema: context.schema,
        query,
        base,
        examples: await this.examples(context),
        history,
      }),
      schema: routerOutputSchema,
      repair: repairRouterOutput,
      timeoutMs: this.options.timeoutMs ?? 30_000,
      maxOutputTokens: this.options.maxOutputTokens ?? 300,
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      ...(context.warn ? { warn: context.warn } : {}),
      fallback,
    });
    if (!answer.ok) return undefined;
    const grounded = await groundRouterOutput(answer.value, { base, context });
    const notes = grounded.notes.length > 0 ? ` (${grounded.notes.join('; ')})` : '';
    if (!grounded.decision) {
      context.warn?.(`route: ${grounded.reason}${notes}; ${fallback}`);
      return undefined;
    }
    if (tried.has(choiceKey(grounded.decision.choice))) {
      context.warn?.(`route: the model repeated an action an earlier round tried${notes}; ${fallback}`);
      return undefined;
    }
    if (grounded.notes.length > 0) context.warn?.(`route: the model's action was repaired${notes}`);
    return { ...grounded.decision, base: grounded.base, raw: answer.text };
  }
}

/** @deprecated use `LlmHybgragPlanner`: the class is named after its package. */
export const LlmHybgragRouter = LlmHybgragPlanner;
/** @deprecated use `LlmHybgragPlanner`. */
export type LlmHybgragRouter = LlmHybgragPlanner;
/** @deprecated use `LlmHybgragPlannerOptions`. */
export type LlmHybgragRouterOptions = LlmHybgragPlannerOptions;

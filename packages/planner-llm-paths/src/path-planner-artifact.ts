import { defineArtifact } from '@weft/kit';
import type { PathPlanOutput } from '@weft/llm';

/** A worked example for the prompt: a train question and the plan that answered it. */
export interface PathPlanExample {
  readonly query: string;
  readonly plan: PathPlanOutput;
}

/** What `weft train` fits for the planner: when to call the model, and what to show it. */
export interface LlmPathPlannerModel {
  /** `unsure` calls the model below this offline confidence. */
  readonly threshold: number;
  /** Few-shot examples drawn from train queries whose offline plan found the answer. */
  readonly examples: readonly PathPlanExample[];
  /** How the threshold did on val: queries, offline failures, and what share it sends to the model. */
  readonly val: {
    readonly queries: number;
    readonly offlineFailures: number;
    readonly callRate: number;
    readonly failuresCaught: number;
  };
}

/** How the fitted model is stored; bump the version whenever `LlmPathPlannerModel` changes shape or meaning. */
export const llmPathPlannerArtifact = defineArtifact<LlmPathPlannerModel>({
  kind: 'planner-llm-paths',
  version: 1,
});

import type { Plan } from '../planner/plan.ts';
import type { RetrievalContext } from '../retrieval-context.ts';
import type { Candidate } from '../traverser/candidate.ts';

/** HybGRAG's kinds of corrective feedback. */
export type CriticFeedbackKind =
  | 'incorrect-entity'
  | 'missing-entity'
  | 'no-entity'
  | 'no-intersection'
  | 'incorrect-intersection'
  | 'wrong-module';

export interface CriticFeedback {
  readonly kind: CriticFeedbackKind;
  /** For people and for LLM prompts, e.g. `entity "Nikon" is wrong: it is a brand, not a lens`. */
  readonly message: string;
  /** The mention or node id the feedback is about, when there is one. */
  readonly entity?: string;
}

export type CriticVerdict =
  | { readonly accept: true }
  | { readonly accept: false; readonly feedback: readonly CriticFeedback[] };

export interface CritiqueOptions {
  readonly query: string;
  readonly plan: Plan;
  readonly candidates: readonly Candidate[];
  readonly round: number;
  readonly context: RetrievalContext;
}

/** Judges a round's result; rejection sends feedback back to the planner for another round. */
export interface CriticV1 {
  readonly specificationVersion: 'v1';
  readonly name: string;
  doCritique(options: CritiqueOptions): Promise<CriticVerdict>;
}

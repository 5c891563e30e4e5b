import type { ArtifactStore, RetrievalContext } from '../retrieval-context.ts';
import type { SkbQuery } from '../skb/skb.ts';

/**
 * A trained part as it is stored: its name in the store's `ArtifactStore`, the component that reads
 * it (`kind`) and the format version that reader expects. Written in a versioned envelope
 * (`defineArtifact` in `@weft/kit` gives the load and save of one kind).
 */
export interface ArtifactRefV1 {
  /** Where it is stored, e.g. `default.reranker-linear`. */
  readonly name: string;
  readonly kind: string;
  readonly version: number;
  /**
   * Names the same artifact was stored under by an older Weft: read when `name` is absent, so a
   * store trained before a rename still loads (or says "re-run weft train" when its format is stale).
   */
  readonly formerNames?: readonly string[];
}

/**
 * One query set's training material: fit on `train`, choose settings on `val`. Labelled sets are
 * written by people; synthesised ones are made from the store itself.
 */
export interface TrainingSetV1 {
  readonly name: string;
  readonly train: readonly SkbQuery[];
  readonly val: readonly SkbQuery[];
  /**
   * Queries without a relational part: they teach when the text alone should decide, and are no
   * material for learning relations.
   */
  readonly textOnly?: boolean;
  /** Made by a synthesiser from the KB itself rather than written by people. */
  readonly synthesized?: boolean;
}

/**
 * What a step learns from: labelled query sets, queries synthesised from the store, or the store
 * alone (its graph and text, no query).
 */
export type TrainingSourceV1 = 'labelled' | 'synthesized' | 'store';

export interface TrainOptionsV1 {
  /**
   * The store's retrieval context; its `artifacts` is where this run writes, and where the
   * artifacts this step reads (those of the steps trained before it) are found.
   */
  readonly context: RetrievalContext & { readonly artifacts: ArtifactStore };
  readonly sets: readonly TrainingSetV1[];
  /** One line for people. */
  readonly log?: (line: string) => void;
  readonly onProgress?: (label: string, done: number, total?: number) => void;
  readonly abortSignal?: AbortSignal;
}

export interface TrainReportV1 {
  /** One line: what was fitted and how well it did on val. */
  readonly summary: string;
  /** JSON-safe figures for `weft train --json`. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A unit of training, declared so that one trainer (`trainStacks` of `@weft/stacks`, `weft train`)
 * can order the work and fit each shared step once: what it learns from, the artifacts of other
 * steps it reads, and the artifacts it writes. A step never trains another step; it names what it
 * reads, and the trainer fits the writer first (or finds it already stored).
 */
export interface TrainingStepV1 {
  readonly specificationVersion: 'v1';
  /** Unique across the steps one trainer sees, e.g. `default`, `planner-schema`. */
  readonly id: string;
  /** One line for listings. */
  readonly description?: string;
  /**
   * What it learns from. The trainer hands `doTrain` only the sets of these sources (`labelled`:
   * sets written by people, `synthesized`: sets made from the store); `store` says that it reads
   * the store itself (its graph and text, through `context`).
   */
  readonly learnsFrom: readonly TrainingSourceV1[];
  /** Artifacts written by other steps that this step's training reads. */
  readonly reads: readonly ArtifactRefV1[];
  /** Artifacts this step writes into `TrainOptionsV1.context.artifacts`. */
  readonly writes: readonly ArtifactRefV1[];
  doTrain(options: TrainOptionsV1): Promise<TrainReportV1>;
}

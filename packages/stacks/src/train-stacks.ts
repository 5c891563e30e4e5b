import { WeftError } from '@weft/core';
import type { ArtifactStore } from '@weft/spec';
import type {
  StackEntry,
  StackRegistry,
  StackStore,
  StackTrainReport,
  TrainingSet,
} from './stack-registry.ts';

export interface TrainStacksOptions {
  readonly registry: StackRegistry;
  readonly store: StackStore;
  readonly sets: readonly TrainingSet[];
  /** Where fitted parts are written (e.g. the fresh folder of `replaceArtifacts` in `@weft/store`). */
  readonly artifacts: ArtifactStore;
  /** Stacks to train, by name (default: every registered stack that has a `train` hook). */
  readonly stacks?: readonly string[];
  readonly log?: (stack: string, line: string) => void;
  readonly onProgress?: (stack: string, label: string, done: number, total?: number) => void;
  readonly abortSignal?: AbortSignal;
}

export interface TrainStacksResult {
  readonly sets: readonly { readonly name: string; readonly train: number; readonly val: number }[];
  readonly stacks: readonly ({ readonly stack: string } & StackTrainReport)[];
}

/**
 * Fits the learned parts of stacks, one stack after the other, on the training sets' train splits
 * (settings chosen on val). Each stack writes its artifacts into `artifacts`.
 */
export async function trainStacks(options: TrainStacksOptions): Promise<TrainStacksResult> {
  const sets = options.sets.map((s) => ({ name: s.name, train: s.train.length, val: s.val.length }));
  if (options.sets.every((s) => s.train.length === 0)) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: 'no training queries: every set has an empty train split',
    });
  }
  const chosen: StackEntry[] = options.stacks
    ? options.stacks.map((name) => {
        const entry = options.registry.get(name);
        if (!entry.train)
          throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `stack "${name}" has nothing to train` });
        return entry;
      })
    : options.registry.list().filter((entry) => entry.train);
  const reports: ({ stack: string } & StackTrainReport)[] = [];
  for (const entry of chosen) {
    options.abortSignal?.throwIfAborted();
    const report = await entry.train!(options.store, {
      sets: options.sets,
      artifacts: options.artifacts,
      log: (line) => options.log?.(entry.name, line),
      onProgress: (label, done, total) => options.onProgress?.(entry.name, label, done, total),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    reports.push({ stack: entry.name, ...report });
  }
  return { sets, stacks: reports };
}

import { loadArtifact, WeftError } from '@weft/kit';
import type { ArtifactRefV1, ArtifactStore, TrainingStepV1, TrainReportV1 } from '@weft/spec';
import type { StackEntry, StackRegistry, StackStore, TrainingSet } from './stack-registry.ts';

export interface TrainStacksOptions {
  readonly registry: StackRegistry;
  readonly store: StackStore;
  readonly sets: readonly TrainingSet[];
  /** Where fitted parts are written (e.g. the fresh folder of `replaceArtifacts` in `@weft/store`). */
  readonly artifacts: ArtifactStore;
  /** Stacks to train, by name (default: every registered stack that has training steps). */
  readonly stacks?: readonly string[];
  /** One line for people, by training step. */
  readonly log?: (step: string, line: string) => void;
  readonly onProgress?: (step: string, label: string, done: number, total?: number) => void;
  readonly abortSignal?: AbortSignal;
}

export interface TrainedStep extends TrainReportV1 {
  /** The step's id. */
  readonly step: string;
  /** The trained stacks that read what it fitted (empty for a step fitted because a step read it). */
  readonly stacks: readonly string[];
}

export interface TrainStacksResult {
  readonly sets: readonly { readonly name: string; readonly train: number; readonly val: number }[];
  /** In the order they were fitted. */
  readonly steps: readonly TrainedStep[];
}

/** The steps of `entries`, once each by id; the same id for two different steps is a mistake. */
function stepsOf(entries: readonly StackEntry[]): Map<string, TrainingStepV1> {
  const steps = new Map<string, TrainingStepV1>();
  for (const entry of entries)
    for (const step of entry.training ?? []) {
      const known = steps.get(step.id);
      if (known && known !== step)
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `two different training steps have the id "${step.id}" (stack "${entry.name}")`,
        });
      steps.set(step.id, step);
    }
  return steps;
}

async function stored(artifacts: ArtifactStore, ref: ArtifactRefV1): Promise<boolean> {
  return (await loadArtifact(artifacts, ref, ref)).status === 'loaded';
}

/**
 * Fits the learned parts of stacks, on the training sets' train splits (settings chosen on val),
 * by their training steps (`TrainingStepV1`): every step of the chosen stacks is fitted once, after
 * the steps whose artifacts it reads. A step that only writes what another reads is fitted as well
 * when that artifact is not already in `artifacts` (training one stack keeps what others fitted).
 */
export async function trainStacks(options: TrainStacksOptions): Promise<TrainStacksResult> {
  const counts = options.sets.map((s) => ({ name: s.name, train: s.train.length, val: s.val.length }));
  if (options.sets.every((s) => s.train.length === 0)) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: 'no training queries: every set has an empty train split',
    });
  }
  const registered = await options.registry.entries();
  const chosen: StackEntry[] = options.stacks
    ? await Promise.all(
        options.stacks.map(async (name) => {
          const entry = await options.registry.entry(name);
          if (!entry.training?.length)
            throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `stack "${name}" has nothing to train` });
          return entry;
        }),
      )
    : registered.filter((entry) => entry.training?.length);
  const known = stepsOf([...chosen, ...registered]);
  const writers = new Map<string, TrainingStepV1>();
  for (const step of known.values()) for (const ref of step.writes) writers.set(ref.name, step);

  // Depth first from each chosen step, in registration order: what a step reads comes before it.
  const order: TrainingStepV1[] = [];
  const visiting = new Set<string>();
  const requested = stepsOf(chosen);
  const visit = async (step: TrainingStepV1, path: readonly string[]): Promise<void> => {
    if (order.includes(step)) return;
    if (visiting.has(step.id))
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `training steps read each other in a circle: ${[...path, step.id].join(' → ')}`,
      });
    visiting.add(step.id);
    for (const ref of step.reads) {
      const writer = writers.get(ref.name);
      if (!writer) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `training step "${step.id}" reads artifact "${ref.name}", which no registered step writes`,
        });
      }
      if (requested.has(writer.id) || !(await stored(options.artifacts, ref)))
        await visit(writer, [...path, step.id]);
    }
    visiting.delete(step.id);
    order.push(step);
  };
  for (const step of requested.values()) await visit(step, []);

  const context = { ...options.store.context, artifacts: options.artifacts };
  const reports: TrainedStep[] = [];
  for (const step of order) {
    options.abortSignal?.throwIfAborted();
    // A step sees the sets it learns from only: labelled ones, synthesised ones, or both.
    const sets = options.sets.filter((set) =>
      step.learnsFrom.includes(set.synthesized ? 'synthesized' : 'labelled'),
    );
    const report = await step.doTrain({
      context,
      sets,
      log: (line) => options.log?.(step.id, line),
      onProgress: (label, done, total) => options.onProgress?.(step.id, label, done, total),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    const stacks = chosen.filter((entry) => entry.training?.some((s) => s.id === step.id)).map((e) => e.name);
    reports.push({ step: step.id, stacks, ...report });
  }
  return { sets: counts, steps: reports };
}

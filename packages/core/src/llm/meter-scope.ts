import { AsyncLocalStorage } from 'node:async_hooks';
import type { LlmMeter } from './llm-meter.ts';

/**
 * The meters of the stage running in the current async context. The pipeline runs every stage
 * inside `withMeters`, so a model the stage brought itself, wrapped with `meteringMiddleware()`
 * (no explicit meters), is charged to that stage and to the query like `context.languageModel`.
 */
const stageMeters = new AsyncLocalStorage<readonly LlmMeter[]>();

/**
 * Meters a metered call is already charging. A model wrapped twice (a stage wrapping the pipeline's
 * metered model again) must charge each meter once: the inner middleware skips what the outer one
 * is counting.
 */
const chargingMeters = new AsyncLocalStorage<ReadonlySet<LlmMeter>>();

/** Runs `body` with `meters` as the active stage meters. */
export function withMeters<T>(meters: readonly LlmMeter[], body: () => T): T {
  return stageMeters.run(meters, body);
}

/** The meters of the stage running here, or none outside a pipeline stage. */
export function activeMeters(): readonly LlmMeter[] {
  return stageMeters.getStore() ?? [];
}

/** Of `meters`, those no enclosing metered call is already charging. */
export function unchargedMeters(meters: readonly LlmMeter[]): LlmMeter[] {
  const charging = chargingMeters.getStore();
  return charging ? meters.filter((meter) => !charging.has(meter)) : [...meters];
}

/** Runs a model call while `meters` count it, so nested metering skips them. */
export function whileCharging<T>(meters: readonly LlmMeter[], body: () => T): T {
  const outer = chargingMeters.getStore();
  return chargingMeters.run(new Set([...(outer ?? []), ...meters]), body);
}

import type { RetrievalContext } from '@weft/spec';
import { expect } from 'vitest';
import { type RecordingTextIndex, recordingTextIndex } from './recording-text-index.ts';

/**
 * `base` with its text index declaring `maxQueriesPerCall` (default 1) and recording every call:
 * a stage must split its query batches (`searchText` of `@weft/core` does), never send more.
 */
export function batchLimitedContext(
  base: RetrievalContext,
  maxQueriesPerCall = 1,
): { readonly context: RetrievalContext; readonly recording: RecordingTextIndex } {
  const recording = recordingTextIndex(base.text, { maxQueriesPerCall });
  return { context: { ...base, text: recording.index }, recording };
}

/** Fails, listing them, when any recorded call sent more queries than the index accepts. */
export function expectNoOversizedBatches(recording: RecordingTextIndex): void {
  const oversized = recording
    .oversized()
    .map((call) => `${call.queries.length} queries: ${JSON.stringify(call.queries)}`);
  expect(
    oversized,
    `doSearch calls with more queries than maxQueriesPerCall = ${recording.index.maxQueriesPerCall} (split them, e.g. with searchText from @weft/core)`,
  ).toEqual([]);
}

import { createStack, type StackEntry } from '@weft/stacks';
import type { RetrievalResult, RetrieverV1, RetrieveOptions } from '@weft/spec';

/** Test support (not a test): stacks whose timing a test controls. */

/** Never answers: settles only when its retrieval is aborted (timeouts, vanished clients, shutdown). */
export const stallStack: StackEntry = {
  name: 'stall',
  description: 'waits until its retrieval is aborted',
  create: (): RetrieverV1 => ({
    specificationVersion: 'v1',
    name: 'stall',
    doRetrieve: ({ abortSignal }: RetrieveOptions) =>
      new Promise<RetrievalResult>((_, reject) => {
        abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
      }),
  }),
};

/**
 * Answers like `bm25` once `released` resolves — and ignores its abort signal (a stage that does not
 * honour it), so the test sees what the server does with work it cannot stop.
 */
export function gatedStack(name: string, released: () => Promise<void>): StackEntry {
  return {
    name,
    description: 'answers like bm25 once the test releases it; ignores aborts',
    create: async (store, options) => {
      const bm25 = await createStack('bm25', store, options);
      return {
        specificationVersion: 'v1',
        name,
        async doRetrieve(options: RetrieveOptions) {
          await released();
          const { abortSignal: _ignored, ...rest } = options;
          return bm25.doRetrieve(rest);
        },
      } satisfies RetrieverV1;
    },
  };
}

/**
 * The worker thread of `LocalEmbeddingModel.fitOnWorker`: fits on the sample it is given and sends
 * the model back (the projection in shared memory, so nothing large is copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type LocalEmbedderOptions, LocalEmbeddingModel } from './local-embedding-model.ts';

const data = workerData as { sample: string[]; seen: number; options: LocalEmbedderOptions };
try {
  const model = await LocalEmbeddingModel.fitSample(data.sample, data.seen, data.options);
  parentPort!.postMessage({ ok: true, ...model.parts });
} catch (error) {
  parentPort!.postMessage({
    ok: false,
    error: error instanceof Error ? error.message : String(error),
    code: (error as { code?: string }).code,
  });
}

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LocalEmbeddingModel } from './local-embedding-model.ts';

/**
 * Worker threads that embed with a `LocalEmbeddingModel`: what ingest spends most of its time on,
 * spread over the machine's cores. Results are identical to `embedOne`. `close()` ends the threads.
 */
export class EmbeddingWorkers {
  private readonly workers: Worker[];
  private readonly pending = new Map<
    number,
    { resolve: (out: Float32Array) => void; reject: (e: unknown) => void }
  >();
  private readonly dimensions: number;
  private next = 0;
  private id = 0;

  constructor(model: LocalEmbeddingModel, threads = Math.max(1, availableParallelism())) {
    this.dimensions = model.dimensions;
    // Sources run with Node's type stripping (`.ts`), published builds as `.js`: the worker file
    // has the extension of this module.
    const file = new URL(
      import.meta.url.endsWith('.ts') ? './embed-worker.ts' : './embed-worker.js',
      import.meta.url,
    );
    this.workers = Array.from({ length: threads }, () => {
      const worker = new Worker(file, { workerData: model.workerData });
      worker.on('message', ({ id, out }: { id: number; out: Float32Array }) => {
        this.pending.get(id)?.resolve(out);
        this.pending.delete(id);
      });
      worker.on('error', (error) => {
        for (const task of this.pending.values()) task.reject(error);
        this.pending.clear();
      });
      return worker;
    });
  }

  get threads(): number {
    return this.workers.length;
  }

  /** One embedding per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    const id = this.id++;
    const worker = this.workers[this.next++ % this.workers.length]!;
    return new Promise<Float32Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    }).then((out) =>
      Array.from({ length: texts.length }, (_, i) =>
        out.subarray(i * this.dimensions, (i + 1) * this.dimensions),
      ),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

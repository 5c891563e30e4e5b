import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { WeftError } from '@weft/kit';
import {
  assertSavedModel,
  embedValues,
  localModelId,
  maxEmbeddingsPerCall,
  readSavedState,
  savedModelFiles,
} from './local-embedding-model.ts';
import { projectSparse } from './project-sparse.ts';
import { TfidfVectorizer } from './tfidf-vectorizer.ts';

/**
 * The local embedder saved in `directory` (by `LocalEmbeddingModel.save`), for embedding queries:
 * it embeds as the saved model does, to the bit, but reads nothing until its first call, and then
 * only the vocabulary. The projection (features × dimensions float32, 37 MB on WordNet) stays on
 * disk: each call reads the rows of the features its texts have, a few hundred kilobytes at most.
 * So a query that embeds nothing (bm25) costs nothing here, and one that does ~50 ms instead of
 * the 0.25–0.6 s of loading the whole model. `dimensions` is what the store recorded; a saved model
 * of another size fails the first call. That both files exist is checked now, so that a store
 * without them fails to open.
 */
export async function openLocalEmbeddingModel(
  directory: string,
  dimensions: number,
): Promise<EmbeddingModelV4> {
  await assertSavedModel(directory);
  const files = savedModelFiles(directory);
  let loading: Promise<TfidfVectorizer> | undefined;
  const vectorizer = async () => {
    const state = await readSavedState(directory);
    if (state.dimensions !== dimensions) {
      throw new WeftError({
        code: 'WEFT_EMBEDDER_MISMATCH',
        message: `the local embedder in ${directory} makes ${state.dimensions}-dimensional vectors; the store's vector index holds ${dimensions}. Rebuild the store with weft ingest`,
        details: { index: dimensions, embedder: state.dimensions },
      });
    }
    return new TfidfVectorizer(state.tfidf);
  };
  return {
    specificationVersion: 'v4',
    provider: 'local',
    modelId: localModelId(dimensions),
    maxEmbeddingsPerCall,
    supportsParallelCalls: true,
    async doEmbed(options) {
      loading ??= vectorizer();
      const tfidf = await loading;
      // Opened per call and closed before it returns: the model holds no file between queries.
      const fd = openSync(files.projection, 'r');
      try {
        const rowBytes = dimensions * 4;
        if (fstatSync(fd).size !== tfidf.size * rowBytes) {
          throw new WeftError({
            code: 'WEFT_STORE_FAILED',
            message: `local embedder in ${directory} is truncated`,
          });
        }
        return embedValues(options, dimensions, (text) => {
          const row = tfidf.transform(text);
          const rows = new Float32Array(row.indices.length * dimensions);
          const bytes = new Uint8Array(rows.buffer);
          for (let k = 0; k < row.indices.length; k++)
            readFully(fd, bytes, k * rowBytes, rowBytes, row.indices[k]! * rowBytes);
          // The rows in the row's order, so the sums are those of the whole projection.
          return projectSparse(
            { indices: Int32Array.from(row.indices.keys()), values: row.values },
            rows,
            dimensions,
          );
        });
      } finally {
        closeSync(fd);
      }
    },
  };
}

function readFully(fd: number, into: Uint8Array, offset: number, length: number, position: number): void {
  for (let done = 0; done < length; ) {
    const read = readSync(fd, into, offset + done, length - done, position + done);
    if (read === 0)
      throw new WeftError({ code: 'WEFT_STORE_FAILED', message: 'the local embedder ended early' });
    done += read;
  }
}

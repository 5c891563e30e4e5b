/**
 * A worker thread of `EmbeddingWorkers`: embeds the texts it is sent exactly as
 * `LocalEmbeddingModel.embedOne` does, reading the projection from shared memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { projectSparse } from './project-sparse.ts';
import { type TfidfState, TfidfVectorizer } from './tfidf-vectorizer.ts';

const data = workerData as { state: TfidfState; projection: SharedArrayBuffer; dimensions: number };
const vectorizer = new TfidfVectorizer(data.state);
const projection = new Float32Array(data.projection);

parentPort!.on('message', (message: { id: number; texts: string[] }) => {
  const out = new Float32Array(message.texts.length * data.dimensions);
  message.texts.forEach((text, i) => {
    out.set(projectSparse(vectorizer.transform(text), projection, data.dimensions), i * data.dimensions);
  });
  parentPort!.postMessage({ id: message.id, out }, [out.buffer]);
});

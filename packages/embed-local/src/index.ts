export { embedTexts } from './embed-texts.ts';
export { EmbeddingWorkers } from './embedding-workers.ts';
export {
  type CreateEmbeddingModelOptions,
  createEmbeddingModel,
  type EmbedderSpec,
  parseEmbedderSpec,
} from './embedder-spec.ts';
export {
  defaultLocalEmbedderOptions,
  type LocalEmbedderOptions,
  LocalEmbeddingModel,
} from './local-embedding-model.ts';
export { openLocalEmbeddingModel } from './query-embedding-model.ts';
export type { TextFeatureOptions } from './text-features.ts';
export {
  type SparseVector,
  type TfidfOptions,
  type TfidfState,
  TfidfVectorizer,
} from './tfidf-vectorizer.ts';

export {
  type AppliedChanges,
  type ApplyChangesOptions,
  applyChanges,
  type ChangeSetEffect,
  changeSetEffect,
  finishInterruptedUpdate,
  inPlaceMaxRecords,
} from './apply-changes.ts';
export { MissingBackendError } from './backend-packages.ts';
export { type BuildStoreOptions, type BuiltStore, buildStore } from './build-store.ts';
export {
  builtInGraphBackends,
  defaultGraphBackend,
  type GraphBackendChoice,
  parseGraphBackend,
  resolveGraphBackend,
} from './graph-backends.ts';
export {
  defaultIndexBackend,
  parseIndexesLocation,
  parseStorageOptions,
  recordableStorageOptions,
  resolveIndexBackend,
} from './index-backends.ts';
export { openStore, type OpenStoreOptions } from './open-store.ts';
export {
  CachedEmbedder,
  defaultRemoteEmbedding,
  type EmbeddingStats,
  type RemoteEmbeddingOptions,
  retryDelayMs,
} from './cached-embedder.ts';
export { EmbeddingCache, embeddingCacheFolder } from './embedding-cache.ts';
export {
  edgeTypeWords,
  type RelationDocumentOptions,
  RelationDocuments,
  relationLabel,
} from './relation-documents.ts';
export {
  type ArtifactFreshness,
  artifactFreshness,
  type FittedOn,
  fittedOnFileName,
  recordFittedOn,
  staleArtifactsShare,
  staleArtifactsWarning,
} from './artifact-freshness.ts';
export { artifactsDirectory, replaceArtifacts } from './replace-artifacts.ts';
export { type ArtifactInfo, directoryBytes, type StoreInfo, storeInfo } from './store-info.ts';
export { manifestFileName, readManifest } from './store-directory.ts';
export { storeVersion, versionsFolder } from './store-versions.ts';
export { type BuildIndexesOptions, buildIndexes, openIndexes } from './store-indexes.ts';
export type { IndexManifest, OpenedIndexes, OpenedStore, StoreManifest } from './store-manifest.ts';

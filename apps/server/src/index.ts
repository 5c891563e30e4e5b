export { type ApiErrorBody, type ApiErrorCode, ApiError } from './api-error.ts';
export { type ApiSchemas, apiSchemas } from './api-schemas.ts';
export {
  type ApiScope,
  ApiKeys,
  apiKeyAuth,
  apiKeyFileVariable,
  apiScopes,
  minApiKeyLength,
  requestScopes,
  requireScope,
} from './api-keys.ts';
export type { Asset, AssetSource } from './asset-source.ts';
export { type AppOptions, createApp, type ServedStore, type WeftApp } from './create-app.ts';
export { type NeighbourGroup, type NodeView, nodeView } from './node-view.ts';
export { type RequestCounts, RequestTracker } from './request-tracker.ts';
export { type ServeStoreOptions, serveStore } from './serve-store.ts';
export { defaultLimits, type ServerLimits } from './server-limits.ts';
export { shutdownOnSignals } from './shutdown-on-signals.ts';
export { StackPool } from './stack-pool.ts';
export { type ServerHandle, type StartServerOptions, startServer } from './start-server.ts';

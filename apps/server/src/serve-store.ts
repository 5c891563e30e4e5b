import { createStackRegistry, type StackCreateOptions, type StackRegistry } from '@weft/stacks/registry';
import { applyChanges, type OpenedStore, type OpenStoreOptions, staleArtifactsWarning } from '@weft/store';
import type { ApiKeys } from './api-keys.ts';
import type { AssetSource } from './asset-source.ts';
import { LiveStore } from './live-store.ts';
import type { ServerLimits } from './server-limits.ts';
import { type ServerHandle, startServer } from './start-server.ts';

export interface ServeStoreOptions {
  /** The store directory (`weft ingest --db`). */
  readonly db: string;
  readonly host?: string;
  readonly port?: number;
  readonly open?: OpenStoreOptions;
  /** How to open the store (default: `openStore` of `@weft/store`); tests hand in-memory stores. */
  readonly openStore?: (directory: string, options?: OpenStoreOptions) => Promise<OpenedStore>;
  /** Default: the built-in stacks. */
  readonly registry?: StackRegistry;
  readonly createOptions?: StackCreateOptions;
  readonly limits?: Partial<ServerLimits>;
  readonly assets?: AssetSource;
  /** API keys every request but `GET /health` must present (see `AppOptions.apiKeys`). */
  readonly apiKeys?: ApiKeys;
}

/**
 * Opens a store (the graph read-only) and serves it; the handle's `shutdown` drains the server
 * and then closes the store, after the last request that could touch it has settled. The store is
 * followed across updates (`LiveStore`): a request that arrives after `weft update` (or `POST
 * /changes`, on a server with API keys) committed a version is answered from it.
 */
export async function serveStore(options: ServeStoreOptions): Promise<ServerHandle> {
  const store = await LiveStore.open(options.db, options.open ?? {}, options.openStore);
  let handle: ServerHandle;
  try {
    handle = await startServer({
      store,
      refreshStore: () => store.refresh(),
      // Read per request, of the version being served: an update or a weft train changes it live.
      storeWarnings: async () => {
        try {
          const stale = await staleArtifactsWarning(options.db, store.manifest);
          return stale ? [stale] : [];
        } catch (error) {
          // A damaged FITTED-ON must not fail every query; it is said instead.
          return [
            `could not tell whether the trained artifacts are stale: ${error instanceof Error ? error.message : String(error)}`,
          ];
        }
      },
      applyChanges: (changes) =>
        applyChanges(
          options.db,
          changes,
          options.open?.graphBackends ? { graphBackends: options.open.graphBackends } : {},
        ),
      registry: options.registry ?? createStackRegistry(),
      ...(options.createOptions ? { createOptions: options.createOptions } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.assets ? { assets: options.assets } : {}),
      ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
      ...(options.host ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const shutdown = () => {
    closing ??= handle.shutdown().then(() => store.close());
    return closing;
  };
  return { ...handle, shutdown, closed: handle.closed.then(() => shutdown()) };
}

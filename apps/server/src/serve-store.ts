import { createStackRegistry, type StackCreateOptions, type StackRegistry } from '@weft/stacks';
import { type OpenedStore, type OpenStoreOptions, openStore } from '@weft/store';
import type { ApiKeys } from './api-keys.ts';
import type { AssetSource } from './asset-source.ts';
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
 * Opens a store once (the graph read-only) and serves it; the handle's `shutdown` drains the server
 * and then closes the store, after the last request that could touch it has settled.
 */
export async function serveStore(options: ServeStoreOptions): Promise<ServerHandle> {
  const store = await (options.openStore ?? openStore)(options.db, options.open ?? {});
  let handle: ServerHandle;
  try {
    handle = await startServer({
      store,
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

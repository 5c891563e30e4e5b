import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RetrievalContext } from '@weft/spec';
import {
  manifestFileName,
  type OpenedStore,
  type OpenStoreOptions,
  openStore,
  readManifest,
  storeVersion,
} from '@weft/store';

/**
 * A store directory served across updates (`weft update`, `POST /changes`): `refresh`, called
 * before each request, compares `store.json` with the one it opened (one `stat`), and when an
 * update has committed a new version it opens that version and answers from it from then on. The
 * version it replaces stays open for the requests still running on it and is closed at the next
 * switch (its files outlive that: an update removes only versions older than the previous one).
 */
export class LiveStore {
  readonly directory: string;
  private readonly options: OpenStoreOptions;
  private readonly open: (directory: string, options?: OpenStoreOptions) => Promise<OpenedStore>;
  private current: OpenedStore;
  private retired: OpenedStore | undefined;
  private stamp: string | undefined;
  private switching: Promise<void> | undefined;

  private constructor(
    directory: string,
    options: OpenStoreOptions,
    open: (directory: string, options?: OpenStoreOptions) => Promise<OpenedStore>,
    store: OpenedStore,
    stamp: string | undefined,
  ) {
    this.directory = directory;
    this.options = options;
    this.open = open;
    this.current = store;
    this.stamp = stamp;
  }

  static async open(
    directory: string,
    options: OpenStoreOptions = {},
    open: (directory: string, options?: OpenStoreOptions) => Promise<OpenedStore> = openStore,
  ): Promise<LiveStore> {
    const stamp = await manifestStamp(directory);
    return new LiveStore(directory, options, open, await open(directory, options), stamp);
  }

  /** The opened store of the version being served. */
  get store(): OpenedStore {
    return this.current;
  }
  get context(): RetrievalContext {
    return this.current.context;
  }
  get graph(): OpenedStore['graph'] {
    return this.current.graph;
  }
  get manifest(): OpenedStore['manifest'] {
    return this.current.manifest;
  }
  /** The store version being served (`storeVersion` of its manifest). */
  get version(): number {
    return storeVersion(this.current.manifest);
  }

  /** Switches to the committed version when it is not the one served; concurrent calls share one switch. */
  async refresh(): Promise<void> {
    if (this.switching) return this.switching;
    const stamp = await manifestStamp(this.directory);
    if (stamp === undefined || stamp === this.stamp) return;
    this.switching = (async () => {
      try {
        const manifest = await readManifest(this.directory);
        if (storeVersion(manifest) === this.version && manifest.createdAt === this.manifest.createdAt) {
          this.stamp = stamp;
          return;
        }
        const next = await this.open(this.directory, this.options);
        const old = this.retired;
        this.retired = this.current;
        this.current = next;
        this.stamp = stamp;
        await old?.close();
      } finally {
        this.switching = undefined;
      }
    })();
    return this.switching;
  }

  async close(): Promise<void> {
    await this.switching?.catch(() => undefined);
    await Promise.all([this.current.close(), this.retired?.close()]);
  }
}

/**
 * What changes when `store.json` is replaced: its inode, size and modification time. Undefined
 * where there is none (a store opened by a caller's own `open`, e.g. in memory): nothing to follow.
 */
async function manifestStamp(directory: string): Promise<string | undefined> {
  const info = await stat(join(directory, manifestFileName)).catch(() => undefined);
  return info && `${info.ino}:${info.size}:${info.mtimeMs}`;
}

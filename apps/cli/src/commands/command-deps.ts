import type { OpenedStore } from '../store/store-manifest.ts';

/** Opens a store directory (`--db`); injectable so that commands can be tested on in-memory stores. */
export type StoreOpener = (
  directory: string,
  options?: { readonly queryEmbedder?: string },
) => Promise<OpenedStore>;

export interface CommandDeps {
  readonly openStore: StoreOpener;
}

/** The real opener (Kùzu + LanceDB), loaded only when a command runs so that `--help` stays fast. */
export const openStoreFromDisk: StoreOpener = async (directory, options) => {
  const { openStore } = await import('../store/open-store.ts');
  return openStore(directory, options);
};

export const defaultDeps: CommandDeps = { openStore: openStoreFromDisk };

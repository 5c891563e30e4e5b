// The registry entry point: it lists the stacks and imports each one when a command builds it.
import { createStackRegistry, type StackRegistry } from '@weft/stacks/registry';
import type { OpenedStore, OpenStoreOptions } from '@weft/store';

/** Opens a store directory (`--db`); injectable so that commands can be tested on in-memory stores. */
export type StoreOpener = (directory: string, options?: OpenStoreOptions) => Promise<OpenedStore>;

export interface CommandDeps {
  readonly openStore: StoreOpener;
  /** The stacks commands may name (default: the built-in stacks). */
  readonly registry: StackRegistry;
}

/** The real opener (Kùzu + LanceDB), loaded only when a command runs so that `--help` stays fast. */
export const openStoreFromDisk: StoreOpener = async (directory, options) => {
  const [{ openStore }, { checkStoreFiles }] = await Promise.all([
    import('@weft/store'),
    import('../store-files.ts'),
  ]);
  await checkStoreFiles(directory);
  return openStore(directory, options);
};

export const defaultDeps: CommandDeps = { openStore: openStoreFromDisk, registry: createStackRegistry() };

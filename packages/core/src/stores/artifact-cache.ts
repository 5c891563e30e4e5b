import type { ArtifactStore, RetrievalContext } from '@weft/spec';
import { type ArtifactLoad, loadArtifact } from './artifacts.ts';

type Loader<T> = (artifacts: ArtifactStore | undefined, name: string) => Promise<ArtifactLoad<T>>;

/**
 * A trained part as a stage reads it: loaded once per artifact store (one stage instance may serve
 * several stores at once, so nothing is cached on the instance itself), and anything but a loaded
 * artifact reported through `context.warn` on every query that falls back — never silence.
 */
export class ArtifactCache<T> {
  private readonly loads = new WeakMap<ArtifactStore, Promise<ArtifactLoad<T>>>();
  private readonly loader: Loader<T>;

  /** `expected`: the kind and version `loadArtifact` checks, or a loader with checks of its own. */
  constructor(expected: { readonly kind: string; readonly version: number } | Loader<T>) {
    this.loader =
      typeof expected === 'function'
        ? expected
        : (artifacts, name) => loadArtifact<T>(artifacts, name, expected);
  }

  /** The artifact `name` of the context's store, or undefined after a warning. */
  async get(context: RetrievalContext, name: string): Promise<T | undefined> {
    const load = await this.load(context.artifacts, name);
    if (load.status === 'loaded') return load.value;
    context.warn?.(load.message);
    return undefined;
  }

  private load(artifacts: ArtifactStore | undefined, name: string): Promise<ArtifactLoad<T>> {
    if (!artifacts) return this.loader(undefined, name);
    let load = this.loads.get(artifacts);
    if (!load) {
      load = this.loader(artifacts, name);
      this.loads.set(artifacts, load);
      // A failed read (I/O) is tried again next time rather than remembered.
      load.catch(() => this.loads.delete(artifacts));
    }
    return load;
  }
}

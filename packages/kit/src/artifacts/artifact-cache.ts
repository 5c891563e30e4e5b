import type { ArtifactRefV1, ArtifactStore, RetrievalContext } from '@weft/spec';
import type { ArtifactDefinition, ArtifactLoad } from './artifacts.ts';

type Artifact = string | ArtifactRefV1;

/**
 * A trained part as a stage reads it: loaded once per artifact store (one stage instance may serve
 * several stores at once, so nothing is cached on the instance itself), and anything but a loaded
 * artifact reported through `context.warn` on every query that falls back — never silence.
 */
export class ArtifactCache<T> {
  private readonly loads = new WeakMap<ArtifactStore, Promise<ArtifactLoad<T>>>();

  private readonly definition: Pick<ArtifactDefinition<T>, 'load'>;

  /** `definition`: the kind of trained part (`defineArtifact`), whose `load` checks what it reads. */
  constructor(definition: Pick<ArtifactDefinition<T>, 'load'>) {
    this.definition = definition;
  }

  /** The artifact `name` of the context's store, or undefined after a warning. */
  async get(context: RetrievalContext, name: Artifact): Promise<T | undefined> {
    const load = await this.load(context.artifacts, name);
    if (load.status === 'loaded') return load.value;
    context.warn?.(load.message);
    return undefined;
  }

  private load(artifacts: ArtifactStore | undefined, name: Artifact): Promise<ArtifactLoad<T>> {
    if (!artifacts) return this.definition.load(undefined, name);
    let load = this.loads.get(artifacts);
    if (!load) {
      load = this.definition.load(artifacts, name);
      this.loads.set(artifacts, load);
      // A failed read (I/O) is tried again next time rather than remembered.
      load.catch(() => this.loads.delete(artifacts));
    }
    return load;
  }
}

import type { ArtifactStore } from '@weft/spec';

/** An artifact store in memory, for tests: `stored` holds what was put, `reads` counts the gets. */
export interface MemoryArtifactStore extends ArtifactStore {
  readonly stored: Map<string, unknown>;
  reads: number;
}

export function memoryArtifacts(): MemoryArtifactStore {
  const stored = new Map<string, unknown>();
  const store: MemoryArtifactStore = {
    stored,
    reads: 0,
    async get<T>(name: string) {
      store.reads++;
      return stored.get(name) as T | undefined;
    },
    async put(name: string, value: unknown) {
      stored.set(name, value);
    },
  };
  return store;
}

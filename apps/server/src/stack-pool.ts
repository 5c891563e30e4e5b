import type { RetrieverV1 } from '@weft/spec';
import type { StackCreateOptions, StackRegistry, StackStore } from '@weft/stacks';

/**
 * One retriever per stack name, built on first use and shared by every request after. This holds
 * because a stack keeps nothing of one retrieval on its instances (stage state is per call: prepare
 * handles, the trace): the conformance suites check it per stage, and the server's load test checks
 * it end to end — concurrent answers equal the serial ones. A failed build is not cached, so a
 * transient error (a missing artifact fixed by `weft train`) is retried by the next request.
 */
export class StackPool {
  private readonly registry: StackRegistry;
  private readonly store: StackStore;
  private readonly options: StackCreateOptions;
  private readonly built = new Map<string, Promise<RetrieverV1>>();
  private context: StackStore['context'] | undefined;

  constructor(registry: StackRegistry, store: StackStore, options: StackCreateOptions = {}) {
    this.registry = registry;
    this.store = store;
    this.options = options;
  }

  has(name: string): boolean {
    return this.registry.has(name);
  }

  get(name: string): Promise<RetrieverV1> {
    // A store that switched to a new version (weft update) has a new context: stacks are built again over it.
    if (this.store.context !== this.context) {
      this.built.clear();
      this.context = this.store.context;
    }
    let retriever = this.built.get(name);
    if (!retriever) {
      retriever = this.registry.create(name, this.store, this.options);
      this.built.set(name, retriever);
      retriever.catch(() => this.built.delete(name));
    }
    return retriever;
  }
}

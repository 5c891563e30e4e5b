import type {
  GraphCypherOptions,
  GraphLookupOptions,
  GraphNeighbor,
  GraphNeighborsOptions,
  IndexHit,
  NameMatch,
  TextIndexV1,
  TextSearchOptions,
  VectorIndexV1,
  VectorSearchOptions,
} from '@weft/spec';
import { InMemoryGraphStore, type InMemorySkb } from './in-memory-graph-store.ts';
import type { MockBehaviour } from './mocks.ts';

async function answer<Options, Result>(
  behaviour: MockBehaviour<Options, Result>,
  options: Options,
  call: number,
) {
  if (typeof behaviour === 'function')
    return (behaviour as (o: Options) => Result | Promise<Result>)(options);
  if (Array.isArray(behaviour)) return behaviour[Math.min(call, behaviour.length - 1)] as Result;
  return behaviour as Result;
}

/**
 * A graph store over a small SKB (the reference store) that records every call; any method can be
 * overridden with a behaviour.
 */
export class MockGraphStore extends InMemoryGraphStore {
  override readonly provider: string = 'mock';
  readonly doNeighborsCalls: GraphNeighborsOptions[] = [];
  readonly doLookupCalls: { names: readonly string[]; options?: GraphLookupOptions }[] = [];
  readonly doGetNodesCalls: (readonly string[])[] = [];
  readonly doCypherCalls: { query: string; options?: GraphCypherOptions }[] = [];
  private readonly overrides: {
    doNeighbors?: MockBehaviour<GraphNeighborsOptions, GraphNeighbor[]>;
    doLookup?: MockBehaviour<readonly string[], NameMatch[][]>;
  };

  constructor(skb: InMemorySkb, overrides: MockGraphStore['overrides'] = {}) {
    super(skb);
    this.overrides = overrides;
  }

  override async doNeighbors(options: GraphNeighborsOptions): Promise<GraphNeighbor[]> {
    this.doNeighborsCalls.push(options);
    return this.overrides.doNeighbors
      ? answer(this.overrides.doNeighbors, options, this.doNeighborsCalls.length - 1)
      : super.doNeighbors(options);
  }

  override async doLookup(names: readonly string[], options?: GraphLookupOptions): Promise<NameMatch[][]> {
    this.doLookupCalls.push({ names, ...(options ? { options } : {}) });
    return this.overrides.doLookup
      ? answer(this.overrides.doLookup, names, this.doLookupCalls.length - 1)
      : super.doLookup(names, options);
  }

  override async doGetNodes(ids: readonly string[]) {
    this.doGetNodesCalls.push(ids);
    return super.doGetNodes(ids);
  }

  override async doCypher(query: string, options?: GraphCypherOptions) {
    this.doCypherCalls.push({ query, ...(options ? { options } : {}) });
    return super.doCypher(query, options);
  }
}

export class MockTextIndex implements TextIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'mock';
  readonly maxQueriesPerCall: number;
  readonly doSearchCalls: TextSearchOptions[] = [];
  private readonly behaviour: MockBehaviour<TextSearchOptions, IndexHit[][]>;

  constructor(options: {
    doSearch: MockBehaviour<TextSearchOptions, IndexHit[][]>;
    maxQueriesPerCall?: number;
  }) {
    this.behaviour = options.doSearch;
    this.maxQueriesPerCall = options.maxQueriesPerCall ?? 64;
  }

  async doSearch(options: TextSearchOptions): Promise<IndexHit[][]> {
    this.doSearchCalls.push(options);
    return answer(this.behaviour, options, this.doSearchCalls.length - 1);
  }

  async close(): Promise<void> {}
}

export class MockVectorIndex implements VectorIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'mock';
  readonly dimensions: number;
  readonly embedderId: string;
  readonly maxQueriesPerCall: number;
  readonly doSearchCalls: VectorSearchOptions[] = [];
  private readonly behaviour: MockBehaviour<VectorSearchOptions, IndexHit[][]>;

  constructor(options: {
    doSearch: MockBehaviour<VectorSearchOptions, IndexHit[][]>;
    dimensions: number;
    embedderId: string;
    maxQueriesPerCall?: number;
  }) {
    this.behaviour = options.doSearch;
    this.dimensions = options.dimensions;
    this.embedderId = options.embedderId;
    this.maxQueriesPerCall = options.maxQueriesPerCall ?? 64;
  }

  async doSearch(options: VectorSearchOptions): Promise<IndexHit[][]> {
    this.doSearchCalls.push(options);
    return answer(this.behaviour, options, this.doSearchCalls.length - 1);
  }

  async close(): Promise<void> {}
}

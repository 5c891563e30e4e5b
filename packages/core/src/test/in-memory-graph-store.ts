import type {
  CypherResult,
  GraphCypherOptions,
  GraphLookupOptions,
  GraphNeighbor,
  GraphNeighborsOptions,
  GraphSampleOptions,
  GraphStats,
  GraphStoreV1,
  NameMatch,
  SkbEdge,
  SkbNode,
  SkbSchema,
} from '@weft/spec';
import { stableSample, trigramSimilarity, WeftError } from '@weft/kit';

export interface InMemorySkb {
  readonly schema: SkbSchema;
  readonly nodes: readonly SkbNode[];
  readonly edges: readonly SkbEdge[];
}

// Re-exported for `@weft/core/test` users: the one implementation lives with the shared utilities.
export { trigramSimilarity };

/**
 * The reference graph store: everything in maps, every operation by plain iteration. Small and
 * obviously correct, so the conformance suite can be checked against it. Not for large graphs.
 */
export class InMemoryGraphStore implements GraphStoreV1 {
  readonly specificationVersion = 'v1';
  readonly provider: string = 'memory';
  readonly supportsCypher: boolean = false;
  private readonly schema: SkbSchema;
  private readonly nodes = new Map<string, SkbNode>();
  private readonly out = new Map<string, SkbEdge[]>();
  private readonly in = new Map<string, SkbEdge[]>();
  private closed = false;

  constructor(skb: InMemorySkb) {
    this.schema = skb.schema;
    for (const node of skb.nodes) this.nodes.set(node.id, node);
    for (const edge of skb.edges) {
      if (!this.nodes.has(edge.src) || !this.nodes.has(edge.dst)) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `edge ${edge.src} -${edge.type}-> ${edge.dst} has a dangling endpoint`,
        });
      }
      (this.out.get(edge.src) ?? this.out.set(edge.src, []).get(edge.src)!).push(edge);
      (this.in.get(edge.dst) ?? this.in.set(edge.dst, []).get(edge.dst)!).push(edge);
    }
  }

  private check(): void {
    if (this.closed) throw new WeftError({ code: 'WEFT_STORE_FAILED', message: 'store is closed' });
  }

  async doGetSchema(): Promise<SkbSchema> {
    this.check();
    return this.schema;
  }

  async doGetNodes(ids: readonly string[]): Promise<(SkbNode | undefined)[]> {
    this.check();
    return ids.map((id) => this.nodes.get(id));
  }

  async doNeighbors(options: GraphNeighborsOptions): Promise<GraphNeighbor[]> {
    this.check();
    const edgeTypes = options.edgeTypes ? new Set(options.edgeTypes) : undefined;
    const nodeTypes = options.nodeTypes ? new Set(options.nodeTypes) : undefined;
    const result: GraphNeighbor[] = [];
    for (const seed of new Set(options.seeds)) {
      const found: GraphNeighbor[] = [];
      const follow = (edges: readonly SkbEdge[] | undefined, direction: 'out' | 'in') => {
        for (const edge of edges ?? []) {
          if (edgeTypes && !edgeTypes.has(edge.type)) continue;
          const node = this.nodes.get(direction === 'out' ? edge.dst : edge.src)!;
          if (nodeTypes && !nodeTypes.has(node.type)) continue;
          found.push({ seed, node: node.id, nodeType: node.type, edgeType: edge.type, direction });
        }
      };
      if (options.direction !== 'in') follow(this.out.get(seed), 'out');
      if (options.direction !== 'out') follow(this.in.get(seed), 'in');
      found.sort(
        (a, b) =>
          compare(a.node, b.node) || compare(a.edgeType, b.edgeType) || compare(a.direction, b.direction),
      );
      result.push(...(options.limitPerSeed === undefined ? found : found.slice(0, options.limitPerSeed)));
    }
    return result;
  }

  async doLookup(names: readonly string[], options: GraphLookupOptions = {}): Promise<NameMatch[][]> {
    this.check();
    const limit = options.limit ?? 10;
    const types = options.nodeTypes ? new Set(options.nodeTypes) : undefined;
    const candidates = [...this.nodes.values()].filter((node) => !types || types.has(node.type));
    return names.map((name) => {
      const lower = name.toLowerCase();
      const matches: NameMatch[] = [];
      for (const node of candidates) {
        const base = { id: node.id, type: node.type, name: node.name };
        if (node.name === name) matches.push({ ...base, match: 'exact', score: 1, matched: node.name });
        else if (node.aliases?.includes(name))
          matches.push({ ...base, match: 'alias', score: 0.95, matched: name });
        else {
          const hit = [node.name, ...(node.aliases ?? [])].find((label) => label.toLowerCase() === lower);
          if (hit !== undefined)
            matches.push({ ...base, match: 'case-insensitive', score: 0.9, matched: hit });
        }
      }
      if (matches.length === 0 && options.fuzzy !== false && name.trim().length > 0) {
        for (const node of candidates) {
          let best = { label: node.name, similarity: 0 };
          for (const label of [node.name, ...(node.aliases ?? [])]) {
            const similarity = trigramSimilarity(name, label);
            if (similarity > best.similarity) best = { label, similarity };
          }
          if (best.similarity >= 0.5) {
            matches.push({
              id: node.id,
              type: node.type,
              name: node.name,
              match: 'fuzzy',
              score: 0.8 * best.similarity,
              matched: best.label,
            });
          }
        }
      }
      matches.sort((a, b) => b.score - a.score || compare(a.id, b.id));
      return matches.slice(0, limit);
    });
  }

  async doCypher(_query: string, _options?: GraphCypherOptions): Promise<CypherResult> {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: 'the in-memory graph store does not run Cypher',
    });
  }

  async doSampleNodes(options: GraphSampleOptions): Promise<string[]> {
    this.check();
    const types = options.nodeTypes ? new Set(options.nodeTypes) : undefined;
    const ids = [...this.nodes.values()].filter((n) => !types || types.has(n.type)).map((n) => n.id);
    return stableSample(ids, options.count, options.seed);
  }

  async doStats(): Promise<GraphStats> {
    this.check();
    const nodesByType: Record<string, number> = {};
    const edgesByType: Record<string, number> = {};
    for (const node of this.nodes.values()) nodesByType[node.type] = (nodesByType[node.type] ?? 0) + 1;
    const degrees: number[] = [];
    let edges = 0;
    for (const id of this.nodes.keys()) {
      degrees.push((this.out.get(id)?.length ?? 0) + (this.in.get(id)?.length ?? 0));
      for (const edge of this.out.get(id) ?? []) {
        edges++;
        edgesByType[edge.type] = (edgesByType[edge.type] ?? 0) + 1;
      }
    }
    degrees.sort((a, b) => a - b);
    const at = (q: number) => degrees[Math.min(degrees.length - 1, Math.floor(q * degrees.length))] ?? 0;
    const mean = degrees.length ? degrees.reduce((s, d) => s + d, 0) / degrees.length : 0;
    return {
      nodes: this.nodes.size,
      edges,
      nodesByType,
      edgesByType,
      degree: { mean, max: at(1), p50: at(0.5), p95: at(0.95) },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

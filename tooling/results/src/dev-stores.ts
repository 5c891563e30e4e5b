import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type {
  CypherResult,
  GraphLookupOptions,
  GraphNeighbor,
  GraphNeighborsOptions,
  GraphStats,
  GraphStoreV1,
  IndexHit,
  NameMatch,
  RetrievalContext,
  SkbEdge,
  SkbNode,
  SkbQuery,
  SkbSchema,
  TextIndexV1,
  TextSearchOptions,
} from '@weft/spec';

/**
 * Development stand-ins for the real stores: hash maps and an inverted BM25 index, fast enough to
 * iterate on the offline stack over the WordNet bundle before (or without) Kùzu and LanceDB.
 * Same semantics as the reference stores of `@weft/core/test` (scores, match kinds), not used by
 * any shipped code path.
 */

function readJsonl<T>(file: string): T[] {
  const candidates = [file, `${file}.gz`];
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) return [];
  let text = fs.readFileSync(found);
  if (found.endsWith('.gz')) text = zlib.gunzipSync(text);
  return text
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

export interface DevBundle {
  readonly schema: SkbSchema;
  readonly nodes: SkbNode[];
  readonly edges: SkbEdge[];
  queries(set: string): SkbQuery[];
}

export function loadBundle(dir: string): DevBundle {
  const schema = JSON.parse(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8')) as SkbSchema;
  return {
    schema,
    nodes: readJsonl<SkbNode>(path.join(dir, 'nodes.jsonl')),
    edges: readJsonl<SkbEdge>(path.join(dir, 'edges.jsonl')),
    queries: (set) => readJsonl<SkbQuery>(path.join(dir, 'queries', `${set}.jsonl`)),
  };
}

function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export class DevGraphStore implements GraphStoreV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'dev-memory';
  readonly supportsCypher = false;
  private readonly nodes = new Map<string, SkbNode>();
  private readonly out = new Map<string, SkbEdge[]>();
  private readonly in = new Map<string, SkbEdge[]>();
  private readonly byLower = new Map<string, SkbNode[]>();

  private readonly bundle: DevBundle;

  constructor(bundle: DevBundle) {
    this.bundle = bundle;
    for (const node of bundle.nodes) {
      this.nodes.set(node.id, node);
      for (const label of new Set([node.name, ...(node.aliases ?? [])].map((l) => l.toLowerCase()))) {
        (this.byLower.get(label) ?? this.byLower.set(label, []).get(label)!).push(node);
      }
    }
    for (const edge of bundle.edges) {
      (this.out.get(edge.src) ?? this.out.set(edge.src, []).get(edge.src)!).push(edge);
      (this.in.get(edge.dst) ?? this.in.set(edge.dst, []).get(edge.dst)!).push(edge);
    }
  }

  async doGetSchema(): Promise<SkbSchema> {
    return this.bundle.schema;
  }
  async doGetNodes(ids: readonly string[]): Promise<(SkbNode | undefined)[]> {
    return ids.map((id) => this.nodes.get(id));
  }
  async doNeighbors(options: GraphNeighborsOptions): Promise<GraphNeighbor[]> {
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
      result.push(...(options.limitPerSeed === undefined ? found : found.slice(0, options.limitPerSeed)));
    }
    return result;
  }
  async doLookup(names: readonly string[], options: GraphLookupOptions = {}): Promise<NameMatch[][]> {
    const limit = options.limit ?? 10;
    const types = options.nodeTypes ? new Set(options.nodeTypes) : undefined;
    return names.map((name) => {
      const matches: NameMatch[] = [];
      for (const node of this.byLower.get(name.toLowerCase()) ?? []) {
        if (types && !types.has(node.type)) continue;
        const base = { id: node.id, type: node.type, name: node.name };
        if (node.name === name) matches.push({ ...base, match: 'exact', score: 1, matched: node.name });
        else if (node.aliases?.includes(name))
          matches.push({ ...base, match: 'alias', score: 0.95, matched: name });
        else {
          const hit = [node.name, ...(node.aliases ?? [])].find(
            (l) => l.toLowerCase() === name.toLowerCase(),
          )!;
          matches.push({ ...base, match: 'case-insensitive', score: 0.9, matched: hit });
        }
      }
      matches.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      return matches.slice(0, limit);
    });
  }
  async doCypher(): Promise<CypherResult> {
    throw new Error('unsupported');
  }
  async doStats(): Promise<GraphStats> {
    throw new Error('unsupported');
  }
  async close(): Promise<void> {}
}

export class DevTextIndex implements TextIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'dev-memory';
  readonly maxQueriesPerCall = 64;
  private readonly ids: string[] = [];
  private readonly types: string[] = [];
  private readonly lengths: number[] = [];
  private readonly termFreqs: Map<string, number>[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly position = new Map<string, number>();
  private readonly averageLength: number;

  constructor(nodes: readonly SkbNode[]) {
    let total = 0;
    nodes.forEach((node, i) => {
      const tokens = tokenize([node.name, ...(node.aliases ?? []), node.text].join(' '));
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) (this.postings.get(t) ?? this.postings.set(t, []).get(t)!).push(i);
      this.ids.push(node.id);
      this.types.push(node.type);
      this.lengths.push(tokens.length);
      this.termFreqs.push(tf);
      this.position.set(node.id, i);
      total += tokens.length;
    });
    this.averageLength = nodes.length ? total / nodes.length : 0;
  }

  async doSearch(options: TextSearchOptions): Promise<IndexHit[][]> {
    const types = options.filter?.nodeTypes ? new Set(options.filter.nodeTypes) : undefined;
    const idSet = options.filter?.ids
      ? new Set(options.filter.ids.map((id) => this.position.get(id)).filter((i) => i !== undefined))
      : undefined;
    const n = this.ids.length;
    return options.queries.map((query) => {
      const terms = [...new Set(tokenize(query))];
      const scores = new Map<number, number>();
      for (const term of terms) {
        const posting = this.postings.get(term);
        if (!posting) continue;
        const idf = Math.log(1 + (n - posting.length + 0.5) / (posting.length + 0.5));
        const docs =
          idSet && idSet.size < posting.length
            ? [...idSet].filter((d) => this.termFreqs[d]!.has(term))
            : posting;
        for (const d of docs) {
          if (idSet && !idSet.has(d)) continue;
          if (types && !types.has(this.types[d]!)) continue;
          const tf = this.termFreqs[d]!.get(term)!;
          const s = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.lengths[d]!) / this.averageLength));
          scores.set(d, (scores.get(d) ?? 0) + s);
        }
      }
      const hits = [...scores].map(([d, score]) => ({ id: this.ids[d]!, score }));
      hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      return hits.slice(0, options.limit);
    });
  }
  async close(): Promise<void> {}
}

/** A retrieval context over dev stores, with artifacts kept in memory. */
export function devContext(bundle: DevBundle): RetrievalContext {
  const artifacts = new Map<string, unknown>();
  return {
    schema: bundle.schema,
    graph: new DevGraphStore(bundle),
    text: new DevTextIndex(bundle.nodes),
    artifacts: {
      async get<T>(name: string) {
        return artifacts.get(name) as T | undefined;
      },
      async put(name: string, value: unknown) {
        artifacts.set(name, value);
      },
    },
  };
}

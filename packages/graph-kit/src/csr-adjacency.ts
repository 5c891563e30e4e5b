import { stableSample } from '@weft/kit';
import type { EdgeDirection, GraphNeighbor, GraphNeighborsOptions, GraphSampleOptions } from '@weft/spec';
import type { PackedStringTable } from './packed-strings.ts';

/** Reads one statement's rows one at a time, so a huge result never becomes one JS array. */
export type RowReader = (
  statement: string,
  params: Record<string, number>,
  onRow: (row: Record<string, unknown>) => void,
) => Promise<void>;

/**
 * The two scans that load an adjacency: `nodes` returns rows of `type`, `offsets` (dense node
 * indexes, 0…n−1) and `ids`, grouped by type; `edges` takes `$size` (n) and returns rows of `type` and
 * `packed` (`src · size + dst`, offsets). The defaults are the Cypher of Kùzu-API engines.
 */
export interface AdjacencyStatements {
  readonly nodes: string;
  readonly edges: string;
}

export const cypherAdjacencyStatements: AdjacencyStatements = {
  nodes: 'MATCH (n:Node) RETURN n.type AS type, collect(offset(id(n))) AS offsets, collect(n.id) AS ids',
  edges:
    'MATCH (a:Node)-[e:Edge]->(b:Node) RETURN e.type AS type, collect(offset(id(a)) * $size + offset(id(b))) AS packed',
};

export interface CsrNeighborsOptions {
  readonly seeds: readonly number[];
  /** Allowed edge type codes; absent = every type. */
  readonly edgeTypes?: ReadonlySet<number>;
  /** Allowed node type codes of the neighbour; absent = every type. */
  readonly nodeTypes?: ReadonlySet<number>;
  readonly directions: readonly EdgeDirection[];
  readonly limitPerSeed?: number;
}

export type SmallIntArray = Uint8Array | Uint16Array;

/** Everything a `CsrAdjacency` holds, as plain arrays: what `csr-adjacency-file.ts` writes and reads. */
export interface CsrAdjacencyParts {
  readonly ids: (string | undefined)[];
  readonly nodeType: SmallIntArray;
  readonly nodeTypeNames: readonly string[];
  readonly edgeTypeNames: readonly string[];
  readonly out: [Uint32Array, Uint32Array, SmallIntArray];
  readonly in: [Uint32Array, Uint32Array, SmallIntArray];
}

function smallIntArray(length: number, distinct: number): SmallIntArray {
  return distinct <= 256 ? new Uint8Array(length) : new Uint16Array(length);
}

/**
 * The node id of each offset and the offset of each id. Built from an engine scan, it is an array
 * and a `Map`; read from a file, it is the file's packed ids and their hash table (see
 * `csr-adjacency-file.ts`): no per-node object is made at load, an id is decoded when it is read.
 */
interface NodeIds {
  /** Offsets holding an id. */
  readonly count: number;
  idAt(offset: number): string | undefined;
  offsetOf(id: string): number | undefined;
  toArray(): (string | undefined)[];
}

class ArrayNodeIds implements NodeIds {
  readonly count: number;
  private readonly ids: (string | undefined)[];
  private readonly offsets: Map<string, number>;
  constructor(ids: (string | undefined)[], offsets: Map<string, number>) {
    this.ids = ids;
    this.offsets = offsets;
    this.count = offsets.size;
  }
  idAt(offset: number): string | undefined {
    return this.ids[offset];
  }
  offsetOf(id: string): number | undefined {
    return this.offsets.get(id);
  }
  toArray(): (string | undefined)[] {
    return this.ids;
  }
}

/** Ids from a file: offsets left unused are empty strings, which the table leaves out. */
class PackedNodeIds implements NodeIds {
  readonly count: number;
  private readonly table: PackedStringTable;
  constructor(table: PackedStringTable, count: number) {
    this.table = table;
    this.count = count;
  }
  idAt(offset: number): string | undefined {
    const strings = this.table.strings;
    return offset < strings.length && !strings.isEmpty(offset) ? strings.get(offset) : undefined;
  }
  offsetOf(id: string): number | undefined {
    if (id === '') return undefined;
    const offset = this.table.find(id);
    return offset < 0 ? undefined : offset;
  }
  toArray(): (string | undefined)[] {
    return Array.from({ length: this.table.length }, (_, offset) => this.idAt(offset));
  }
}

/** Interns strings as small integers (node types, edge types). */
class Codes {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  code(name: string): number {
    let code = this.index.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.index.set(name, code);
    }
    return code;
  }
  get(name: string): number | undefined {
    return this.index.get(name);
  }
}

/**
 * The graph's structure in compressed sparse row form, indexed by Kùzu's own node offsets (dense
 * for the single `Node` table): `outStart[i]..outStart[i+1]` delimit node i's outgoing edges in
 * `outTarget` / `outType`, likewise for incoming edges. About 10 bytes per edge plus ~60 per node
 * (the id strings dominate that) — see the README for measured figures.
 */
export class CsrAdjacency {
  private readonly ids: NodeIds;
  readonly nodeType: SmallIntArray;
  readonly outStart: Uint32Array;
  readonly outTarget: Uint32Array;
  readonly outType: SmallIntArray;
  readonly inStart: Uint32Array;
  readonly inTarget: Uint32Array;
  readonly inType: SmallIntArray;
  private readonly nodeTypes: Codes;
  private readonly edgeTypes: Codes;

  private constructor(parts: {
    ids: NodeIds;
    nodeType: SmallIntArray;
    nodeTypes: Codes;
    edgeTypes: Codes;
    out: [Uint32Array, Uint32Array, SmallIntArray];
    in: [Uint32Array, Uint32Array, SmallIntArray];
  }) {
    this.ids = parts.ids;
    this.nodeType = parts.nodeType;
    this.nodeTypes = parts.nodeTypes;
    this.edgeTypes = parts.edgeTypes;
    [this.outStart, this.outTarget, this.outType] = parts.out;
    [this.inStart, this.inTarget, this.inType] = parts.in;
  }

  /** An adjacency from its parts (see `toParts`); the id map is rebuilt from `ids`. */
  static fromParts(parts: CsrAdjacencyParts): CsrAdjacency {
    const nodeTypes = new Codes();
    const edgeTypes = new Codes();
    for (const name of parts.nodeTypeNames) nodeTypes.code(name);
    for (const name of parts.edgeTypeNames) edgeTypes.code(name);
    const offsetOf = new Map<string, number>();
    parts.ids.forEach((id, offset) => {
      if (id !== undefined) offsetOf.set(id, offset);
    });
    return new CsrAdjacency({ ...parts, ids: new ArrayNodeIds(parts.ids, offsetOf), nodeTypes, edgeTypes });
  }

  /**
   * An adjacency over `ids`, packed strings with their hash table (unused offsets empty), and
   * `nodeCount` of them in use: what `readAdjacencyFile` makes, with no id map to build.
   */
  static fromPackedIds(
    parts: Omit<CsrAdjacencyParts, 'ids'>,
    ids: PackedStringTable,
    nodeCount: number,
  ): CsrAdjacency {
    const nodeTypes = new Codes();
    const edgeTypes = new Codes();
    for (const name of parts.nodeTypeNames) nodeTypes.code(name);
    for (const name of parts.edgeTypeNames) edgeTypes.code(name);
    return new CsrAdjacency({ ...parts, ids: new PackedNodeIds(ids, nodeCount), nodeTypes, edgeTypes });
  }

  toParts(): CsrAdjacencyParts {
    return {
      ids: this.ids.toArray(),
      nodeType: this.nodeType,
      nodeTypeNames: this.nodeTypes.names,
      edgeTypeNames: this.edgeTypes.names,
      out: [this.outStart, this.outTarget, this.outType],
      in: [this.inStart, this.inTarget, this.inType],
    };
  }

  /**
   * Loads the adjacency with one scan of the node table and one of the edge table. Rows are grouped
   * by type with `collect`, and each edge travels as one number (`src · n + dst`): Kùzu's Node.js
   * driver costs ~6 µs per row object but well under 1 µs per list element.
   */
  static async load(
    read: RowReader,
    schemaNodeTypes: readonly string[],
    schemaEdgeTypes: readonly string[],
    statements: AdjacencyStatements = cypherAdjacencyStatements,
  ) {
    const nodeTypes = new Codes();
    const edgeTypes = new Codes();
    for (const name of schemaNodeTypes) nodeTypes.code(name);
    for (const name of schemaEdgeTypes) edgeTypes.code(name);

    const groups: { type: number; offsets: number[]; ids: string[] }[] = [];
    let size = 0;
    await read(statements.nodes, {}, (row) => {
      const offsets = (row.offsets as (number | bigint)[]).map(Number);
      for (const offset of offsets) if (offset >= size) size = offset + 1;
      groups.push({ type: nodeTypes.code(row.type as string), offsets, ids: row.ids as string[] });
    });
    const ids: (string | undefined)[] = new Array(size);
    const offsetOf = new Map<string, number>();
    const nodeType = smallIntArray(size, nodeTypes.names.length);
    for (const group of groups) {
      for (let i = 0; i < group.offsets.length; i++) {
        const offset = group.offsets[i]!;
        const id = group.ids[i]!;
        ids[offset] = id;
        offsetOf.set(id, offset);
        nodeType[offset] = group.type;
      }
    }
    groups.length = 0;

    // Edge list first (9 bytes an edge), then both CSR directions from it by counting sort.
    const chunks: { type: number; packed: number[] }[] = [];
    let edgeCount = 0;
    await read(statements.edges, { size: Math.max(size, 1) }, (row) => {
      const packed = row.packed as (number | bigint)[];
      const numbers = typeof packed[0] === 'bigint' ? packed.map(Number) : (packed as number[]);
      chunks.push({ type: edgeTypes.code(row.type as string), packed: numbers });
      edgeCount += numbers.length;
    });
    const src = new Uint32Array(edgeCount);
    const dst = new Uint32Array(edgeCount);
    const type = smallIntArray(edgeCount, edgeTypes.names.length);
    let at = 0;
    while (chunks.length > 0) {
      const chunk = chunks.pop()!;
      for (const value of chunk.packed) {
        const s = Math.floor(value / size);
        src[at] = s;
        dst[at] = value - s * size;
        type[at] = chunk.type;
        at++;
      }
    }
    const csr = (from: Uint32Array, to: Uint32Array): [Uint32Array, Uint32Array, SmallIntArray] => {
      const start = new Uint32Array(size + 1);
      for (let i = 0; i < edgeCount; i++) start[from[i]! + 1]!++;
      for (let i = 0; i < size; i++) start[i + 1]! += start[i]!;
      const fill = start.slice(0, size);
      const target = new Uint32Array(edgeCount);
      const types = smallIntArray(edgeCount, edgeTypes.names.length);
      for (let i = 0; i < edgeCount; i++) {
        const slot = fill[from[i]!]!++;
        target[slot] = to[i]!;
        types[slot] = type[i]!;
      }
      return [start, target, types];
    };
    return new CsrAdjacency({
      ids: new ArrayNodeIds(ids, offsetOf),
      nodeType,
      nodeTypes,
      edgeTypes,
      out: csr(src, dst),
      in: csr(dst, src),
    });
  }

  get nodeCount(): number {
    return this.ids.count;
  }

  /** Node offsets, used or not (`nodeType.length`). */
  get offsetCount(): number {
    return this.nodeType.length;
  }

  /** The node id at `offset` (`undefined` for an offset the engine left unused). */
  idAt(offset: number): string | undefined {
    return this.ids.idAt(offset);
  }

  /** The offset of node `id`, or `undefined` when the graph has no such node. */
  offsetOf(id: string): number | undefined {
    return this.ids.offsetOf(id);
  }

  /** Every node id, in offset order (unused offsets skipped). */
  *nodeIds(): Generator<string> {
    for (let offset = 0; offset < this.nodeType.length; offset++) {
      const id = this.ids.idAt(offset);
      if (id !== undefined) yield id;
    }
  }

  get edgeCount(): number {
    return this.outTarget.length;
  }

  /** Bytes held by the typed arrays (the id strings and the id map come on top: see `approximateBytes`). */
  get arrayBytes(): number {
    return [
      this.nodeType,
      this.outStart,
      this.outTarget,
      this.outType,
      this.inStart,
      this.inTarget,
      this.inType,
    ].reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** Edge type names by code. */
  get edgeTypeNames(): readonly string[] {
    return this.edgeTypes.names;
  }

  /** Type codes for names; unknown names are dropped (they match nothing). */
  nodeTypeCodes(names: readonly string[]): Set<number> {
    return codes(this.nodeTypes, names);
  }

  edgeTypeCodes(names: readonly string[]): Set<number> {
    return codes(this.edgeTypes, names);
  }

  /** `GraphStoreV1.doNeighbors` answered from this adjacency: ids, types and directions as the contract says. */
  expand(options: GraphNeighborsOptions): GraphNeighbor[] {
    if (options.seeds.length === 0 || options.edgeTypes?.length === 0 || options.nodeTypes?.length === 0)
      return [];
    const seeds: number[] = [];
    for (const seed of new Set(options.seeds)) {
      const offset = this.ids.offsetOf(seed);
      if (offset !== undefined) seeds.push(offset);
    }
    if (seeds.length === 0) return [];
    const edgeTypes = options.edgeTypes ? this.edgeTypeCodes(options.edgeTypes) : undefined;
    const nodeTypes = options.nodeTypes ? this.nodeTypeCodes(options.nodeTypes) : undefined;
    if (edgeTypes?.size === 0 || nodeTypes?.size === 0) return [];
    return this.neighbors({
      seeds,
      directions: options.direction === 'both' ? ['out', 'in'] : [options.direction],
      ...(edgeTypes ? { edgeTypes } : {}),
      ...(nodeTypes ? { nodeTypes } : {}),
      ...(options.limitPerSeed !== undefined ? { limitPerSeed: options.limitPerSeed } : {}),
    });
  }

  /** `GraphStoreV1.doSampleNodes` answered from this adjacency: a deterministic sample of node ids. */
  sample(options: GraphSampleOptions): string[] {
    const types = options.nodeTypes ? this.nodeTypeCodes(options.nodeTypes) : undefined;
    const adjacency = this;
    const ids = function* () {
      for (let offset = 0; offset < adjacency.nodeType.length; offset++) {
        const id = adjacency.ids.idAt(offset);
        if (id !== undefined && (!types || types.has(adjacency.nodeType[offset]!))) yield id;
      }
    };
    return stableSample(ids(), options.count, options.seed);
  }

  /**
   * One-hop expansion. Per seed, neighbours are ordered by (node id, edge type, direction) before
   * `limitPerSeed` applies — the same deterministic choice as the reference store.
   */
  neighbors(options: CsrNeighborsOptions): GraphNeighbor[] {
    const result: GraphNeighbor[] = [];
    const found: GraphNeighbor[] = [];
    for (const seedOffset of options.seeds) {
      const seed = this.ids.idAt(seedOffset)!;
      found.length = 0;
      for (const direction of options.directions) {
        const out = direction === 'out';
        const start = out ? this.outStart : this.inStart;
        const target = out ? this.outTarget : this.inTarget;
        const types = out ? this.outType : this.inType;
        for (let slot = start[seedOffset]!, end = start[seedOffset + 1]!; slot < end; slot++) {
          const edgeType = types[slot]!;
          if (options.edgeTypes && !options.edgeTypes.has(edgeType)) continue;
          const other = target[slot]!;
          const nodeType = this.nodeType[other]!;
          if (options.nodeTypes && !options.nodeTypes.has(nodeType)) continue;
          found.push({
            seed,
            node: this.ids.idAt(other)!,
            nodeType: this.nodeTypes.names[nodeType]!,
            edgeType: this.edgeTypes.names[edgeType]!,
            direction,
          });
        }
      }
      if (found.length > 1)
        found.sort(
          (a, b) =>
            compare(a.node, b.node) || compare(a.edgeType, b.edgeType) || compare(a.direction, b.direction),
        );
      const keep =
        options.limitPerSeed === undefined ? found.length : Math.min(found.length, options.limitPerSeed);
      for (let i = 0; i < keep; i++) result.push(found[i]!);
    }
    return result;
  }
}

function codes(table: Codes, names: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const name of names) {
    const code = table.get(name);
    if (code !== undefined) out.add(code);
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

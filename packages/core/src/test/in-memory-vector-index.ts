import type { IndexHit, VectorIndexV1, VectorSearchOptions } from '@weft/spec';
import { WeftError } from '@weft/kit';

export interface VectorRecord {
  readonly id: string;
  readonly type: string;
  readonly vector: readonly number[];
}

/** The reference vector index: exact cosine similarity against every stored vector. */
export class InMemoryVectorIndex implements VectorIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'memory';
  readonly maxQueriesPerCall = 64;
  readonly dimensions: number;
  readonly embedderId: string;
  private readonly records: { id: string; type: string; unit: Float64Array }[];

  constructor(options: { records: readonly VectorRecord[]; dimensions: number; embedderId: string }) {
    this.dimensions = options.dimensions;
    this.embedderId = options.embedderId;
    this.records = options.records.map((record) => ({
      id: record.id,
      type: record.type,
      unit: unit(record.vector, this.dimensions),
    }));
  }

  async doSearch(options: VectorSearchOptions): Promise<IndexHit[][]> {
    const types = options.filter?.nodeTypes ? new Set(options.filter.nodeTypes) : undefined;
    const ids = options.filter?.ids ? new Set(options.filter.ids) : undefined;
    return options.vectors.map((vector) => {
      const query = unit(vector, this.dimensions);
      const hits: IndexHit[] = [];
      for (const record of this.records) {
        if (types && !types.has(record.type)) continue;
        if (ids && !ids.has(record.id)) continue;
        let dot = 0;
        for (let i = 0; i < this.dimensions; i++) dot += query[i]! * record.unit[i]!;
        hits.push({ id: record.id, type: record.type, score: dot });
      }
      hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      return hits.slice(0, options.limit);
    });
  }

  async close(): Promise<void> {}
}

function unit(vector: readonly number[], dimensions: number): Float64Array {
  if (vector.length !== dimensions) {
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `vector has ${vector.length} dimensions, index has ${dimensions}`,
    });
  }
  const out = Float64Array.from(vector);
  const norm = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

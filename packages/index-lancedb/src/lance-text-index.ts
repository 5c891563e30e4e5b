import type { Connection, Table } from '@lancedb/lancedb';
import { toWeftError, WeftError } from '@weft/core';
import type { IndexHit, TextIndexV1, TextSearchOptions } from '@weft/spec';
import { lanceWhere } from './lance-filter.ts';
import { mapConcurrent } from './map-concurrent.ts';
import { defaultNodeTable, documentColumn, openLanceTable } from './lance-node-table.ts';
import { lancedb } from './lancedb.ts';
import { sanitizeTextQuery } from './sanitize-text-query.ts';

export interface LanceIndexOpenOptions {
  /** Table written by `writeLanceNodes`; `nodes` by default. */
  readonly table?: string;
}

/**
 * BM25 over name + aliases + text through LanceDB's native full-text index. Any query string is
 * plain text: it is reduced to its words and sent as a structured match (never parsed), filters are
 * applied before ranking.
 */
export class LanceTextIndex implements TextIndexV1 {
  readonly specificationVersion = 'v1';
  readonly provider = 'lancedb';
  readonly maxQueriesPerCall = 64;
  private readonly db: Connection;
  private readonly table: Table;

  private constructor(db: Connection, table: Table) {
    this.db = db;
    this.table = table;
  }

  /** Opens the text index of a table written by `writeLanceNodes`. */
  static async open(directory: string, options: LanceIndexOpenOptions = {}): Promise<LanceTextIndex> {
    const { db, table } = await openLanceTable(directory, options.table ?? defaultNodeTable);
    return new LanceTextIndex(db, table);
  }

  async doSearch(options: TextSearchOptions): Promise<IndexHit[][]> {
    const where = lanceWhere(options.filter);
    const empty = options.filter?.ids?.length === 0 || options.filter?.nodeTypes?.length === 0;
    return mapConcurrent(options.queries, 8, async (query) => {
      const words = sanitizeTextQuery(query);
      if (!words || empty || options.limit <= 0) return [];
      if (options.abortSignal?.aborted)
        throw new WeftError({ code: 'WEFT_ABORTED', message: 'text search aborted' });
      try {
        let search = this.table
          .query()
          .fullTextSearch(new lancedb.MatchQuery(words, documentColumn, { operator: lancedb.Operator.Or }))
          .select(['id', '_score'])
          .limit(options.limit);
        if (where) search = search.where(where);
        const rows = (await search.toArray()) as { id: string; _score: number }[];
        return rows.map((row) => ({ id: row.id, score: row._score }));
      } catch (error) {
        throw toWeftError(
          error,
          'WEFT_STORE_FAILED',
          `LanceDB full-text search failed for ${JSON.stringify(query)}`,
        );
      }
    });
  }

  async close(): Promise<void> {
    this.table.close();
    this.db.close();
  }
}

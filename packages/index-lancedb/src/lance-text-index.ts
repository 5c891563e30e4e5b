import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Connection, Table } from '@lancedb/lancedb';
import { toWeftError, WeftError } from '@weft/kit';
import type {
  IndexHit,
  TermStatistics,
  TermStatisticsOptions,
  TextFieldInfo,
  TextIndexV2,
  TextSearchOptionsV2,
} from '@weft/spec';
import { englishAnalyzer } from './english-analyzer.ts';
import { lanceWhere } from './lance-filter.ts';
import {
  type DocumentTermCounts,
  defaultNodeTable,
  openLanceTable,
  termCountsPath,
  type TextFieldName,
  textFieldColumns,
  textFieldDescriptions,
} from './lance-node-table.ts';
import { lancedb } from './lancedb.ts';
import { mapConcurrent } from './map-concurrent.ts';
import { sanitizeTextQuery } from './sanitize-text-query.ts';

export interface LanceIndexOpenOptions {
  /** Table written by `writeLanceNodes`; `nodes` by default. */
  readonly table?: string;
  /** LanceDB's object-store settings, for a table at an `s3://…` URI. */
  readonly storageOptions?: Readonly<Record<string, string>>;
  /** The local folder of the term counts file (default `directory`). */
  readonly termCountsDirectory?: string;
}

/**
 * BM25 through LanceDB's native full-text indexes, one per field: the node's own `document` (name,
 * aliases, text), and — in tables written with relation text — `relations` (neighbour names by
 * relation) and `combined` (both). Each field has its own statistics and scores. Any query string is
 * plain text: it is reduced to its words and sent as a structured match (never parsed); filters
 * apply before ranking.
 */
export class LanceTextIndex implements TextIndexV2 {
  readonly specificationVersion = 'v2';
  readonly provider = 'lancedb';
  readonly maxQueriesPerCall = 64;
  readonly defaultField = 'document';
  readonly fields: readonly TextFieldInfo[];
  private readonly db: Connection;
  private readonly table: Table;

  private readonly termCounts: DocumentTermCounts | undefined;

  private constructor(
    db: Connection,
    table: Table,
    fields: readonly TextFieldName[],
    termCounts: DocumentTermCounts | undefined,
  ) {
    this.db = db;
    this.table = table;
    this.fields = fields.map((name) => ({ name, description: textFieldDescriptions[name] }));
    this.termCounts = termCounts;
  }

  /** Opens the text index of a table written by `writeLanceNodes`; its fields are the columns it has. */
  static async open(directory: string, options: LanceIndexOpenOptions = {}): Promise<LanceTextIndex> {
    const name = options.table ?? defaultNodeTable;
    const { db, table } = await openLanceTable(directory, name, options.storageOptions);
    try {
      const columns = new Set((await table.schema()).fields.map((f) => f.name));
      const fields = (Object.keys(textFieldColumns) as TextFieldName[]).filter((field) =>
        columns.has(textFieldColumns[field]),
      );
      // Tables written before term counts existed have no file: the index then has no statistics.
      const countsFile = termCountsPath(options.termCountsDirectory ?? directory, name);
      const termCounts = existsSync(countsFile)
        ? (JSON.parse(await readFile(countsFile, 'utf8')) as DocumentTermCounts)
        : undefined;
      return new LanceTextIndex(db, table, fields, termCounts);
    } catch (error) {
      table.close();
      db.close();
      throw error;
    }
  }

  private column(field: string | undefined): string {
    const name = field ?? this.defaultField;
    if (!this.fields.some((f) => f.name === name)) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `no text field "${name}" in this index (fields: ${this.fields.map((f) => f.name).join(', ')})`,
      });
    }
    return textFieldColumns[name as TextFieldName];
  }

  async doSearch(options: TextSearchOptionsV2): Promise<IndexHit[][]> {
    const column = this.column(options.field);
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
          .fullTextSearch(new lancedb.MatchQuery(words, column, { operator: lancedb.Operator.Or }))
          .select(['id', 'type', '_score'])
          .limit(options.limit);
        if (where) search = search.where(where);
        const rows = (await search.toArray()) as { id: string; type: string; _score: number }[];
        return rows.map((row) => ({ id: row.id, type: row.type, score: row._score }));
      } catch (error) {
        throw toWeftError(
          error,
          'WEFT_STORE_FAILED',
          `LanceDB full-text search (${column}) failed for ${JSON.stringify(query)}`,
        );
      }
    });
  }

  /**
   * Document frequencies of the document field's terms, counted when the table was written; absent
   * (undefined) for other fields and for tables written without counts.
   */
  get doTermStatistics(): TextIndexV2['doTermStatistics'] {
    const counts = this.termCounts;
    if (!counts) return undefined;
    return async ({ texts, field }: TermStatisticsOptions): Promise<TermStatistics[]> => {
      if ((field ?? this.defaultField) !== 'document') {
        throw new WeftError({
          code: 'WEFT_UNSUPPORTED',
          message: `term statistics are kept for the document field only, not "${field}"`,
        });
      }
      return texts.map((text) => ({
        documents: counts.documents,
        terms: [...new Set(englishAnalyzer(text))].map((term) => ({
          term,
          documentFrequency: counts.frequencies[term] ?? 0,
        })),
      }));
    };
  }

  async close(): Promise<void> {
    this.table.close();
    this.db.close();
  }
}

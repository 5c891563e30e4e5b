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

/**
 * Whether the first `limit` hits of a longer answer are what a search for `limit` rows answers: their
 * scores fall strictly, down to the first hit left out (rows of equal score come in an order that
 * depends on the limit).
 */
function rankedByScoreAlone(hits: readonly IndexHit[], limit: number): boolean {
  const last = Math.min(limit, hits.length - 1);
  for (let i = 1; i <= last; i++) if (!(hits[i]!.score < hits[i - 1]!.score)) return false;
  return true;
}

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
  /**
   * Searches in flight, by field, filter and words. A search for no more rows than one of these asks
   * takes the first rows of its answer instead of running again: the default stack's planner asks for
   * the top 30 of the very search (question, target types, document) whose top 100 its traverser
   * started a moment before. Only rows whose scores alone order them are taken so: LanceDB orders
   * rows of equal score differently for different limits.
   */
  private readonly running = new Map<
    string,
    { readonly limit: number; readonly hits: Promise<IndexHit[]> }
  >();

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
      const key = JSON.stringify([column, where ?? null, words]);
      const running = this.running.get(key);
      if (running && running.limit >= options.limit) {
        const shared = await running.hits.catch(() => undefined);
        if (shared && rankedByScoreAlone(shared, options.limit))
          return shared.slice(0, options.limit).map((hit) => ({ ...hit }));
      }
      const hits = this.search(column, where, words, options.limit).catch((error: unknown) => {
        throw toWeftError(
          error,
          'WEFT_STORE_FAILED',
          `LanceDB full-text search (${column}) failed for ${JSON.stringify(query)}`,
        );
      });
      this.running.set(key, { limit: options.limit, hits });
      const settled = () => {
        if (this.running.get(key)?.hits === hits) this.running.delete(key);
      };
      hits.then(settled, settled);
      return hits;
    });
  }

  private async search(column: string, where: string | undefined, words: string, limit: number) {
    let search = this.table
      .query()
      .fullTextSearch(new lancedb.MatchQuery(words, column, { operator: lancedb.Operator.Or }))
      .select(['id', 'type', '_score'])
      .limit(limit);
    if (where) search = search.where(where);
    const rows = (await search.toArray()) as { id: string; type: string; _score: number }[];
    return rows.map((row): IndexHit => ({ id: row.id, type: row.type, score: row._score }));
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

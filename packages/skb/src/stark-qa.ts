import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WeftError } from '@weft/kit';
import type { SkbQuery, SkbSplit } from '@weft/spec';
import { readCsvRecords } from './csv-records.ts';

export interface ImportStarkQaOptions {
  /** STaRK's `stark_qa.csv` (`id,query,answer_ids[,…]`) or `stark_qa_human_generated_eval.csv`. */
  readonly csv: string;
  /** Folder with `train.index`, `val.index`, `test.index` (one query id per line). */
  readonly splitDirectory?: string;
  /** Split of queries no split file lists (e.g. `'test'` for the human-generated set); absent = skip them. */
  readonly defaultSplit?: SkbSplit;
  /** STaRK integer node index → bundle node id (default: the index as a string). */
  readonly nodeId?: (index: number) => string;
  /**
   * Prefix of query ids (default `'stark-q'`): STaRK's query ids are integers that may equal node
   * indices (in Amazon every query id is one of its own answers), and a query id must carry no hint.
   */
  readonly queryIdPrefix?: string;
}

export interface StarkImport {
  readonly queries: SkbQuery[];
  /** Queries left out because no split file listed them and no `defaultSplit` was given. */
  readonly skipped: number;
}

const splitNames: readonly SkbSplit[] = ['train', 'val', 'test'];

async function readSplits(directory: string): Promise<Map<string, SkbSplit>> {
  const splits = new Map<string, SkbSplit>();
  for (const split of splitNames) {
    let text: string;
    try {
      text = await readFile(join(directory, `${split}.index`), 'utf8');
    } catch {
      continue;
    }
    for (const raw of text.split(/\r?\n/)) {
      const id = raw.trim();
      if (id) splits.set(id, split);
    }
  }
  return splits;
}

/** Reads a STaRK QA file (+ splits) as a Weft query set; throws `WEFT_BAD_INPUT` with file:line. */
export async function importStarkQa(options: ImportStarkQaOptions): Promise<StarkImport> {
  const nodeId = options.nodeId ?? ((index: number) => String(index));
  const prefix = options.queryIdPrefix ?? 'stark-q';
  const splits = options.splitDirectory
    ? await readSplits(options.splitDirectory)
    : new Map<string, SkbSplit>();
  const queries: SkbQuery[] = [];
  let skipped = 0;
  let header: string[] | undefined;
  const bad = (line: number, message: string) =>
    new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `${options.csv}:${line}: ${message}`,
      details: { file: options.csv, line },
    });
  for await (const { line, fields } of readCsvRecords(options.csv)) {
    if (!header) {
      header = fields.map((f) => f.trim());
      for (const column of ['id', 'query', 'answer_ids'])
        if (!header.includes(column))
          throw bad(line, `missing column "${column}" (expected id,query,answer_ids)`);
      continue;
    }
    const row = Object.fromEntries(header.map((column, index) => [column, fields[index] ?? '']));
    const starkId = row.id!.trim();
    if (!/^\d+$/.test(starkId)) throw bad(line, `id must be an integer, got "${starkId}"`);
    let indices: unknown;
    try {
      indices = JSON.parse(row.answer_ids!);
    } catch {
      throw bad(line, `answer_ids must be a list of integers like [1, 2], got "${row.answer_ids}"`);
    }
    if (!Array.isArray(indices) || indices.length === 0 || indices.some((i) => !Number.isInteger(i))) {
      throw bad(line, `answer_ids must be a non-empty list of integers, got "${row.answer_ids}"`);
    }
    const split = splits.get(starkId) ?? options.defaultSplit;
    if (!split) {
      skipped++;
      continue;
    }
    const extra = Object.fromEntries(
      header.filter((c) => !['id', 'query', 'answer_ids'].includes(c)).map((c) => [c, row[c]]),
    );
    queries.push({
      id: `${prefix}${starkId}`,
      query: row.query!,
      answers: [...new Set((indices as number[]).map(nodeId))],
      split,
      meta: { starkId: Number(starkId), ...extra },
    });
  }
  if (!header) throw bad(1, 'empty file (expected a header id,query,answer_ids)');
  return { queries, skipped };
}

export interface StarkResult {
  readonly queryId: string;
  /** Ranked node ids, best first. */
  readonly ranked: readonly string[];
}

export interface StarkExportOptions {
  /** Bundle node id → STaRK integer index (default: `Number(id)`). */
  readonly nodeIndex?: (id: string) => number;
  /** Bundle query id → STaRK query id (default: strips `'stark-q'`). */
  readonly starkQueryId?: (id: string) => number;
  /** Keep the first `topK` of each ranking (default 100, STaRK's). */
  readonly topK?: number;
}

/**
 * Results in the layout of STaRK's `eval_results_*.csv` (`idx,query_id,pred_rank`, where `pred_rank`
 * is the ranked list of integer node indices), so STaRK's own evaluation script can read them.
 */
export function starkResultsCsv(results: Iterable<StarkResult>, options: StarkExportOptions = {}): string {
  const toIndex = options.nodeIndex ?? ((id: string) => Number(id));
  const toQueryId = options.starkQueryId ?? ((id: string) => Number(id.replace(/^stark-q/, '')));
  const topK = options.topK ?? 100;
  const lines = ['idx,query_id,pred_rank'];
  let idx = 0;
  for (const result of results) {
    const queryId = toQueryId(result.queryId);
    const ranked = result.ranked.slice(0, topK).map(toIndex);
    if (!Number.isInteger(queryId) || ranked.some((i) => !Number.isInteger(i))) {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `query ${result.queryId}: ids do not map to STaRK integer indices (pass nodeIndex / starkQueryId)`,
      });
    }
    lines.push(`${idx++},${queryId},"[${ranked.join(', ')}]"`);
  }
  return `${lines.join('\n')}\n`;
}

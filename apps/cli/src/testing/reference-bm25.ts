import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { InMemoryTextIndex } from '@weft/core/test';
import type { SkbNode, SkbSchema } from '@weft/spec';
import { readFile } from 'node:fs/promises';
import { readQuerySet } from '@weft/eval';
import type { SkbSplit } from '@weft/spec';
import { englishAnalyzer } from '@weft/index-lancedb';

/**
 * Independent BM25 figures for a query set: the reference in-memory BM25 (k1 1.2, b 0.75, English
 * analysis as in `englishAnalyzer` of @weft/index-lancedb) over the
 * same documents (name + aliases + text of the target types), scored by plain loops here rather than
 * by @weft/eval. The yardstick that `weft eval --stack bm25` must agree with.
 */
export async function referenceBm25Figures(options: {
  readonly bundle: string;
  readonly set: string;
  readonly split: SkbSplit;
  readonly listLength?: number;
  readonly maxQueries?: number;
}) {
  const listLength = options.listLength ?? 100;
  const schema = JSON.parse(await readFile(path.join(options.bundle, 'schema.json'), 'utf8')) as SkbSchema;
  const plain = path.join(options.bundle, 'nodes.jsonl');
  const file = existsSync(plain) ? plain : `${plain}.gz`;
  const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  const nodes: SkbNode[] = [];
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim()) nodes.push(JSON.parse(line) as SkbNode);
  }
  // Same analysis as the store's LanceDB index (stemming, stop words), so only the BM25 arithmetic and
  // the plumbing are being compared.
  const index = new InMemoryTextIndex(nodes, { analyzer: englishAnalyzer });
  let queries = await readQuerySet(options.bundle, options.set, { split: options.split });
  if (options.maxQueries !== undefined) queries = queries.slice(0, options.maxQueries);
  const filter = schema.targetTypes ? { nodeTypes: schema.targetTypes } : undefined;
  const sums = { hit1: 0, hit5: 0, recall20: 0, mrr: 0 };
  for (const q of queries) {
    const [hits] = await index.doSearch({
      queries: [q.query],
      limit: listLength,
      ...(filter ? { filter } : {}),
    });
    const ids = hits!.map((h) => h.id);
    const gold = new Set(q.answers);
    const first = ids.findIndex((id) => gold.has(id));
    if (first === 0) sums.hit1++;
    if (first >= 0 && first < 5) sums.hit5++;
    if (first >= 0) sums.mrr += 1 / (first + 1);
    sums.recall20 += ids.slice(0, 20).filter((id) => gold.has(id)).length / gold.size;
  }
  const n = queries.length;
  const percent = (value: number) => Math.round((10000 * value) / Math.max(1, n)) / 100;
  return {
    n,
    listLength,
    hit1: percent(sums.hit1),
    hit5: percent(sums.hit5),
    recall20: percent(sums.recall20),
    mrr: percent(sums.mrr),
  };
}

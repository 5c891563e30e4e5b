/**
 * Prints independent BM25 figures (reference in-memory index) for a query set of a bundle, to set
 * beside `weft eval --stack bm25 --json`.
 *   ./dev node --conditions=@weft/source apps/cli/bench/reference-bm25.ts <bundle> [set] [split]
 */
import path from 'node:path';
import type { SkbSplit } from '@weft/spec';
import { referenceBm25Figures } from '../src/testing/reference-bm25.ts';

const [bundleArg, set = 'hybrid', split = 'test'] = process.argv.slice(2);
if (!bundleArg) {
  console.error('usage: reference-bm25.ts <bundle> [set] [split]');
  process.exit(2);
}
const bundle = path.resolve(bundleArg);
const started = performance.now();
const figures = await referenceBm25Figures({ bundle, set, split: split as SkbSplit });
console.log(
  JSON.stringify({
    bundle,
    set,
    split,
    reference: 'in-memory BM25 (k1 1.2, b 0.75)',
    ...figures,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  }),
);

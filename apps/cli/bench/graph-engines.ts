/**
 * The graph engines side by side on WordNet 3.1: Kùzu (`kuzu`), LadybugDB (`ladybug`) and, where
 * PostgreSQL is installed, `postgres` (a server this bench starts on 127.0.0.1). Per engine:
 * `weft ingest --graph <engine>` (total, the graph's own build, peak RSS, graph size on disk), then
 * in a fresh process `openStore` (cold open), the first query of the default stack (which loads the
 * adjacency and the name index) and p50 / p95 of the default stack over synthesised queries, warm;
 * and whether every engine ranked every query identically. The queried stores share the Kùzu store's
 * indexes (LanceDB's IVF training starts at random, so two ingests' vector hits may differ): only the
 * graph engine differs. Each engine runs in its own processes (one process must never load both
 * Kùzu's and LadybugDB's native modules).
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/graph-engines.ts [--n 150] [--rounds 1] [--no-postgres]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type PostgresServer, postgresBinDirectory, startPostgres } from '@weft/graph-postgres/testing';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { repositoryRoot } from '../src/commands/demo.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '1' },
    probe: { type: 'string' },
    queries: { type: 'string' },
    'no-postgres': { type: 'boolean' },
  },
});

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

interface Probe {
  openMs: number;
  firstQueryMs: number;
  p50: number;
  p95: number;
  queries: number;
  rankings: string;
}

/** Child process: open the store cold, time the default stack, digest its rankings. */
async function probe(db: string, queriesFile: string, n: number): Promise<Probe> {
  const { synthesizeQueries } = await import('@weft/eval');
  const { createStack } = await import('@weft/stacks');
  const { openStore } = await import('@weft/store');
  let started = performance.now();
  const store = await openStore(db);
  const openMs = performance.now() - started;
  try {
    const retriever = await createStack('default', store);
    let queries: string[];
    if (existsSync(queriesFile)) queries = JSON.parse(await readFile(queriesFile, 'utf8')) as string[];
    else {
      const { hybrid, text } = await synthesizeQueries(store.context, {
        hybrid: Math.ceil((2 * n) / 3),
        text: Math.floor(n / 3),
        seed: 2,
      });
      queries = [...hybrid, ...text].map((q) => q.query);
      await writeFile(queriesFile, JSON.stringify(queries));
    }
    started = performance.now();
    await retriever.doRetrieve({ query: queries[0]!, limit: 100 });
    const firstQueryMs = performance.now() - started;
    const hash = createHash('sha256');
    const times: number[] = [];
    for (const query of queries) {
      started = performance.now();
      const { ranking } = await retriever.doRetrieve({ query, limit: 100 });
      times.push(performance.now() - started);
      hash.update(JSON.stringify(ranking.map((c) => [c.id, c.score])));
    }
    times.sort((a, b) => a - b);
    return {
      openMs,
      firstQueryMs,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      queries: queries.length,
      rankings: hash.digest('hex').slice(0, 16),
    };
  } finally {
    await store.close();
  }
}

function bytesUnder(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    total += entry.isDirectory() ? bytesUnder(full) : statSync(full).size;
  }
  return total;
}

if (values.probe) {
  console.log(JSON.stringify(await probe(values.probe, values.queries!, Number(values.n))));
} else {
  const root = repositoryRoot();
  const bundle = path.join(root, '.weft', 'bench', 'wordnet-3.1-bundle');
  if (!existsSync(path.join(bundle, 'SOURCE.md'))) {
    await rm(bundle, { recursive: true, force: true });
    await mkdir(path.dirname(bundle), { recursive: true });
    console.error(`bench: writing WordNet 3.1 into ${bundle}…`);
    await buildWordnetBundle({ out: bundle });
  }
  const weft = path.join(root, 'weft');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'weft-engines-bench-'));
  const queriesFile = path.join(scratch, 'queries.json');
  let server: PostgresServer | undefined;
  const engines: string[] = ['kuzu', 'ladybug'];
  if (!values['no-postgres'] && postgresBinDirectory()) {
    server = await startPostgres();
    engines.push('postgres');
  }
  const graphSpec = (engine: string, round: number) =>
    engine === 'postgres' ? `${server!.url}?schema=bench_${round}` : engine;
  const rows = new Map<
    string,
    { ingest: number[]; graph: number[]; rss: number[]; mib: number[]; probes: Probe[] }
  >();
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      const reference = path.join(scratch, `kuzu-${round}`);
      for (const engine of engines) {
        const built = path.join(scratch, `${engine}-${round}`);
        console.error(`bench: round ${round + 1}, ${engine}: ingest…`);
        const report = JSON.parse(
          execFileSync(
            weft,
            ['ingest', bundle, '--db', built, '--graph', graphSpec(engine, round), '--json'],
            {
              encoding: 'utf8',
              stdio: ['ignore', 'pipe', 'ignore'],
            },
          ),
        ) as {
          seconds: number;
          peakRssMiB: number;
          graphTimings: Record<string, number>;
          graph: { provider: string; path: string };
        };
        // The queried store: the Kùzu store's indexes with this engine's graph.
        let db = reference;
        if (engine !== 'kuzu') {
          db = path.join(scratch, `${engine}-${round}-queried`);
          await cp(reference, db, { recursive: true });
          await rm(path.join(db, 'graph'), { recursive: true, force: true });
          if (existsSync(path.join(built, 'graph')))
            await cp(path.join(built, 'graph'), path.join(db, 'graph'), { recursive: true });
          const manifest = JSON.parse(await readFile(path.join(db, 'store.json'), 'utf8'));
          await writeFile(path.join(db, 'store.json'), JSON.stringify({ ...manifest, graph: report.graph }));
        }
        console.error(`bench: round ${round + 1}, ${engine}: open and query…`);
        const probed = JSON.parse(
          execFileSync(
            process.execPath,
            [
              '--conditions=@weft/source',
              '--disable-warning=ExperimentalWarning',
              fileURLToPath(import.meta.url),
              '--probe',
              db,
              '--queries',
              queriesFile,
              '--n',
              values.n!,
            ],
            { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
          ),
        ) as Probe;
        const row = rows.get(engine) ?? { ingest: [], graph: [], rss: [], mib: [], probes: [] };
        row.ingest.push(report.seconds);
        row.graph.push(Object.values(report.graphTimings).reduce((s, t) => s + t, 0));
        row.rss.push(report.peakRssMiB);
        row.mib.push(
          existsSync(path.join(built, 'graph'))
            ? bytesUnder(path.join(built, 'graph')) / 2 ** 20
            : Number.NaN,
        );
        row.probes.push(probed);
        rows.set(engine, row);
        if (engine !== 'kuzu') {
          await rm(db, { recursive: true, force: true });
          await rm(built, { recursive: true, force: true });
        }
      }
      await rm(reference, { recursive: true, force: true });
    }
    const cells = (engine: string) => {
      const row = rows.get(engine)!;
      return [
        `${median(row.ingest).toFixed(1)} s`,
        `${median(row.graph).toFixed(1)} s`,
        `${median(row.rss)} MiB`,
        Number.isNaN(row.mib[0]) ? 'on the server' : `${median(row.mib).toFixed(0)} MiB`,
        `${median(row.probes.map((p) => p.openMs)).toFixed(0)} ms`,
        `${median(row.probes.map((p) => p.firstQueryMs)).toFixed(0)} ms`,
        `${median(row.probes.map((p) => p.p50)).toFixed(1)} ms`,
        `${median(row.probes.map((p) => p.p95)).toFixed(1)} ms`,
      ];
    };
    const header = [
      'engine',
      'ingest',
      'graph build',
      'peak RSS',
      'graph on disk',
      'open',
      'first query',
      'p50',
      'p95',
    ];
    const table = [header, ...engines.map((engine) => [engine, ...cells(engine)])];
    const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
    const probes = engines.map((engine) => rows.get(engine)!.probes);
    const queries = probes[0]![0]!.queries;
    console.log(
      `graph-engines on WordNet 3.1, default stack over ${queries} synthesised queries (limit 100), median of ${values.rounds} round(s):`,
    );
    for (const row of table) console.log(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}`);
    // Per round: each round's stores share that round's indexes (a new IVF training each round).
    const differing = probes[0]!
      .map((_, round) => new Set(probes.map((p) => p[round]!.rankings)))
      .filter((digests) => digests.size > 1);
    console.log(
      `  rankings identical on every engine: ${differing.length === 0 ? 'yes' : `NO (${differing.map((d) => [...d].join(' ≠ ')).join('; ')})`}`,
    );
  } finally {
    await server?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

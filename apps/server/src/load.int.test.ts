import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson } from './testing/read-json.ts';
import { type ServerChild, spawnServer } from './testing/spawn-server.ts';
import { toyQueries, toyStoreDirectory } from './testing/toy-store-directory.ts';

/**
 * 32 clients × 20 queries against one `weft serve` process, every built-in stack shared by all of
 * them: each answer must equal the one the same request got when asked alone, which is what makes
 * one stack instance per stack safe (nothing of one retrieval is kept on the instance). Memory is
 * read from the server process alone (/health), after a serial warm-up that built every stack.
 */
const clients = 32;
const queriesPerClient = 20;
/** Generous: the toy store serves in well under 500 MiB; a leak of answers or traces would not. */
const maxPeakRssMiB = 1024;
const maxGrowthMiB = 256;

let directory: Awaited<ReturnType<typeof toyStoreDirectory>>;
let server: ServerChild;

beforeAll(async () => {
  directory = await toyStoreDirectory();
  server = await spawnServer(['--db', directory.db]);
});
afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await directory?.cleanup();
});

interface Health {
  requests: { inFlight: number; served: number; failed: number; rejected: number };
  memory: { rssMiB: number; peakRssMiB: number; heapUsedMiB: number };
}
const health = async () => (await (await fetch(`${server.url}/health`)).json()) as Health;

/** What must not depend on concurrency: everything but the timings of the trace. */
async function ask(query: string, stack: string) {
  const response = await fetch(`${server.url}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, stack, limit: 10, explain: true }),
  });
  if (response.status !== 200)
    throw new Error(`${stack} "${query}": ${response.status} ${await response.text()}`);
  const body = await readJson(response, 'queryResponse');
  return JSON.stringify({
    results: body.results,
    warnings: body.warnings,
    llm: body.llm,
    plan: body.explanation!.plan,
    trajectories: body.explanation!.trajectories,
    labels: body.explanation!.labels,
  });
}

describe('weft serve under load', () => {
  it(`gives ${clients} concurrent clients × ${queriesPerClient} queries the serial answers in bounded memory`, async () => {
    const stacks = (
      (await (await fetch(`${server.url}/stacks`)).json()) as { stacks: { name: string }[] }
    ).stacks.map((s) => s.name);
    const tasks = stacks.flatMap((stack) => toyQueries.map((q) => ({ stack, query: q.query })));
    const serial = new Map<string, string>();
    for (const task of tasks)
      serial.set(`${task.stack}\u0000${task.query}`, await ask(task.query, task.stack));
    const before = await health();

    let mismatches = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; i < queriesPerClient; i++) {
          // Clients walk the tasks from different offsets and strides, so that every stack serves
          // many different queries at once.
          const task = tasks[(client * 7 + i * ((client % 5) + 1)) % tasks.length]!;
          const answer = await ask(task.query, task.stack);
          if (answer !== serial.get(`${task.stack}\u0000${task.query}`)) mismatches++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = await health();
    const figures = {
      requests: clients * queriesPerClient,
      stacks: stacks.length,
      seconds: Math.round(seconds * 100) / 100,
      rssBeforeMiB: before.memory.rssMiB,
      rssAfterMiB: after.memory.rssMiB,
      peakRssMiB: after.memory.peakRssMiB,
      heapUsedAfterMiB: after.memory.heapUsedMiB,
    };
    console.log(`load test: ${JSON.stringify(figures)}`);
    expect(mismatches).toBe(0);
    expect(after.requests.inFlight).toBe(0);
    expect(after.requests.failed).toBe(0);
    expect(after.requests.served - before.requests.served).toBe(clients * queriesPerClient);
    expect(after.memory.peakRssMiB).toBeLessThan(maxPeakRssMiB);
    expect(after.memory.rssMiB - before.memory.rssMiB).toBeLessThan(maxGrowthMiB);
  });
});

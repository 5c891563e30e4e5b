import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkingPlanner, storeContext } from '@weft/conformance';
import { toySkb } from '@weft/core/test';
import { cassetteModel } from '@weft/llm';
import type { GraphStoreV1, RetrievalContext } from '@weft/spec';
import { describe, it } from 'vitest';
import { CypherPlanner } from './cypher-planner.ts';
import { type CypherCase, type CypherOutcome, cypherCases } from './testing/cypher-cases.ts';

// WEFT_RECORD_CASSETTES=1 re-records src/fixtures/*.jsonl from the mocks.
const recording = process.env.WEFT_RECORD_CASSETTES === '1';
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const cassetteOf = (c: CypherCase) =>
  path.join(fixtures, `cypher-planner-${c.name.replace(/\W+/g, '-')}.jsonl`);

type LanguageModel = NonNullable<RetrievalContext['languageModel']>;

/** The store's graph, counting doCypher calls: a planner must never run the model's query. */
function watchedGraph(graph: GraphStoreV1) {
  let calls = 0;
  const watched: GraphStoreV1 = new Proxy(graph, {
    get(target, property) {
      if (property === 'doCypher')
        return (...args: Parameters<GraphStoreV1['doCypher']>) => {
          calls++;
          return target.doCypher(...args);
        };
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { watched, calls: () => calls };
}

async function planWith(
  c: CypherCase,
  model: LanguageModel,
  timeoutMs = c.timeoutMs,
): Promise<CypherOutcome> {
  const warnings: string[] = [];
  const fallback = linkingPlanner({ confidence: 0.2 });
  const base = storeContext(toySkb());
  const graph = watchedGraph(base.graph);
  const counts = async () => {
    const stats = await base.graph.doStats();
    return { nodes: stats.nodes, edges: stats.edges };
  };
  const countsBefore = await counts();
  const context = {
    ...base,
    graph: graph.watched,
    languageModel: model,
    warn: (m: string) => warnings.push(m),
  };
  const planner = new CypherPlanner({ fallback, ...(timeoutMs ? { timeoutMs } : {}) });
  const plan = await planner.doPlan({ query: c.query, feedback: [], context });
  const offline = await fallback.doPlan({ query: c.query, feedback: [], context: storeContext(toySkb()) });
  return { plan, offline, warnings, cypherCalls: graph.calls(), countsBefore, countsAfter: await counts() };
}

describe('CypherPlanner on every failure mode', () => {
  for (const c of cypherCases) {
    it(`${c.name}, with an AI SDK mock`, async () => {
      c.check(await planWith(c, c.model()));
    });

    it(`${c.name}, replayed from a recorded cassette without a network`, async () => {
      const cassette = cassetteOf(c);
      if (recording)
        await planWith(
          c,
          cassetteModel({ model: c.model(), cassette, mode: 'record' }),
          c.recordTimeoutMs ?? c.timeoutMs,
        );
      c.check(await planWith(c, cassetteModel({ cassette, mode: 'replay', latency: 'recorded' })));
    });
  }
});

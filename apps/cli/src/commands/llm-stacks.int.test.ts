import { openStore } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import {
  type CannedReply,
  type CannedRequest,
  cannedOpenAiServer,
  deadPort,
} from '../testing/canned-openai-server.ts';
import { toyWorkspace } from '../testing/toy-store.ts';
import { commands } from './index.ts';

// mor and focused end to end on a real store (Kùzu + LanceDB, built by weft ingest from the toy
// bundle), through the real openai-compatible provider, against an OpenAI-compatible server this
// test runs on 127.0.0.1 with canned replies: the provider path, the metering and the fallbacks,
// with no external service.

const pathPlan = JSON.stringify({
  targetTypes: ['product'],
  anchors: [{ mention: 'Nikon', type: 'brand' }],
  paths: [
    {
      anchor: 'Nikon',
      hops: [{ edge: 'made_by', direction: 'in', nodeType: 'product', restriction: 'zoom lens' }],
    },
  ],
  restriction: 'zoom lens',
});
const cypher =
  "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) WHERE p.text CONTAINS 'lens' RETURN p";

/** Replies by what is asked; the question's words pick the failure modes. */
function reply(request: CannedRequest): CannedReply {
  // The last "Question:" of the prompt is the one asked (few-shot examples come before it).
  const question = [...request.text.matchAll(/Question: "([^"]*)"/g)].at(-1)?.[1] ?? '';
  if (request.text.includes('read-only Cypher')) {
    if (question.includes('free'))
      return { content: "```cypher\nCREATE (p:product {name: 'Free camera', text: 'lens'}) RETURN p\n```" };
    return { content: `\`\`\`cypher\n${cypher}\n\`\`\``, promptTokens: 300, completionTokens: 30 };
  }
  if (request.text.includes('You rank candidates')) {
    if (question.includes('broken')) return { status: 500, error: 'upstream exploded' };
    return { content: '{"ranking": [2, 1]}', promptTokens: 200, completionTokens: 10 };
  }
  if (question.includes('Canon')) return { content: '{"paths": [{"anchor": "Canon", "hops": [' };
  return { content: pathPlan, promptTokens: 400, completionTokens: 60 };
}

describe('the LLM stacks through the openai-compatible provider (real store, canned server)', () => {
  let workspace: Awaited<ReturnType<typeof toyWorkspace>>;
  let server: Awaited<ReturnType<typeof cannedOpenAiServer>>;
  let model = '';
  beforeAll(async () => {
    workspace = await toyWorkspace();
    const c = captureIo();
    const code = await runCli(['ingest', workspace.bundle, '--db', workspace.db], c.io, commands);
    if (code !== 0) throw new Error(`weft ingest failed: ${c.err()}`);
    server = await cannedOpenAiServer(reply);
    model = `openai-compatible:${server.baseURL}:canned-model`;
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await workspace?.cleanup();
  });

  const weft = async (...argv: string[]) => {
    const c = captureIo();
    const code = await runCli(argv, c.io, commands);
    return { code, out: c.out(), err: c.err() };
  };
  /** `weft query <question> --db <store> --stack <stack> --json [extra…]`: exits 0, its JSON parsed. */
  const queryJson = async (question: string, stack: string, ...extra: string[]) => {
    const { code, out } = await weft(
      'query',
      question,
      '--db',
      workspace.db,
      '--stack',
      stack,
      '--json',
      ...extra,
    );
    expect(code).toBe(0);
    return JSON.parse(out);
  };
  const graphCounts = async () => {
    const store = await openStore(workspace.db);
    try {
      const stats = await store.graph.doStats();
      return { nodes: stats.nodes, edges: stats.edges, byType: stats.nodesByType };
    } finally {
      await store.close();
    }
  };

  it('mor: the model plans the paths over HTTP; one call metered with the provider’s token usage', async () => {
    const before = server.requests.length;
    const result = await queryJson(
      'Nikon zoom lens',
      'mor',
      '--model',
      model,
      '--llm-when',
      'always',
      '--explain',
    );
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      path: '/v1/chat/completions',
      body: { model: 'canned-model', temperature: 0 },
    });
    expect(sent[0]!.body.messages![0]).toMatchObject({ role: 'system' });
    // Weft's own providerOptions (the call's purpose) never reach the wire.
    expect(JSON.stringify(sent[0]!.body)).not.toContain('plan paths');
    expect(result.llm).toMatchObject({ calls: 1, inputTokens: 400, outputTokens: 60 });
    expect(result.explanation.plan.raw).toBe(pathPlan);
    expect(result.explanation.plan.paths[0].hops[0]).toMatchObject({ edgeType: 'made_by', direction: 'in' });
    expect(result.results.map((r: { id: string }) => r.id)).toContain('p:nikkor');
  });

  it('mor: invalid JSON from the model falls back to the offline plan, and the trace says why', async () => {
    const result = await queryJson('Canon zoom lens', 'mor', '--model', model, '--llm-when', 'always');
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.warnings).toContainEqual(
      expect.stringMatching(
        /^planner llm-paths: plan paths: the answer is not valid JSON .*; the offline plan is used$/,
      ),
    );
    expect(result.llm.calls).toBe(1);
  });

  it('focused: Cypher parsed and grounded, the listwise reranker asked; two calls metered', async () => {
    const result = await queryJson('Nikon zoom lens', 'focused', '--model', model, '--explain');
    expect(result.explanation.plan.cypher).toBe(cypher);
    expect(result.explanation.plan.anchors[0].candidates[0].id).toBe('b:nikon');
    expect(result.llm).toMatchObject({ calls: 2, inputTokens: 500, outputTokens: 40 });
    expect(result.llm.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'planner cypher',
      'reranker llm-listwise',
    ]);
    const reached = result.explanation.trajectories['p:nikkor'];
    expect(reached[0].hops.map((h: { node: string }) => h.node)).toEqual(['b:nikon', 'p:nikkor']);
  });

  it('focused: a writing query is rejected before anything runs; the graph’s counts are unchanged', async () => {
    const before = await graphCounts();
    const result = await queryJson('free Nikon lens', 'focused', '--model', model);
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.warnings).toContainEqual(
      expect.stringMatching(
        /^planner cypher: write cypher: the model's query was rejected before anything ran: CREATE is not allowed/,
      ),
    );
    expect(await graphCounts()).toEqual(before);
    const [missing] = await (async () => {
      const store = await openStore(workspace.db);
      try {
        return await store.graph.doLookup(['Free camera'], { fuzzy: false });
      } finally {
        await store.close();
      }
    })();
    expect(missing).toEqual([]);
  });

  it('focused: a provider error in the reranker keeps the offline ranking', async () => {
    const result = await queryJson('broken Nikon lens', 'focused', '--model', model);
    expect(result.warnings).toContainEqual(
      expect.stringMatching(/^reranker llm-listwise: rank candidates: the provider failed with HTTP 500/),
    );
    expect(result.results.length).toBeGreaterThan(0);
  });

  it('focused with a dead port: a ranking, exit 0, and the model said unreachable', async () => {
    const port = await deadPort();
    const result = await queryJson(
      'Nikon zoom lens',
      'focused',
      '--model',
      `openai-compatible:http://127.0.0.1:${port}/v1:x`,
    );
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.warnings.filter((w: string) => /the model is unreachable/.test(w))).toHaveLength(2);
  });

  it('weft eval --stack mor --stack focused reports LLM calls and tokens per query', async () => {
    const before = server.requests.length;
    const { code, out, err } = await weft(
      'eval',
      workspace.bundle,
      '--db',
      workspace.db,
      '--set',
      'toy',
      '--split',
      'test',
      '--stack',
      'mor',
      '--stack',
      'focused',
      '--model',
      model,
      '--llm-when',
      'always',
      '--json',
      '--concurrency',
      '2',
    );
    expect(err).not.toMatch(/weft eval:/);
    expect(code).toBe(0);
    const summary = JSON.parse(out);
    const byName = Object.fromEntries(summary.stacks.map((s: { stack: string }) => [s.stack, s]));
    expect(Object.keys(byName)).toEqual(['bm25', 'mor', 'focused']);
    expect(byName.bm25).toMatchObject({ llmCallsPerQuery: 0, tokensPerQuery: { input: 0, output: 0 } });
    // Five test queries: mor asks once each (400 + 60), focused twice (300 + 30, 200 + 10).
    expect(byName.mor).toMatchObject({
      llmCallsPerQuery: 1,
      llmCallsMedian: 1,
      tokensPerQuery: { input: 400, output: 60 },
    });
    expect(byName.focused).toMatchObject({
      llmCallsPerQuery: 2,
      llmCallsMedian: 2,
      tokensPerQuery: { input: 500, output: 40 },
    });
    expect(server.requests.length - before).toBe(5 + 10);
  }, 120_000);
});

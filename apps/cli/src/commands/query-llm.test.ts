import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createStackRegistry } from '@weft/stacks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { cannedOpenAiServer, deadPort } from '../testing/canned-openai-server.ts';
import { toyOpener } from '../testing/toy-store.ts';
import { createQueryCommand } from './query.ts';

const command = () => createQueryCommand({ openStore: toyOpener().open, registry: createStackRegistry() });
const query = (argv: readonly string[]) => {
  const c = captureIo();
  return runCli(['query', 'lenses made by Nikon', '--db', 'store', ...argv], c.io, [command()]).then(
    (code) => ({
      code,
      out: c.out(),
      err: c.err(),
    }),
  );
};

const cypher =
  "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) WHERE p.text CONTAINS 'lens' RETURN p";

describe('weft query with a language model', () => {
  let server: Awaited<ReturnType<typeof cannedOpenAiServer>>;
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'weft-query-llm-'));
    server = await cannedOpenAiServer((request) =>
      request.text.includes('read-only Cypher')
        ? { content: `\`\`\`cypher\n${cypher}\n\`\`\``, promptTokens: 321, completionTokens: 34 }
        : { content: '{"ranking": [1, 2]}', promptTokens: 210, completionTokens: 9 },
    );
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('with an unreachable model (dead port) still ranks, exits 0 and says the model was unreachable', async () => {
    const port = await deadPort();
    const { code, out } = await query([
      '--stack',
      'focused',
      '--model',
      `openai-compatible:http://127.0.0.1:${port}/v1:x`,
      '--json',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^planner cypher: write cypher: the model is unreachable at http://127\\.0\\.0\\.1:${port}/v1/chat/completions .*; the offline plan is used$`,
          ),
        ),
        expect.stringMatching(
          /^reranker llm-listwise: rank candidates: the model is unreachable .*the offline ranking is kept/,
        ),
      ]),
    );
    expect(result.llm.stages.map((s: { outcomes: { outcome: string }[] }) => s.outcomes[0]!.outcome)).toEqual(
      ['error', 'error'],
    );
  });

  it('reports LLM calls and tokens per query in --json, read from the provider’s usage', async () => {
    const { code, out } = await query([
      '--stack',
      'focused',
      '--model',
      `openai-compatible:${server.baseURL}:canned`,
      '--json',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.llm).toMatchObject({
      calls: 2,
      inputTokens: 531,
      outputTokens: 43,
      stages: [
        {
          stage: 'planner cypher',
          calls: 1,
          inputTokens: 321,
          outputTokens: 34,
          outcomes: [{ purpose: 'write cypher', outcome: 'ok' }],
        },
        {
          stage: 'reranker llm-listwise',
          calls: 1,
          inputTokens: 210,
          outputTokens: 9,
          outcomes: [{ purpose: 'rank candidates', outcome: 'ok' }],
        },
      ],
    });
    // Only that the toy store is untrained (its offline planner, computed as the fallback).
    expect(result.warnings.filter((w: string) => !/untrained/.test(w))).toEqual([]);
    expect(result.results.map((r: { id: string }) => r.id)).toContain('p:nikkor');
  });

  it('--explain shows each LLM call’s stage, purpose and outcome, and the Cypher', async () => {
    const { code, out } = await query([
      '--stack',
      'focused',
      '--model',
      `openai-compatible:${server.baseURL}:canned`,
      '--explain',
    ]);
    expect(code).toBe(0);
    expect(out).toContain(`  cypher: ${cypher}`);
    expect(out).toMatch(
      /LLM calls:\n {2}planner cypher: write cypher → ok \(321 \+ 34 tokens, [\d.]+ ms, openai-compatible\.chat:canned\)\n {2}reranker llm-listwise: rank candidates → ok \(210 \+ 9 tokens/,
    );
  });

  it('records a run into a cassette and replays it without the server', async () => {
    const cassette = path.join(folder, 'run.jsonl');
    const recorded = await query([
      '--stack',
      'focused',
      '--model',
      `openai-compatible:${server.baseURL}:canned`,
      '--record',
      cassette,
      '--json',
    ]);
    const before = server.requests.length;
    const replayed = await query(['--stack', 'focused', '--replay', cassette, '--json']);
    expect(server.requests.length).toBe(before);
    const [a, b] = [JSON.parse(recorded.out), JSON.parse(replayed.out)];
    expect(b.results.map((r: { id: string }) => r.id)).toEqual(a.results.map((r: { id: string }) => r.id));
    expect(b.llm).toMatchObject({ calls: 2, inputTokens: 531, outputTokens: 43 });
    // Another question is not in the cassette: a miss, said so, and still a ranking.
    const c = captureIo();
    const code = await runCli(
      ['query', 'cameras by Canon', '--db', 'store', '--stack', 'focused', '--replay', cassette, '--json'],
      c.io,
      [command()],
    );
    expect(code).toBe(0);
    expect(JSON.parse(c.out()).warnings.join('\n')).toMatch(
      /cassette miss: .*run\.jsonl has no recorded answer for this "write cypher" request/,
    );
  });

  it('prints the fallbacks on stderr in plain output, and refuses a bad --llm-when with exit 2', async () => {
    const port = await deadPort();
    const plain = await query([
      '--stack',
      'mor',
      '--llm-when',
      'always',
      '--model',
      `openai-compatible:http://127.0.0.1:${port}/v1:x`,
    ]);
    expect(plain.code).toBe(0);
    expect(plain.err).toMatch(/^note: planner llm-paths: plan paths: the model is unreachable/m);
    const bad = await query(['--stack', 'mor', '--llm-when', 'often']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--llm-when must be unsure, always, never/);
  });

  it('an LLM stack without a model says so on stderr in plain output; an offline stack says nothing', async () => {
    const plain = await query(['--stack', 'focused']);
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/p:nikkor/);
    expect(plain.err).toMatch(
      /^note: stack focused asks a language model and none was given \(--model SPEC or WEFT_MODEL\): planner cypher, reranker llm-listwise ran offline$/m,
    );
    expect((await query(['--stack', 'bm25'])).err).not.toMatch(/language model/);
  });
});

import { runRetrieverSuite } from '@weft/conformance';
import { FileArtifactStore, retrieve, type StackDefinition } from '@weft/core';
import { MockLanguageModelV4, textResult, toyContext } from '@weft/core/test';
import { expertGateArtifact } from '@weft/traverser-mixrag';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Candidate } from '@weft/spec';
import { createStack, createStackRegistry, pprStack } from './index.ts';

for (const name of ['mixrag-offline', 'mixrag', 'ppr']) {
  runRetrieverSuite({ name: `${name} stack`, create: (context) => createStack(name, { context }) });
}

describe('the MixRAG and PPR stacks', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('mixrag-offline trains its gate, reports the expert weights per set and reads the gate back', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'weft-mixrag-'));
    folders.push(folder);
    const artifacts = new FileArtifactStore(folder);
    const context = toyContext({ vectors: false });
    const queries = [
      { id: 'a', query: 'Nikon telephoto zoom lens', answers: ['p:nikkor'], split: 'train' as const },
      { id: 'b', query: 'Canon camera for sports', answers: ['p:eos'], split: 'train' as const },
      { id: 'c', query: 'lens with EF mount made by Canon', answers: ['p:ef'], split: 'val' as const },
      { id: 'd', query: 'Nikon entry level DSLR', answers: ['p:d3500'], split: 'val' as const },
    ];
    const [step] = (await createStackRegistry().entry('mixrag-offline')).training!;
    const report = await step!.doTrain({
      context: { ...context, artifacts },
      sets: [
        {
          name: 'toy',
          train: queries.filter((q) => q.split === 'train'),
          val: queries.filter((q) => q.split === 'val'),
        },
      ],
    });
    expect(report.summary).toMatch(
      /^gate (fitted|untrained) .* toy: entity \d\.\d\d relation \d\.\d\d subgraph \d\.\d\d$/,
    );
    const gate = await expertGateArtifact.load(artifacts, 'mixrag.gate');
    expect(gate.status).toBe('loaded');
    const retriever = await createStack('mixrag-offline', { context: { ...context, artifacts } });
    const { ranking, trace } = await retrieve(retriever, { query: 'Nikon telephoto zoom lens', limit: 5 });
    expect(ranking.slice(0, 3).map((c) => c.id)).toContain('p:nikkor');
    const warnings = trace.stages.flatMap((s) => s.warnings ?? []);
    expect(warnings.some((w) => w.includes('mixrag.gate'))).toBe(false);
    expect(trace.llmCalls).toBe(0);
  });

  it('mixrag asks its model to weigh the experts, within a budget of one call', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => textResult('{"entity": 1, "relation": 1, "subgraph": 2}'),
    });
    const retriever = await createStack('mixrag', { context: toyContext({ vectors: false }) });
    const offline = await retrieve(retriever, { query: 'Nikon telephoto zoom lens', limit: 3 });
    expect(offline.trace.llmCalls).toBe(0);
    const withModel = await createStack(
      'mixrag',
      { context: toyContext({ vectors: false }) },
      { languageModel: model },
    );
    const { ranking, trace } = await retrieve(withModel, { query: 'Nikon telephoto zoom lens', limit: 3 });
    expect(trace.llmCalls).toBe(1);
    expect(ranking[0]!.scores.gateSubgraph).toBeCloseTo(0.5, 9);
  });

  it("ppr's fusion counts BM25 twice: where the walk and BM25 swap two nodes, BM25's order wins", async () => {
    const definition = (await pprStack.create(
      { context: toyContext({ vectors: false }) },
      {},
    )) as StackDefinition;
    const candidate = (id: string): Candidate => ({ id, score: 1, scores: {}, trajectories: [] });
    const walk = [candidate('a'), candidate('b')];
    const bm25 = [candidate('b'), candidate('a')];
    expect(definition.fusion?.fuse([walk, bm25], { limit: 2 }).map((c) => c.id)).toEqual(['b', 'a']);
  });

  it('ppr makes no LLM call and finds the products of a named brand', async () => {
    const retriever = await createStack('ppr', { context: toyContext({ vectors: false }) });
    const { ranking, trace } = await retrieve(retriever, { query: 'Leica camera', limit: 5 });
    expect(trace.llmCalls).toBe(0);
    expect(ranking.map((c) => c.id)).toContain('p:q2');
  });
});

import type { ArtifactEnvelope } from '@weft/core';
import { memoryArtifacts, toyContext, toyTrainingSet } from '@weft/core/test';
import type { LexicalPlannerModel } from '@weft/planner-lexical';
import { describe, expect, it } from 'vitest';
import { defaultStack } from './default-stack.ts';

const sets = [
  toyTrainingSet(
    [
      ['products by Nikon', ['p:d850', 'p:d3500', 'p:nikkor']],
      ['products by Canon', ['p:eos', 'p:ef']],
      ['products by Leica', ['p:q2']],
      ['what works with the Canon EOS 90D', ['p:ef']],
      ['what works with the Nikon D850', ['p:nikkor']],
      ['what works with the Nikon D3500', ['p:nikkor']],
      ['lenses made by Nikon', ['p:nikkor']],
      ['lenses made by Canon', ['p:ef']],
      ['a light entry level camera', ['p:d3500']],
      ['a rangefinder style compact with a fixed lens', ['p:q2']],
      // A mention that names no anchor (the Leica Q2 is next to neither answer).
      ['a camera like the Leica Q2 but made by Nikon', ['p:d850', 'p:d3500']],
      ['a lens like the Canon EF 100-400mm but made by Nikon', ['p:nikkor']],
    ],
    3,
  ),
];

describe('default stack training', () => {
  it('fits the planner (answer types, relations) and the reranker on labelled queries', async () => {
    const artifacts = memoryArtifacts();
    const store = { context: { ...toyContext(), artifacts } };
    const report = await defaultStack.train!(store, { sets, artifacts });
    const stored = artifacts.stored.get('default.planner-lexical') as ArtifactEnvelope<LexicalPlannerModel>;
    expect(stored.value.types.labels).toContain('product');
    expect(stored.value.relations.labels).toContain('made_by|in');
    // Grounding models fitted on the labelled queries are tried beside the fixed weights, simpler first.
    const tried = (report.details as { planner: { groundingModels: { groundingModels: boolean }[] } }).planner
      .groundingModels;
    expect(tried.map((t) => t.groundingModels)).toEqual([false, true]);
    expect(report.summary).toMatch(
      /^planner: \d+ answer types, \d+ relations, grounding models (kept|dropped) \(val [\d.]+ with, [\d.]+ without\); reranker/,
    );
  });

  it('learns no phrasing of types and relations from synthesised queries alone', async () => {
    const artifacts = memoryArtifacts();
    const store = { context: { ...toyContext(), artifacts } };
    const report = await defaultStack.train!(store, {
      sets: sets.map((set) => ({ ...set, synthesized: true })),
      artifacts,
    });
    const stored = artifacts.stored.get('default.planner-lexical') as ArtifactEnvelope<LexicalPlannerModel>;
    expect(stored.value.relations.labels).toEqual([]);
    expect(report.summary).toMatch(/^planner: trained on \d+ queries synthesised from the store \(no labelled ones/);
  });
});

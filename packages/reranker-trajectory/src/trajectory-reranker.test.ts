import { runRerankerSuite } from '@internal/conformance';
import { emptyPlan } from '@weft/core';
import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
import type { Candidate, RetrievalContext } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { trainTrajectoryReranker } from './train-trajectory-reranker.ts';
import { TrajectoryReranker } from './trajectory-reranker.ts';

runRerankerSuite({
  name: 'TrajectoryReranker (fixed weights)',
  create: async () => new TrajectoryReranker(),
});

function candidate(id: string, structure: number, bm25: number): Candidate {
  return {
    id,
    score: bm25,
    scores: { structure, bm25Global: bm25, bm25InSet: bm25 },
    trajectories: [{ hops: [{ node: id, via: structure > 0 ? 'structure' : 'text' }] }],
  };
}

describe('trainTrajectoryReranker', () => {
  const skb = toySkb();
  const context: RetrievalContext = {
    schema: skb.schema,
    graph: new InMemoryGraphStore(skb),
    text: new InMemoryTextIndex(skb.nodes),
  };

  it('learns that structure matters more than text when the train answers say so, and stores the model', async () => {
    // Answers are always the structural candidate, never the best text match.
    const examples = Array.from({ length: 30 }, (_, q) => ({
      candidates: [
        candidate(`t${q}`, 0, 1),
        candidate(`s${q}`, 1, 0.3 + (q % 5) / 20),
        candidate(`n${q}`, 0, 0.2),
      ],
      answers: [`s${q}`],
    }));
    const stored = new Map<string, unknown>();
    const withArtifacts = {
      ...context,
      artifacts: {
        get: async <T>(n: string) => stored.get(n) as T,
        put: async (n: string, v: unknown) => void stored.set(n, v),
      },
    };
    const result = await trainTrajectoryReranker(withArtifacts, examples.slice(0, 20), examples.slice(20));
    expect(result.val[0]!.hit1).toBe(100);
    const reranker = new TrajectoryReranker();
    const query = 'q';
    const ranked = await reranker.doRerank({
      query,
      plan: emptyPlan(query, skb.schema),
      candidates: examples[0]!.candidates,
      limit: 3,
      context: withArtifacts,
    });
    expect(ranked[0]!.id).toBe('s0');
  });
});

describe('trainTrajectoryReranker objectives', () => {
  // The answer is the structural candidate the text agrees with: neither structure alone (a
  // structural candidate with no text match) nor text alone (a stronger text-only match) finds it.
  const structural = (id: string, bm25: number): Candidate => {
    const c = candidate(id, 1, bm25);
    return { ...c, scores: { ...c.scores, structureShare: 1 } };
  };
  const examples = Array.from({ length: 40 }, (_, q) => ({
    candidates: [
      candidate(`t${q}`, 0, 0.9),
      structural(`s${q}`, 0.05),
      structural(`a${q}`, 0.5 + (q % 4) / 20),
      structural(`z${q}`, 0.1),
    ],
    answers: [`a${q}`],
  }));

  for (const objective of ['pairwise', 'pointwise'] as const) {
    it(`${objective}: ranks the structural candidate the text agrees with first, and reports the objective`, async () => {
      const result = await trainTrajectoryReranker(undefined, examples.slice(0, 30), examples.slice(30), {
        objectives: [objective],
      });
      expect(result.val.every((v) => v.objective === objective)).toBe(true);
      expect(result.val[0]!.hit1).toBe(100);
    });
  }

  it('tries both objectives by default and keeps the best on val', async () => {
    const result = await trainTrajectoryReranker(undefined, examples.slice(0, 30), examples.slice(30));
    expect(new Set(result.val.map((v) => v.objective))).toEqual(new Set(['pairwise', 'pointwise']));
    expect(result.val[0]!.hit1).toBeGreaterThanOrEqual(Math.max(...result.val.map((v) => v.hit1)));
  });
});

describe('trainTrajectoryReranker gate-only examples', () => {
  const structural = (id: string, bm25: number): Candidate => {
    const c = candidate(id, 1, bm25);
    return { ...c, scores: { ...c.scores, structureShare: 1 } };
  };
  const relational = Array.from({ length: 40 }, (_, q) => ({
    candidates: [candidate(`t${q}`, 0, 0.9), structural(`a${q}`, 0.3 + (q % 4) / 20)],
    answers: [`a${q}`],
  }));
  // Text-only queries: the answer is the best text match, no path reached it.
  const textOnly = Array.from({ length: 20 }, (_, q) => ({
    candidates: [structural(`s${q}`, 0.2), candidate(`t${q}`, 0, 0.9)],
    answers: [`t${q}`],
    gateOnly: true,
  }));

  it('never shape the trajectory model, only the gate', async () => {
    const without = await trainTrajectoryReranker(undefined, relational.slice(0, 30), relational.slice(30), {
      gate: false,
    });
    const withText = await trainTrajectoryReranker(
      undefined,
      [...relational.slice(0, 30), ...textOnly.slice(0, 15)],
      [...relational.slice(30), ...textOnly.slice(15)],
      { gate: false },
    );
    expect(withText.model.linear).toEqual(without.model.linear);
    expect(withText.val).toEqual(without.val);
  });
});

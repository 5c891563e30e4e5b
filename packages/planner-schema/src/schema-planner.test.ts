import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
import type { RetrievalContext, SkbQuery } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { candidateSpans } from './hypotheses.ts';
import { SchemaPlanner } from './schema-planner.ts';
import { trainSchemaPlanner } from './train-schema-planner.ts';

const skb = toySkb();
const memory = new Map<string, unknown>();
const context: RetrievalContext = {
  schema: skb.schema,
  graph: new InMemoryGraphStore(skb),
  text: new InMemoryTextIndex(skb.nodes),
  artifacts: {
    async get<T>(name: string) {
      return memory.get(name) as T | undefined;
    },
    async put(name: string, value: unknown) {
      memory.set(name, value);
    },
  },
};

describe('SchemaPlanner', () => {
  it('finds spans, quoted phrases first, never starting or ending with a function word', () => {
    const spans = candidateSpans("Which lens of the 'Nikon' brand fits?", 4, 100).map((s) => s.text);
    expect(spans[0]).toBe('Nikon');
    expect(spans).toContain('lens');
    expect(spans).not.toContain('of the');
  });

  it('links the named brand and plans the made_by path into products without a model', async () => {
    const plan = await new SchemaPlanner().doPlan({
      query: 'cameras made by Nikon for wildlife',
      feedback: [],
      context,
    });
    const anchor = plan.anchors.find((a) => a.candidates.some((c) => c.id === 'b:nikon'));
    expect(anchor).toBeDefined();
    const path = plan.paths.find(
      (p) => plan.anchors[p.anchor!] === anchor && p.hops[0]!.edgeType === 'made_by',
    );
    expect(path).toBeDefined();
    expect(path?.hops[0]?.direction).toBe('in');
    expect(plan.restriction.toLowerCase()).toContain('wildlife');
    expect(plan.restriction).not.toContain('Nikon');
    expect(plan.triplets.length).toBeGreaterThan(0);
  });

  it('learns cue words for a relation from train queries and ranks that path first', async () => {
    const train: SkbQuery[] = [
      { id: 'q1', query: 'products by Nikon', answers: ['p:d850', 'p:d3500', 'p:nikkor'], split: 'train' },
      { id: 'q2', query: 'products by Canon', answers: ['p:eos', 'p:ef'], split: 'train' },
      { id: 'q3', query: 'products by Leica', answers: ['p:q2'], split: 'train' },
      { id: 'q4', query: 'what works with the Canon EOS 90D', answers: ['p:ef'], split: 'train' },
      { id: 'q5', query: 'what works with the Nikon D850', answers: ['p:nikkor'], split: 'train' },
    ];
    const model = await trainSchemaPlanner(context, train, [], { minSupport: 1 });
    expect(model.metapaths).toContain('made_by:in');
    expect(memory.has('planner-schema.model')).toBe(true);
    const plan = await new SchemaPlanner().doPlan({ query: 'products by Canon', feedback: [], context });
    expect(plan.paths[0]!.hops.map((h) => `${h.edgeType}:${h.direction}`)).toEqual(['made_by:in']);
    expect(plan.anchors[plan.paths[0]!.anchor!]!.candidates[0]!.id).toBe('b:canon');
  });

  it('never throws on hostile queries', async () => {
    const planner = new SchemaPlanner();
    for (const query of ['', '   ', '相机 とカメラ', 'zzzz qqqq', 'a '.repeat(40), "''", 'the of and']) {
      const plan = await planner.doPlan({ query, feedback: [], context });
      expect(plan.query).toBe(query);
      expect(Array.isArray(plan.paths)).toBe(true);
    }
  });
});

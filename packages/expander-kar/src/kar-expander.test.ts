import { runExpanderSuite } from '@weft/conformance';
import { toyContext } from '@weft/core/test';
import { contentWords } from '@weft/grounding';
import { describe, expect, it } from 'vitest';
import { composeExpansion } from './compose-expansion.ts';
import { gatherKnowledge } from './gather-knowledge.ts';
import { KarExpander } from './kar-expander.ts';

const context = toyContext();
const query = 'a telephoto zoom that fits the "Nikon D850"';

describe('gatherKnowledge', () => {
  it('links the named entities and keeps the neighbours whose documents match the question, best first', async () => {
    const knowledge = await gatherKnowledge(query, context);
    expect(knowledge.entities.map((e) => e.id)).toContain('p:d850');
    const ids = knowledge.neighbours.map((n) => n.id);
    // The Nikkor lens (compatible with the D850) matches "telephoto zoom lens … birds" best.
    expect(ids[0]).toBe('p:nikkor');
    expect(knowledge.neighbours.map((n) => n.score)).toEqual(
      [...knowledge.neighbours.map((n) => n.score)].sort((a, b) => b - a),
    );
    expect(
      knowledge.neighbours.every((n) => n.hops === 1 && knowledge.entities.some((e) => e.id === n.entity)),
    ).toBe(true);
    // Triples follow the edge as stored: the lens is compatible with the camera.
    expect(knowledge.triples[0]).toEqual({
      subject: 'AF-S Nikkor 200-500mm',
      relation: 'compatible with',
      object: 'Nikon D850',
    });
  });

  it('keeps at most k, and none that matches the question worse than minRelevance allows', async () => {
    const all = await gatherKnowledge(query, context, { minRelevance: 0 });
    expect((await gatherKnowledge(query, context, { k: 1, minRelevance: 0 })).neighbours).toHaveLength(1);
    const strict = await gatherKnowledge(query, context, { minRelevance: 1 });
    expect(strict.neighbours.length).toBeLessThan(all.neighbours.length);
  });

  it('filters by names only on request (the ablation), and reaches two hops on request', async () => {
    const byName = await gatherKnowledge('Nikon D850 and Nikon D3500', context, {
      filtering: 'name',
      minConfidence: 0.4,
    });
    expect(
      byName.neighbours.every((n) =>
        contentWords(n.name).some((w) => ['nikon', 'd850', 'd3500'].includes(w)),
      ),
    ).toBe(true);
    const one = await gatherKnowledge(query, context, { minRelevance: 0 });
    const two = await gatherKnowledge(query, context, { hops: 2, minRelevance: 0, k: 20 });
    expect(one.neighbours.some((n) => n.hops === 2)).toBe(false);
    expect(two.neighbours.some((n) => n.hops === 2)).toBe(true);
  });

  it('knows nothing of a question that names nothing', async () => {
    expect(await gatherKnowledge('something quiet for the evening', context)).toEqual({
      entities: [],
      neighbours: [],
      triples: [],
    });
  });
});

describe('composeExpansion', () => {
  it('adds names and best-matching sentences without outweighing the question', async () => {
    const knowledge = await gatherKnowledge(query, context, { minRelevance: 0 });
    const { expansion, query: expanded } = composeExpansion(query, knowledge);
    expect(expanded.startsWith(`${query} `)).toBe(true);
    // The best neighbour first, cut where the question would stop outweighing it.
    expect(expansion).toMatch(/^AF-S Nikkor 200-500mm: Telephoto/);
    expect(contentWords(expansion).length).toBeLessThanOrEqual(contentWords(query).length);
    const light = composeExpansion(query, knowledge, { weight: 0.2 });
    expect(contentWords(light.expansion).length).toBeLessThanOrEqual(
      Math.floor(0.25 * contentWords(query).length),
    );
  });

  it('repeats the question instead of cutting the expansion, and names only on request', async () => {
    const knowledge = await gatherKnowledge(query, context, { minRelevance: 0 });
    const repeated = composeExpansion(query, knowledge, { balance: 'repeat', weight: 0.2 });
    const copies = repeated.query.split(query).length - 1;
    expect(copies).toBeGreaterThan(1);
    expect(contentWords(repeated.expansion).length).toBeLessThanOrEqual(
      0.25 * copies * contentWords(query).length + 1,
    );
    const names = composeExpansion(query, knowledge, { sentences: false });
    expect(names.expansion.split(' ; ')[0]).toBe('AF-S Nikkor 200-500mm');
  });
});

describe('KarExpander', () => {
  it('returns the expanded question and the triples it used; "none" expands nothing', async () => {
    const expansion = await new KarExpander().doExpand({ query, context });
    expect(expansion.query).toBe(`${query} ${expansion.expansion}`);
    expect(expansion.expansion).toContain('AF-S Nikkor 200-500mm');
    expect(expansion.triples.length).toBeGreaterThan(0);
    expect(await new KarExpander({ knowledge: 'none' }).doExpand({ query, context })).toEqual({
      query,
      expansion: '',
      triples: [],
    });
  });
});

runExpanderSuite({ name: 'KarExpander', create: async () => new KarExpander() });
runExpanderSuite({
  name: 'KarExpander (two hops, repeat)',
  create: async () => new KarExpander({ hops: 2, balance: 'repeat' }),
});

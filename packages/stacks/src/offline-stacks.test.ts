import { retrieve } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { toyContext } from '@weft/core/test';
import { createStack } from './index.ts';

const store = { context: toyContext() };
const buildStack = (name: string, on: typeof store) => createStack(name, on);

/** Queries the offline stacks must survive: each returns a ranking (possibly empty) and never throws. */
const awkward: Record<string, { readonly query: string; readonly ranked: boolean }> = {
  'no linkable entity': { query: 'something rugged and weather sealed for the outdoors', ranked: true },
  'an entity of the wrong type': { query: 'Which brand is a DSLR camera made by Nikon D850?', ranked: true },
  'more than 30 words': {
    query: Array.from(
      { length: 6 },
      () => 'a light simple entry level camera with an F-mount for wildlife',
    ).join(' and '),
    ranked: true,
  },
  empty: { query: '', ranked: false },
  'only punctuation': { query: '?!  ... ---', ranked: false },
  'another script': { query: '日本のカメラはどれですか', ranked: false },
  'quotes and brackets': { query: `"Nikon" (the brand) 'F-mount' lens: [zoom] *`, ranked: true },
};

describe.each(['default', 'mor-offline', 'focused-offline'])('%s stack on awkward queries', (name) => {
  for (const [label, { query, ranked }] of Object.entries(awkward)) {
    it(`${label}: returns a ranking without throwing`, async () => {
      const retriever = await buildStack(name, store);
      const result = await retrieve(retriever, { query, limit: 10 });
      expect(result.trace.llmCalls).toBe(0);
      if (ranked) expect(result.ranking.length).toBeGreaterThan(0);
      else expect(Array.isArray(result.ranking)).toBe(true);
      // Ranked ids are unique and scores agree with the order.
      expect(new Set(result.ranking.map((c) => c.id)).size).toBe(result.ranking.length);
      for (let i = 1; i < result.ranking.length; i++)
        expect(result.ranking[i - 1]!.score).toBeGreaterThanOrEqual(result.ranking[i]!.score);
    });
  }
});

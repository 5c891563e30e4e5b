import { describe, expect, it } from 'vitest';
import { demoQueries } from './demo-queries.ts';

describe('demoQueries', () => {
  it('has 8 to 12 test queries with distinct ids that are no synset ids', () => {
    expect(demoQueries.length).toBeGreaterThanOrEqual(8);
    expect(demoQueries.length).toBeLessThanOrEqual(12);
    expect(new Set(demoQueries.map((q) => q.id)).size).toBe(demoQueries.length);
    for (const query of demoQueries) {
      expect(query.id).not.toMatch(/^wn/);
      expect(query.split).toBe('test');
    }
  });

  it('gives every query well-formed, distinct answers, each with its name in meta', () => {
    for (const query of demoQueries) {
      expect(query.answers.length).toBeGreaterThan(0);
      expect(new Set(query.answers).size).toBe(query.answers.length);
      for (const answer of query.answers) expect(answer).toMatch(/^wn31:\d{8}-[nvar]$/);
      expect(query.meta.answerNames).toHaveLength(query.answers.length);
    }
  });

  it('never names an answer in the question', () => {
    for (const query of demoQueries) {
      for (const name of query.meta.answerNames)
        expect(query.query.toLowerCase()).not.toContain(name.toLowerCase());
    }
  });
});

import { describe, expect, it } from 'vitest';
import { readHybridAnnotations, readQuerySet } from './query-sets.ts';
import { splitOf } from './split-of.ts';

const hybrid = await readQuerySet('hybrid');
const text = await readQuerySet('text');
const annotations = await readHybridAnnotations();

// The committed files on their own; that the answers exist and satisfy the relational parts is
// checked against a built bundle in build-pokemon-bundle.int.test.ts.
describe('the committed query sets', () => {
  it('have the planned sizes, numbered ids and the fixed split rule', () => {
    expect(hybrid.length).toBeGreaterThanOrEqual(90);
    expect(text.length).toBeGreaterThanOrEqual(60);
    for (const [prefix, set] of [
      ['pk-hyb', hybrid],
      ['pk-txt', text],
    ] as const) {
      set.forEach((query, i) => {
        expect(query.id).toBe(`${prefix}-${String(i + 1).padStart(3, '0')}`);
        expect(query.split, query.id).toBe(splitOf(query.id));
        expect(query.answers.length, query.id).toBeGreaterThan(0);
        expect(new Set(query.answers).size, query.id).toBe(query.answers.length);
      });
    }
  });

  it('have one annotation per hybrid query whose gold judgments are exactly its answers', () => {
    expect(annotations.map((a) => a.id)).toEqual(hybrid.map((q) => q.id));
    for (const [i, annotation] of annotations.entries()) {
      const query = hybrid[i]!;
      const gold = annotation.candidates.filter((c) => c.gold).map((c) => c.id);
      expect(gold.sort(), query.id).toEqual([...query.answers].sort());
      expect(gold.length, `${query.id}: gold must be a strict subset`).toBeLessThan(
        annotation.candidates.length,
      );
      expect(annotation.candidates.every((c) => c.reason.length > 0)).toBe(true);
      expect(query.meta?.candidates, query.id).toBe(annotation.candidates.length);
    }
  });

  it('carry their relational part and textual requirement in meta', () => {
    for (const query of hybrid) {
      expect(query.meta, query.id).toMatchObject({
        template: expect.any(String),
        hops: expect.any(String),
        relational_part: expect.any(String),
        textual_requirement: expect.any(String),
        judged: expect.any(String),
      });
    }
  });
});

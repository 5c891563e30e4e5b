import { describe, expect, it } from 'vitest';
import { type HybridAnnotation, relationPaths } from '@weft-dev/judged-queries';
import { type AnnotatedSetName, readAnnotations, readQuerySet } from './query-sets.ts';
import { splitOf } from './split-of.ts';

const hybrid = await readQuerySet('hybrid');
const text = await readQuerySet('text');
const described = await readQuerySet('described');
const annotations: Record<AnnotatedSetName, HybridAnnotation[]> = {
  hybrid: await readAnnotations('hybrid'),
  described: await readAnnotations('described'),
};
const annotated = { hybrid, described } as const;

// The committed files on their own; that the answers exist and satisfy the relational parts, and
// that no described query names its anchors, is checked against a built bundle in
// build-pokemon-bundle.int.test.ts.
describe('the committed query sets', () => {
  it('have the planned sizes, numbered ids and the fixed split rule', () => {
    expect(hybrid.length).toBeGreaterThanOrEqual(90);
    expect(text.length).toBeGreaterThanOrEqual(60);
    expect(described.length).toBeGreaterThanOrEqual(80);
    for (const [prefix, set] of [
      ['pk-hyb', hybrid],
      ['pk-txt', text],
      ['pk-des', described],
    ] as const) {
      set.forEach((query, i) => {
        expect(query.id).toBe(`${prefix}-${String(i + 1).padStart(3, '0')}`);
        expect(query.split, query.id).toBe(splitOf(query.id));
        expect(query.answers.length, query.id).toBeGreaterThan(0);
        expect(new Set(query.answers).size, query.id).toBe(query.answers.length);
      });
    }
  });

  for (const set of ['hybrid', 'described'] as const) {
    it(`have one annotation per ${set} query whose gold judgments are exactly its answers`, () => {
      const queries = annotated[set];
      expect(annotations[set].map((a) => a.id)).toEqual(queries.map((q) => q.id));
      for (const [i, annotation] of annotations[set].entries()) {
        const query = queries[i]!;
        const gold = annotation.candidates.filter((c) => c.gold).map((c) => c.id);
        expect(gold.sort(), query.id).toEqual([...query.answers].sort());
        expect(gold.length, `${query.id}: gold must be a strict subset`).toBeLessThan(
          annotation.candidates.length,
        );
        expect(annotation.candidates.every((c) => c.reason.length > 0)).toBe(true);
        expect(query.meta?.candidates, query.id).toBe(annotation.candidates.length);
      }
    });

    it(`carry the relational part, textual requirement, gold anchors and relation paths of every ${set} query in meta`, () => {
      for (const [i, query] of annotated[set].entries()) {
        const part = annotations[set][i]!.relational_part;
        expect(query.meta, query.id).toMatchObject({
          template: expect.any(String),
          hops: expect.any(String),
          relational_part: expect.any(String),
          textual_requirement: expect.any(String),
          judged: expect.any(String),
        });
        const anchors = [...new Set(part.constraints.map((c) => c.anchor))];
        expect([...((query.meta?.anchors ?? []) as string[])].sort(), query.id).toEqual(anchors.sort());
        // Derived by src/write-relation-paths.ts; rerun it when this fails after an edit.
        expect(query.meta?.paths, query.id).toEqual(relationPaths(part));
      }
    });
  }

  it('describe every anchor of a described query, never referring to it otherwise', () => {
    for (const query of described) {
      expect(query.meta?.anchor_reference, query.id).toBe('description');
      const descriptions = query.meta?.anchor_descriptions as Record<string, string>;
      expect(Object.keys(descriptions).sort(), query.id).toEqual(
        [...((query.meta?.anchors ?? []) as string[])].sort(),
      );
      for (const description of Object.values(descriptions))
        expect(description.length, query.id).toBeGreaterThan(10);
    }
  });

  it('keep the described candidate sets small enough to judge by reading', () => {
    for (const query of described) expect(query.meta?.candidates, query.id).toBeLessThanOrEqual(40);
  });
});

import { describe, expect, it } from 'vitest';
import { type AnnotatedSetName, annotatedSetNames, readAnnotations, readQuerySet } from './query-sets.ts';
import { relationPaths } from '@weft-dev/judged-queries';

const described = await readQuerySet('described');
const text = await readQuerySet('text');
const hybrid = await readQuerySet('hybrid');
const annotated = { described, hybrid } as const;
const annotationsOf = {
  described: await readAnnotations('described'),
  hybrid: await readAnnotations('hybrid'),
} satisfies Record<AnnotatedSetName, unknown>;

// The committed files on their own; that every id exists and every path holds is checked against the
// graph built from apt's lists in debian-bundle.int.test.ts.
describe('the committed query sets', () => {
  it('have the planned sizes, numbered ids and about 50/25/25 % train/val/test', () => {
    expect(described.length).toBeGreaterThanOrEqual(80);
    expect(text.length).toBeGreaterThanOrEqual(40);
    expect(hybrid.length).toBeGreaterThanOrEqual(40);
    for (const [prefix, set] of [
      ['deb-des', described],
      ['deb-txt', text],
      ['deb-hyb', hybrid],
    ] as const) {
      set.forEach((query, i) => {
        expect(query.id).toBe(`${prefix}-${String(i + 1).padStart(3, '0')}`);
        expect(query.answers.length, query.id).toBeGreaterThan(0);
        expect(query.answers.length, query.id).toBeLessThanOrEqual(10);
        expect(new Set(query.answers).size, query.id).toBe(query.answers.length);
        expect(
          query.answers.every((id) => id.startsWith('package:')),
          query.id,
        ).toBe(true);
      });
      const share = (split: string) => set.filter((q) => q.split === split).length / set.length;
      expect(share('train')).toBeCloseTo(0.5, 1);
      expect(share('val')).toBeCloseTo(0.25, 1);
      expect(share('test')).toBeCloseTo(0.25, 1);
    }
  });

  for (const set of annotatedSetNames) {
    it(`have one annotation per ${set} query whose gold judgments are exactly its answers`, () => {
      const queries = annotated[set];
      const annotations = annotationsOf[set];
      expect(annotations.map((a) => a.id)).toEqual(queries.map((q) => q.id));
      for (const [i, annotation] of annotations.entries()) {
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

    it(`carry the anchors and relation paths of every ${set} query, derived from the annotations`, () => {
      for (const [i, query] of annotated[set].entries()) {
        const part = annotationsOf[set][i]!.relational_part;
        expect(query.meta, query.id).toMatchObject({
          template: expect.any(String),
          hops: expect.any(String),
          relational_part: expect.any(String),
          textual_requirement: expect.any(String),
          anchor_reference: set === 'described' ? 'description' : 'name',
          judged: expect.any(String),
        });
        const anchors = part.constraints.map((c) => c.anchor);
        expect(query.meta?.anchors, query.id).toEqual(anchors);
        if (set === 'described')
          expect(Object.keys(query.meta?.anchor_descriptions ?? {}).sort(), query.id).toEqual(
            [...anchors].sort(),
          );
        else expect(query.meta?.anchor_descriptions, query.id).toBeUndefined();
        expect(query.meta?.paths, query.id).toEqual(relationPaths(part));
      }
    });
  }

  it('keep text queries free of relational metadata but record near duplicates', () => {
    for (const query of text) {
      expect(query.meta, query.id).toMatchObject({
        template: expect.any(String),
        near_duplicates: expect.any(String),
      });
      expect(query.meta?.anchors, query.id).toBeUndefined();
    }
  });
});

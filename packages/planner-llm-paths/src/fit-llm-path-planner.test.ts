import { emptyPlan } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { Plan } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { fitLlmPathPlanner, fitUnsureThreshold, pickFewShotExamples } from './fit-llm-path-planner.ts';

describe('fitUnsureThreshold', () => {
  it('puts the threshold between the confidences of failures and successes', () => {
    const val = [
      { confidence: 0.1, correct: false },
      { confidence: 0.2, correct: false },
      { confidence: 0.35, correct: false },
      { confidence: 0.4, correct: true },
      { confidence: 0.7, correct: true },
      { confidence: 0.9, correct: true },
    ];
    const fitted = fitUnsureThreshold(val);
    expect(fitted.threshold).toBeGreaterThan(0.35);
    expect(fitted.threshold).toBeLessThanOrEqual(0.4);
    expect(fitted).toMatchObject({ callRate: 0.5, failuresCaught: 3 });
  });

  it('calls less when catching more failures would cost as many false calls', () => {
    const fitted = fitUnsureThreshold([
      { confidence: 0.2, correct: false },
      { confidence: 0.3, correct: true },
      { confidence: 0.6, correct: false },
      { confidence: 0.8, correct: true },
    ]);
    expect(fitted.threshold).toBeLessThanOrEqual(0.3);
    expect(fitted.failuresCaught).toBe(1);
  });

  it('keeps the default when val has no failures or no successes', () => {
    expect(fitUnsureThreshold([{ confidence: 0.9, correct: true }]).threshold).toBe(0.5);
    expect(fitUnsureThreshold([]).threshold).toBe(0.5);
  });
});

describe('pickFewShotExamples', () => {
  const schema = toySkb().schema;
  const plan = (query: string, edge: string): Plan => ({
    ...emptyPlan(query, schema),
    anchors: [{ mention: 'Nikon', confidence: 1, candidates: [{ id: 'b:nikon', type: 'brand', score: 1 }] }],
    paths: [{ anchor: 0, hops: [{ edgeType: edge, direction: 'in', nodeTypes: ['product'] }], score: 1 }],
  });

  it('keeps right plans only, one per shape, in the model’s answer format', () => {
    const examples = pickFewShotExamples(
      [
        { query: 'wrong one', plan: plan('wrong one', 'made_by'), correct: false },
        { query: 'first', plan: plan('first', 'made_by'), correct: true },
        { query: 'same shape', plan: plan('same shape', 'made_by'), correct: true },
        { query: 'other shape', plan: plan('other shape', 'in_category'), correct: true },
      ],
      3,
    );
    expect(examples.map((e) => e.query)).toEqual(['first', 'other shape']);
    expect(examples[0]!.plan).toEqual({
      targetTypes: ['product'],
      anchors: [{ mention: 'Nikon', type: 'brand' }],
      paths: [{ anchor: 'Nikon', hops: [{ edge: 'made_by', direction: 'in', nodeType: 'product' }] }],
      restriction: 'first',
    });
  });

  it('fitLlmPathPlanner reports how the threshold did on val', () => {
    const model = fitLlmPathPlanner({
      val: [
        { confidence: 0.1, correct: false },
        { confidence: 0.9, correct: true },
      ],
      train: [],
    });
    expect(model.val).toEqual({ queries: 2, offlineFailures: 1, callRate: 0.5, failuresCaught: 1 });
  });
});

import type { Candidate } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { routedOrder, textOrder, trajectoryOrder } from './route-gate.ts';

const candidate = (id: string, bm25: number, structure: number): Candidate => ({
  id,
  score: 0,
  scores: { bm25, structure },
  trajectories: [{ hops: [{ node: id, via: structure > 0 ? 'structure' : 'text' }] }],
});
// Trajectory scores order a, b, c; BM25 orders c, b, a.
const candidates = [candidate('a', 1, 1), candidate('b', 2, 0), candidate('c', 3, 1)];
const scores = [3, 2, 1];
const ids = (order: number[]) => order.map((i) => candidates[i]!.id);

describe('route orders', () => {
  it('orders by trajectory score, with path-reached candidates first when asked, and by BM25', () => {
    expect(ids(trajectoryOrder(candidates, scores, false))).toEqual(['a', 'b', 'c']);
    expect(ids(trajectoryOrder(candidates, scores, true))).toEqual(['a', 'c', 'b']);
    expect(ids(textOrder(candidates))).toEqual(['c', 'b', 'a']);
  });

  it('switch picks one ranking at 0.5; blend moves from one to the other with the probability', () => {
    expect(ids(routedOrder(candidates, scores, false, undefined, 'blend'))).toEqual(['a', 'b', 'c']);
    expect(ids(routedOrder(candidates, scores, false, 0.49, 'switch'))).toEqual(['c', 'b', 'a']);
    expect(ids(routedOrder(candidates, scores, false, 0.51, 'switch'))).toEqual(['a', 'b', 'c']);
    expect(ids(routedOrder(candidates, scores, false, 1, 'blend'))).toEqual(['a', 'b', 'c']);
    expect(ids(routedOrder(candidates, scores, false, 0, 'blend'))).toEqual(['c', 'b', 'a']);
    // Undecided: the two lists' tops tie and the trajectory order breaks the tie; the middle stays.
    expect(ids(routedOrder(candidates, scores, false, 0.5, 'blend'))).toEqual(['a', 'c', 'b']);
    expect(ids(routedOrder(candidates, scores, false, 0.3, 'blend'))[0]).toBe('c');
  });
});

import { describe, expect, it } from 'vitest';
import { EdgeCollector } from './edge-collector.ts';
import { pointerRelation } from './pointer-relation.ts';
import type { SynsetType } from './synset-id.ts';

const relation = (symbol: string, holder: SynsetType = 'n') => pointerRelation(symbol, holder)!;
const dog = 'wn31:02086723-n';
const canine = 'wn31:02085998-n';
const bark = 'wn31:01047874-v';
const barker = 'wn31:09838370-n';
const hot = 'wn31:01250565-a';
const cold = 'wn31:01254201-a';

describe('EdgeCollector', () => {
  it('stores a directed relation once, whichever end states it', () => {
    const edges = new EdgeCollector();
    expect(edges.add(dog, relation('@'), canine)).toEqual({ src: dog, type: 'hypernym', dst: canine });
    // The hyponym pointer on the hypernym is the same edge, flipped.
    expect(edges.add(canine, relation('~'), dog)).toBeUndefined();
    expect(edges.add(dog, relation('@'), canine)).toBeUndefined();
    expect([...edges.symmetricEdges()]).toEqual([]);
  });

  it('flips inverse pointers: holonyms become meronyms from the whole, domain members domain edges from the term', () => {
    const edges = new EdgeCollector();
    const genus = 'wn31:02086515-n';
    expect(edges.add(dog, relation('#m'), genus)).toEqual({ src: genus, type: 'member_meronym', dst: dog });
    const medicine = 'wn31:06055946-n';
    const migraine = 'wn31:14351112-n';
    expect(edges.add(medicine, relation('-c'), migraine)).toEqual({
      src: migraine,
      type: 'domain_topic',
      dst: medicine,
    });
  });

  it('keeps different relations between the same synsets apart', () => {
    const edges = new EdgeCollector();
    expect(edges.add(dog, relation('@'), canine)).toBeDefined();
    expect(edges.add(dog, relation('%p'), canine)).toBeDefined();
  });

  it('drops and counts self-loops of lexical pointers lifted to one synset', () => {
    const edges = new EdgeCollector();
    const isle = 'wn31:09334396-n';
    expect(edges.add(isle, relation('+'), isle)).toBeUndefined();
    expect(edges.add(isle, relation('@'), isle)).toBeUndefined();
    expect(edges.selfLoopsDropped).toBe(2);
    expect([...edges.symmetricEdges()]).toEqual([]);
  });

  it('stores a symmetric pair stated both ways once, noun before verb before adjective, then by offset', () => {
    const edges = new EdgeCollector();
    expect(edges.add(bark, relation('+', 'v'), barker)).toBeUndefined();
    expect(edges.add(barker, relation('+'), bark)).toBeUndefined();
    expect(edges.add(cold, relation('!', 'a'), hot)).toBeUndefined();
    expect(edges.add(hot, relation('!', 'a'), cold)).toBeUndefined();
    expect([...edges.symmetricEdges()]).toEqual([
      { src: barker, type: 'derivationally_related', dst: bark },
      { src: hot, type: 'antonym', dst: cold },
    ]);
  });

  it('keeps a symmetric relation stated only one way as stated', () => {
    const edges = new EdgeCollector();
    edges.add(cold, relation('^', 'a'), hot);
    expect([...edges.symmetricEdges()]).toEqual([{ src: cold, type: 'also_see', dst: hot }]);
  });
});

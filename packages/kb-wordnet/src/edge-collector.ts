import type { SkbEdge } from '@weft/spec';
import type { PointerRelation } from './pointer-relation.ts';
import { compareSynsetIds } from './synset-id.ts';

// Bits of a symmetric pair: which of its two directions WordNet states.
const statedForward = 1;
const statedBackward = 2;

/**
 * Turns pointers into distinct edges. Directed relations are returned by `add` the first time they are
 * seen, whichever end states them (hypernym `@` on the hyponym or hyponym `~` on the hypernym); lexical
 * pointers lifted to synsets repeat edges too. Symmetric relations wait for `symmetricEdges()`, since
 * which end becomes `src` depends on whether WordNet states the pair both ways. Memory: one key per
 * distinct edge.
 */
export class EdgeCollector {
  private readonly directed = new Set<string>();
  /** `type src dst` in pair order (compareSynsetIds) → statedForward | statedBackward. */
  private readonly symmetric = new Map<string, number>();
  private selfLoops = 0;

  /**
   * Pointers that join a synset to itself, dropped: a lexical pointer between two words of one synset
   * (derivations such as isle/islet) lifted to synsets.
   */
  get selfLoopsDropped(): number {
    return this.selfLoops;
  }

  /** Records the pointer `relation` from synset `holder` to `target`; returns the edge to write now, if any. */
  add(holder: string, relation: PointerRelation, target: string): SkbEdge | undefined {
    if (holder === target) {
      this.selfLoops++;
      return undefined;
    }
    if (relation.symmetric) {
      const forward = compareSynsetIds(holder, target) < 0;
      const key = forward ? `${relation.type} ${holder} ${target}` : `${relation.type} ${target} ${holder}`;
      this.symmetric.set(key, (this.symmetric.get(key) ?? 0) | (forward ? statedForward : statedBackward));
      return undefined;
    }
    const [src, dst] = relation.inverse ? [target, holder] : [holder, target];
    const key = `${relation.type} ${src} ${dst}`;
    if (this.directed.has(key)) return undefined;
    this.directed.add(key);
    return { src, type: relation.type, dst };
  }

  /**
   * Each symmetric pair once: in pair order (part of speech n, v, a, r, then offset) where WordNet states
   * both directions, as stated where it states only one.
   */
  *symmetricEdges(): Generator<SkbEdge> {
    for (const [key, stated] of this.symmetric) {
      const [type, first, second] = key.split(' ') as [string, string, string];
      yield stated === statedBackward ? { src: second, type, dst: first } : { src: first, type, dst: second };
    }
  }
}

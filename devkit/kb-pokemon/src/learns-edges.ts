import type { Learnset, Species } from '@pkmn/dex';
import type { SkbEdge } from '@weft/spec';
import { nodeId } from './node-id.ts';

/**
 * One `learns` edge per move in the species' own learnset, whatever the generation or method
 * (level-up, TM, tutor, egg, event): Showdown keys the learnset by move id, so each move is there
 * once. Formes without a learnset of their own (Megas, Arceus types, ...) get none; they reach their
 * base species' moves through `is_forme_of`.
 */
export function learnsEdges(species: Species, learnset: Learnset): SkbEdge[] {
  const src = nodeId('pokemon', species.name);
  return Object.keys(learnset.learnset ?? {}).map((move) => ({
    src,
    type: 'learns',
    dst: nodeId('move', move),
  }));
}

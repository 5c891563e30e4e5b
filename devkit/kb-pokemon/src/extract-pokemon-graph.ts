import type { ModdedDex } from '@pkmn/dex';
import type { SkbEdge, SkbNode } from '@weft/spec';
import { abilityNode } from './ability-node.ts';
import { eggGroupNode } from './egg-group-node.ts';
import { includedEntries } from './included-entries.ts';
import { itemEdges } from './item-edges.ts';
import { itemNode } from './item-node.ts';
import { learnsEdges } from './learns-edges.ts';
import { moveNode } from './move-node.ts';
import { nodeId } from './node-id.ts';
import { speciesEdges } from './species-edges.ts';
import { speciesNode } from './species-node.ts';
import { typeMatchups } from './type-matchups.ts';
import { typeNode } from './type-node.ts';

export interface PokemonGraph {
  readonly nodes: readonly SkbNode[];
  readonly edges: readonly SkbEdge[];
}

/**
 * Turns a dex (use `Dex.forGen(9)`) into nodes and edges, both in a stable order (by kind, then the
 * dex's order). Edges to entries that are not nodes are dropped: an evolution into a left-out
 * forme, a learnset entry for a fan-made move, an item user that is a cosmetic forme.
 */
export async function extractPokemonGraph(dex: ModdedDex): Promise<PokemonGraph> {
  const entries = includedEntries(dex);
  const kept = new Set(entries.species.map((s) => s.name));
  const matchups = typeMatchups(entries.types);
  const nodes: SkbNode[] = [
    ...entries.species.map((species) => speciesNode(species, kept)),
    ...entries.moves.map(moveNode),
    ...entries.abilities.map(abilityNode),
    ...entries.items.map(itemNode),
    ...entries.types.map((type) => typeNode(type.name, matchups)),
    ...entries.eggGroups.map(eggGroupNode),
  ];
  const learnsets = await Promise.all(entries.species.map((species) => dex.learnsets.get(species.id)));
  const candidates: SkbEdge[] = [
    ...entries.species.flatMap((species, i) => [
      ...speciesEdges(species),
      ...learnsEdges(species, learnsets[i]!),
    ]),
    ...entries.moves.map((move) => ({
      src: nodeId('move', move.name),
      type: 'has_type',
      dst: nodeId('type', move.type),
    })),
    ...entries.items.flatMap(itemEdges),
    ...matchups.map((m) => ({
      src: nodeId('type', m.attacker),
      type: m.effectiveness,
      dst: nodeId('type', m.defender),
    })),
  ];
  const ids = new Set(nodes.map((node) => node.id));
  const seen = new Set<string>();
  const edges = candidates.filter((edge) => {
    const key = `${edge.src} ${edge.type} ${edge.dst}`;
    if (!ids.has(edge.src) || !ids.has(edge.dst) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { nodes, edges };
}

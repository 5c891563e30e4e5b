import { parseRelationLabel, type Relation, relationLabel } from '@weft/kit';
import type { PlanHop, SkbSchema } from '@weft/spec';

/** A typed path of edge types, written `hypernym:in/part_meronym:out`. */
export type MetapathKey = string;

/** One step of a metapath: a relation (`Relation` of `@weft/kit`, the edge type and direction of a `PlanHop`). */
export type MetapathHop = Relation;

export function metapathKey(hops: readonly MetapathHop[]): MetapathKey {
  return hops.map((h) => relationLabel(h.edgeType, h.direction, 'metapath')).join('/');
}

export function parseMetapath(key: MetapathKey): MetapathHop[] {
  if (key === '') return [];
  return key.split('/').map((part) => parseRelationLabel(part, 'metapath'));
}

/** Every one-hop metapath the schema allows: each edge type, followed either way. */
export function oneHopMetapaths(schema: SkbSchema): MetapathKey[] {
  const names = [...new Set(schema.edgeTypes.map((e) => e.name))].sort();
  return names.flatMap((name) => [
    metapathKey([{ edgeType: name, direction: 'out' }]),
    metapathKey([{ edgeType: name, direction: 'in' }]),
  ]);
}

/** Node types a hop may land on according to the schema (`undefined` = any). */
export function landingTypes(schema: SkbSchema, hop: MetapathHop): string[] | undefined {
  const ends = schema.edgeTypes
    .filter((e) => e.name === hop.edgeType)
    .map((e) => (hop.direction === 'out' ? e.to : e.from));
  if (ends.length === 0 || ends.includes('*')) return undefined;
  return [...new Set(ends)].sort();
}

export function toPlanHops(schema: SkbSchema, key: MetapathKey, restriction: string): PlanHop[] {
  const hops = parseMetapath(key);
  return hops.map((hop, i) => {
    const types = landingTypes(schema, hop);
    return {
      edgeType: hop.edgeType,
      direction: hop.direction,
      ...(types ? { nodeTypes: types } : {}),
      ...(i === hops.length - 1 && restriction ? { restriction } : {}),
    };
  });
}

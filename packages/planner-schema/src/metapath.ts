import type { EdgeDirection, PlanHop, SkbSchema } from '@weft/spec';

/** A typed path of edge types, written `hypernym:in/part_meronym:out`. */
export type MetapathKey = string;

export interface MetapathHop {
  readonly edgeType: string;
  readonly direction: EdgeDirection;
}

export function metapathKey(hops: readonly MetapathHop[]): MetapathKey {
  return hops.map((h) => `${h.edgeType}:${h.direction}`).join('/');
}

export function parseMetapath(key: MetapathKey): MetapathHop[] {
  if (key === '') return [];
  return key.split('/').map((part) => {
    const at = part.lastIndexOf(':');
    return { edgeType: part.slice(0, at), direction: part.slice(at + 1) === 'in' ? 'in' : 'out' };
  });
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

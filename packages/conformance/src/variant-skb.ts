import { type InMemorySkb, toySkb } from '@weft/core/test';
import type { Plan, SkbSchema } from '@weft/spec';

/**
 * How the second store renames the toy SKB. Names and documents stay the same, so one query finds
 * "the same" nodes in both stores; ids and type names all differ, so an answer taken from the wrong
 * store (a cache shared between stores, a schema read once) names something the store does not have.
 */
export const variantNames = {
  idPrefix: 'shop2/',
  nodeTypes: { product: 'item', brand: 'maker', category: 'section' } as Readonly<Record<string, string>>,
  edgeTypes: {
    made_by: 'built_by',
    in_category: 'listed_in',
    compatible_with: 'fits',
    subcategory_of: 'part_of',
  } as Readonly<Record<string, string>>,
} as const;

/** The id a node of the toy SKB has in the variant SKB. */
export function variantId(id: string): string {
  return `${variantNames.idPrefix}${id}`;
}

const nodeType = (type: string) => variantNames.nodeTypes[type] ?? type;
const edgeType = (type: string) => variantNames.edgeTypes[type] ?? type;
const edgeDescriptions: Readonly<Record<string, string>> = {
  made_by: 'is built by',
  in_category: 'is listed in',
  compatible_with: 'fits',
  subcategory_of: 'is part of',
};

/**
 * A second small SKB for "one instance, two stores" cases: the toy camera shop with every id
 * prefixed (`shop2/…`), every node and edge type renamed (product → item, made_by → built_by, …)
 * and another schema name. Same shape, same texts, disjoint ids and types.
 */
export function variantSkb(): InMemorySkb {
  const toy = toySkb();
  const schema: SkbSchema = {
    ...toy.schema,
    name: `${toy.schema.name}-second-shop`,
    description: 'A second camera shop: the toy shop under other ids and type names.',
    nodeTypes: toy.schema.nodeTypes.map((t) => ({ ...t, name: nodeType(t.name) })),
    edgeTypes: toy.schema.edgeTypes.map((t) => ({
      ...t,
      name: edgeType(t.name),
      from: nodeType(t.from),
      to: nodeType(t.to),
      description: edgeDescriptions[t.name] ?? t.description,
    })),
    ...(toy.schema.targetTypes ? { targetTypes: toy.schema.targetTypes.map(nodeType) } : {}),
  };
  return {
    schema,
    nodes: toy.nodes.map((n) => ({ ...n, id: variantId(n.id), type: nodeType(n.type) })),
    edges: toy.edges.map((e) => ({ src: variantId(e.src), type: edgeType(e.type), dst: variantId(e.dst) })),
  };
}

/** A plan over the toy SKB rewritten for the variant SKB (ids and type names mapped). */
export function toVariantPlan(plan: Plan): Plan {
  const types = (list: readonly string[] | undefined) => list?.map(nodeType);
  return {
    ...plan,
    targetTypes: plan.targetTypes.map((t) => ({ ...t, type: nodeType(t.type) })),
    anchors: plan.anchors.map((a) => ({
      ...a,
      candidates: a.candidates.map((c) => ({ ...c, id: variantId(c.id), type: nodeType(c.type) })),
    })),
    paths: plan.paths.map((p) => ({
      ...p,
      ...(p.startTypes ? { startTypes: types(p.startTypes)! } : {}),
      hops: p.hops.map((h) => ({
        ...h,
        edgeType: edgeType(h.edgeType),
        ...(h.nodeTypes ? { nodeTypes: types(h.nodeTypes)! } : {}),
      })),
    })),
    variables: plan.variables.map((v) => ({
      ...v,
      ...(v.nodeTypes ? { nodeTypes: types(v.nodeTypes)! } : {}),
    })),
    triplets: plan.triplets.map((t) => ({ ...t, edgeType: edgeType(t.edgeType) })),
  };
}

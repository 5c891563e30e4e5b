import type { EdgeDirection, SkbSchema } from '@weft/spec';

/** A model's name for a node or edge type, mapped onto the schema's, and whether that took a repair. */
export interface GroundedName {
  readonly name: string;
  /** False when the model wrote the schema's own name. */
  readonly repaired: boolean;
}

/** `MadeBy`, `made-by`, `made by`, `MADE_BY` → `made_by`; `Noun.Animal` → `noun.animal`. */
export function normalizeTypeName(name: string): string {
  return name
    .trim()
    .replace(/^[:`'"]+|[`'"]+$/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('ses') || name.endsWith('xes')) return name.slice(0, -2);
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

function matcher(names: readonly string[]): (name: string) => GroundedName | undefined {
  const exact = new Set(names);
  const byKey = new Map<string, string>();
  for (const name of names) {
    for (const key of [normalizeTypeName(name), singular(normalizeTypeName(name))])
      if (!byKey.has(key)) byKey.set(key, name);
  }
  return (name) => {
    if (exact.has(name)) return { name, repaired: false };
    const key = normalizeTypeName(name);
    const found = byKey.get(key) ?? byKey.get(singular(key));
    return found ? { name: found, repaired: true } : undefined;
  };
}

/** The schema's names, for grounding what a model wrote. */
export interface SchemaNames {
  nodeType(name: string): GroundedName | undefined;
  edgeType(name: string): GroundedName | undefined;
  /**
   * The direction in which `edgeType` leads from a node of type `from` (to one of type `to`), given
   * what the model claimed: the claim when the schema allows it (or cannot tell, `'*'`), the other
   * direction when only that one fits (`repaired`), undefined when neither does.
   */
  direction(
    edgeType: string,
    claimed: EdgeDirection | undefined,
    from: string | undefined,
    to: string | undefined,
  ): { readonly direction: EdgeDirection; readonly repaired: boolean } | undefined;
}

export function schemaNames(schema: SkbSchema): SchemaNames {
  const nodeType = matcher(schema.nodeTypes.map((t) => t.name));
  const edgeType = matcher([...new Set(schema.edgeTypes.map((t) => t.name))]);
  const fits = (type: string | undefined, end: string) => type === undefined || end === '*' || end === type;
  return {
    nodeType,
    edgeType,
    direction(edge, claimed, from, to) {
      const signatures = schema.edgeTypes.filter((t) => t.name === edge);
      const allows = (direction: EdgeDirection) =>
        signatures.some((s) =>
          direction === 'out' ? fits(from, s.from) && fits(to, s.to) : fits(from, s.to) && fits(to, s.from),
        );
      const first = claimed ?? 'out';
      const other: EdgeDirection = first === 'out' ? 'in' : 'out';
      if (allows(first)) return { direction: first, repaired: false };
      if (allows(other)) return { direction: other, repaired: claimed !== undefined };
      return undefined;
    },
  };
}

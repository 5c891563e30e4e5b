import type { PlanPath, PlanTriplet, PlanVariable, TypeScore } from '@weft/spec';

export interface PathConstraintsOptions {
  /** The target variable `x` takes the types scored at least 0.5. */
  readonly targetTypes: readonly TypeScore[];
  /** The target variable's textual restriction (none when empty). */
  readonly restriction: string;
  /** The variable an intermediate hop of path `path` lands on (default `y<path>_<hop>`). */
  readonly variableName?: (path: number, hop: number) => string;
  /** Intermediate variables carry their hop's textual restriction (default false). */
  readonly hopRestrictions?: boolean;
}

/**
 * Typed paths as FocusedRetriever's constraints: each path with an anchor becomes a chain of
 * triplets from its anchor to the target variable `x`, through one variable per intermediate hop,
 * each triplet written in the edge's own direction. Paths without an anchor add nothing.
 */
export function pathConstraints(
  paths: readonly PlanPath[],
  options: PathConstraintsOptions,
): { variables: PlanVariable[]; triplets: PlanTriplet[] } {
  const variableName = options.variableName ?? ((path, hop) => `y${path}_${hop}`);
  const variables: PlanVariable[] = [
    {
      name: 'x',
      nodeTypes: options.targetTypes.filter((t) => t.score >= 0.5).map((t) => t.type),
      ...(options.restriction ? { restriction: options.restriction } : {}),
    },
  ];
  const triplets: PlanTriplet[] = [];
  paths.forEach((path, p) => {
    if (path.anchor === undefined) return;
    let previous: PlanTriplet['subject'] = { kind: 'anchor', anchor: path.anchor };
    path.hops.forEach((hop, i) => {
      const last = i === path.hops.length - 1;
      const name = last ? 'x' : variableName(p, i);
      if (!last)
        variables.push({
          name,
          ...(hop.nodeTypes ? { nodeTypes: hop.nodeTypes } : {}),
          ...(options.hopRestrictions && hop.restriction ? { restriction: hop.restriction } : {}),
        });
      const next: PlanTriplet['object'] = { kind: 'variable', name };
      triplets.push(
        hop.direction === 'out'
          ? { subject: previous, edgeType: hop.edgeType, object: next }
          : { subject: next, edgeType: hop.edgeType, object: previous },
      );
      previous = next;
    });
  });
  return { variables, triplets };
}

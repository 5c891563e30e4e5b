import type { SkbSchema } from '@weft/spec';
import type { RelationStep } from './bank-action.ts';

/**
 * Every relation a node of `type` can follow, by the schema: edge types whose `from` is the type (or
 * `*`) followed `out`, and whose `to` is the type (or `*`) followed `in`. Sorted, without repeats.
 */
export function schemaRelations(schema: SkbSchema, type: string): RelationStep[] {
  const keys = new Set<string>();
  for (const edge of schema.edgeTypes) {
    if (edge.from === type || edge.from === '*') keys.add(`${edge.name}|out`);
    if (edge.to === type || edge.to === '*') keys.add(`${edge.name}|in`);
  }
  return [...keys].sort().map((key) => {
    const [edgeType, direction] = key.split('|') as [string, 'in' | 'out'];
    return { edgeType, direction };
  });
}

/** Whether a node of `type` can follow `step` at all, by the schema. */
export function reachesFrom(schema: SkbSchema, type: string, step: RelationStep): boolean {
  return schema.edgeTypes.some(
    (edge) =>
      edge.name === step.edgeType &&
      (step.direction === 'out'
        ? edge.from === type || edge.from === '*'
        : edge.to === type || edge.to === '*'),
  );
}

import type { EdgeDirection, PlanHop } from '@weft/spec';

/** A relation: an edge type followed one way (`out`: as stored). Every hop type carries one. */
export type Relation = Pick<PlanHop, 'edgeType' | 'direction'>;

/**
 * How a relation is written. The formats differ on purpose; each is stored or compared somewhere,
 * so a caller names the one it needs:
 * - `arrow` (the default): `—made_by→` / `←made_by—`, for people and for model prompts (explanations,
 *   answer evidence, HybGRAG's actions and the critic's reasoning paths, KAR's triples);
 * - `plain`: `made_by (in)`, the rule critic's feedback (it reaches HybGRAG's router prompt, so its
 *   words stay those the recorded model calls saw);
 * - `key`: `made_by|in`, a map key, and the lexical planner's class label (stored in its model);
 * - `metapath`: `made_by:in`, one step of the schema planner's metapath keys (stored in its model;
 *   steps are joined with `/`).
 */
export type RelationLabelStyle = 'arrow' | 'plain' | 'key' | 'metapath';

/** One relation as text, e.g. `relationLabel('made_by', 'in')` is `←made_by—`. See `RelationLabelStyle`. */
export function relationLabel(
  edgeType: string,
  direction: EdgeDirection,
  style: RelationLabelStyle = 'arrow',
): string {
  switch (style) {
    case 'arrow':
      return direction === 'in' ? `←${edgeType}—` : `—${edgeType}→`;
    case 'plain':
      return `${edgeType} (${direction})`;
    case 'key':
      return `${edgeType}|${direction}`;
    case 'metapath':
      return `${edgeType}:${direction}`;
  }
}

/**
 * Reads a `key` or `metapath` label back (`made_by|in` → `{ edgeType: 'made_by', direction: 'in' }`):
 * the last separator splits it, so edge types may hold the separator; anything but `in` reads `out`.
 */
export function parseRelationLabel(label: string, style: 'key' | 'metapath'): Relation {
  const at = label.lastIndexOf(style === 'key' ? '|' : ':');
  if (at < 0) return { edgeType: label, direction: 'out' };
  return { edgeType: label.slice(0, at), direction: label.slice(at + 1) === 'in' ? 'in' : 'out' };
}

/** An edge type as words, for documents and prompts: `part_meronym` → `part meronym`. */
export function edgeTypeWords(edgeType: string): string {
  return edgeType.replace(/[_\-.:/]+/g, ' ').trim();
}

import type { RelationPath } from '@weft/oracle';
import type { EdgeIndex } from './relational-part.ts';

/**
 * A gold relation path: from `anchor`, following `hops` in order reaches the answer (every node so
 * reached, of the answer type, satisfies this constraint). `meta.paths` of the hybrid and described
 * queries holds one per constraint of the query's relational part (`relationPaths` of `@weft/oracle`,
 * which reads the annotations so too).
 */
export { type RelationPath, relationPaths } from '@weft/oracle';

/** One hop of a relation path, in the direction it is followed from the anchor towards the answer. */
export type RelationHop = RelationPath['hops'][number];

/** The nodes reached from `path.anchor` by following its hops (every branch), sorted. */
export function followPath(path: RelationPath, index: EdgeIndex): string[] {
  let frontier = new Set([path.anchor]);
  for (const hop of path.hops) {
    const next = new Set<string>();
    for (const id of frontier)
      for (const n of index.neighbours(id, { edge: hop.edgeType, direction: hop.direction })) next.add(n);
    frontier = next;
  }
  return [...frontier].sort();
}

/**
 * The answers the paths admit together: nodes of `answerType` reached by every path, the anchors
 * excepted. Equal to `candidatesOf` of the relational part the paths were derived from.
 */
export function candidatesOfPaths(
  paths: readonly RelationPath[],
  answerType: string,
  index: EdgeIndex,
): string[] {
  let result: Set<string> | undefined;
  for (const path of paths) {
    const reached = new Set(followPath(path, index));
    result = result ? new Set([...result].filter((id) => reached.has(id))) : reached;
  }
  const anchors = new Set(paths.map((p) => p.anchor));
  return [...(result ?? [])].filter((id) => index.typeOf(id) === answerType && !anchors.has(id)).sort();
}

import type { IndexFilter } from '@weft/spec';

function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The SQL `where` clause of an index filter, or undefined for none. An empty list matches nothing
 * (`false`), as an empty set of allowed types or ids means.
 */
export function lanceWhere(filter: IndexFilter | undefined): string | undefined {
  const clauses: string[] = [];
  if (filter?.nodeTypes)
    clauses.push(filter.nodeTypes.length ? `type IN (${filter.nodeTypes.map(literal).join(', ')})` : 'false');
  if (filter?.ids)
    clauses.push(filter.ids.length ? `id IN (${filter.ids.map(literal).join(', ')})` : 'false');
  return clauses.length ? clauses.join(' AND ') : undefined;
}

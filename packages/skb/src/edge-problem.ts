import type { SkbEdge, SkbSchema } from '@weft/spec';
import type { EdgeTypeRules } from './parse-records.ts';
import { abbreviate } from './parsed-lines.ts';
import type { SkbIssue } from './skb-issue.ts';

/**
 * What is wrong with an edge, given the node types of its ends — `undefined`: no such node; `null`:
 * a node whose type was already reported as undeclared, so its edges' types are not checked — or
 * undefined when nothing is. `words` says where nodes and edge types come from (a bundle or a store).
 */
export function edgeProblem(
  edge: SkbEdge,
  from: string | null | undefined,
  to: string | null | undefined,
  rules: EdgeTypeRules | undefined,
  schema: SkbSchema | undefined,
  words: { readonly missingNode: string; readonly undeclaredType: string },
): Pick<SkbIssue, 'code' | 'field' | 'message'> | undefined {
  if (from === undefined || to === undefined) {
    const missing = [
      from === undefined ? `src "${edge.src}"` : '',
      to === undefined ? `dst "${edge.dst}"` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return {
      code: 'DANGLING_EDGE',
      field: from === undefined ? 'src' : 'dst',
      message: `${missing} ${words.missingNode}`,
    };
  }
  if (!rules || !schema) return undefined;
  if (!rules.isDeclared(edge.type))
    return {
      code: 'UNDECLARED_EDGE_TYPE',
      field: 'type',
      message: `edge type "${edge.type}" ${words.undeclaredType}`,
    };
  if (from === null || to === null || rules.allows(edge.type, from, to)) return undefined;
  const allowed = schema.edgeTypes.filter((t) => t.name === edge.type).map((t) => `${t.from} → ${t.to}`);
  return {
    code: 'EDGE_TYPE_MISMATCH',
    field: 'type',
    message: `"${edge.type}" edge from ${from} to ${to} contradicts the schema (allowed: ${abbreviate(allowed)})`,
  };
}

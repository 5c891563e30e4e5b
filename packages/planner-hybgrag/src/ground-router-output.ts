import { maxRadius, type RelationStep, reachesFrom } from '@weft/ego-graph';
import { schemaNames } from '@weft/llm';
import type { Anchor, Plan, RetrievalContext } from '@weft/spec';
import type { RouteDecision } from './hybgrag-planner.ts';
import type { RouterOutput } from './router-prompt.ts';
import type { RouteEntity } from './route-state.ts';

/** What grounding made of the model's action. */
export interface GroundedRoute {
  /** Undefined when nothing usable was left; `reason` says why. */
  readonly decision?: RouteDecision;
  /** The base plan, with an anchor added for each entity the model named that linking had missed. */
  readonly base: Plan;
  /** What was repaired or dropped, for the trace. */
  readonly notes: readonly string[];
  readonly reason?: string;
}

const key = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The anchor the model meant: the same words, else one inside the other, the surest first. */
function findAnchor(anchors: readonly Anchor[], mention: string): number | undefined {
  const wanted = key(mention);
  if (!wanted) return undefined;
  const order = anchors
    .map((anchor, index) => ({ anchor, index }))
    .filter(({ anchor }) => anchor.candidates.length > 0)
    .sort((a, b) => b.anchor.confidence - a.anchor.confidence);
  return (
    order.find(({ anchor }) => key(anchor.mention) === wanted)?.index ??
    order.find(({ anchor }) => key(anchor.mention).includes(wanted) || wanted.includes(key(anchor.mention)))
      ?.index
  );
}

/**
 * Maps the model's action onto the schema and the graph: each entity onto an anchor of the base
 * plan by its words (or, when linking missed it, onto a node found by name, added as an anchor; an
 * entity no node is named after is dropped as unknown); each relation onto an edge type of the
 * schema (spellings repaired, a direction the entity's type cannot take turned round); the entity's
 * candidate node is the first whose type the relations start from. A graph module with no entity
 * left is unusable (`decision` undefined).
 */
export async function groundRouterOutput(
  output: RouterOutput,
  options: { readonly base: Plan; readonly context: RetrievalContext },
): Promise<GroundedRoute> {
  const { context } = options;
  const names = schemaNames(context.schema);
  const notes: string[] = [];
  const anchors: Anchor[] = [...options.base.anchors];
  if (output.module === 'text')
    return {
      decision: { choice: { module: 'text', entities: [] }, reason: 'the model chose the text module' },
      base: options.base,
      notes,
    };
  const entities: RouteEntity[] = [];
  for (const wanted of output.entities) {
    let anchor = findAnchor(anchors, wanted.mention);
    if (anchor === undefined) {
      const [matches = []] = await context.graph.doLookup([wanted.mention], {
        fuzzy: false,
        limit: 5,
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      });
      if (matches.length === 0) {
        notes.push(`unknown entity "${wanted.mention}" dropped (no node is named so)`);
        continue;
      }
      anchors.push({
        mention: wanted.mention,
        confidence: 0.5,
        candidates: matches.map((m) => ({ id: m.id, type: m.type, score: m.score })),
      });
      anchor = anchors.length - 1;
      notes.push(`"${wanted.mention}" was not linked; found by name`);
    }
    const steps: RelationStep[][] = [];
    for (const relation of wanted.relations) {
      const path: RelationStep[] = [];
      for (const step of [relation, ...(relation.next ? [relation.next] : [])].slice(0, maxRadius)) {
        const edge = names.edgeType(step.edge);
        if (!edge) {
          notes.push(`unknown relation "${step.edge}" dropped`);
          path.length = 0;
          break;
        }
        if (edge.repaired) notes.push(`relation "${step.edge}" read as "${edge.name}"`);
        path.push({ edgeType: edge.name, direction: step.direction });
      }
      if (path.length > 0) steps.push(path);
    }
    const candidates = anchors[anchor]!.candidates;
    let candidate = candidates.findIndex((c) =>
      steps.some((p) => reachesFrom(context.schema, c.type, p[0]!)),
    );
    if (candidate < 0) {
      // No candidate's type starts any relation as written: try each first step the other way round.
      const flipped = steps.map((p) => [
        { ...p[0]!, direction: p[0]!.direction === 'in' ? ('out' as const) : ('in' as const) },
        ...p.slice(1),
      ]);
      candidate = candidates.findIndex((c) =>
        flipped.some((p) => reachesFrom(context.schema, c.type, p[0]!)),
      );
      if (candidate >= 0) {
        notes.push(`the relations of "${wanted.mention}" were turned round`);
        steps.splice(0, steps.length, ...flipped);
      }
    }
    if (candidate < 0) {
      notes.push(`no relation of "${wanted.mention}" starts from its node's type: dropped`);
      continue;
    }
    const node = candidates[candidate]!;
    const usable = steps.filter((p) => reachesFrom(context.schema, node.type, p[0]!));
    entities.push({ anchor, candidate, paths: usable, widened: false });
  }
  const base = anchors.length === options.base.anchors.length ? options.base : { ...options.base, anchors };
  if (entities.length === 0)
    return {
      base,
      notes,
      reason: `the ${output.module} module needs an entity with a relation, and none was left`,
    };
  return {
    decision: {
      choice: { module: output.module, entities },
      reason: `the model chose the ${output.module} module${output.reason ? ` (${output.reason.slice(0, 160)})` : ''}`,
    },
    base,
    notes,
  };
}

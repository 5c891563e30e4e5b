import type { GraphStoreV1, Plan, SkbSchema } from '@weft/spec';

const inUnit = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;
const directions = new Set(['out', 'in']);

/**
 * What is wrong with `plan` for a store of `schema`, one line per problem (empty when nothing):
 * every node and edge type it names belongs to the schema; target types, link scores, confidences
 * and path scores are in [0, 1]; paths and triplets reference anchors that exist, triplets name
 * declared variables, and `target` is one of them. What a traverser may rely on.
 */
export function planProblems(plan: Plan, schema: SkbSchema): string[] {
  const problems: string[] = [];
  const nodeTypes = new Set(schema.nodeTypes.map((t) => t.name));
  const edgeTypes = new Set(schema.edgeTypes.map((t) => t.name));
  const nodeType = (type: unknown, where: string) => {
    if (typeof type !== 'string' || !nodeTypes.has(type))
      problems.push(`${where}: node type ${JSON.stringify(type)} is not in schema "${schema.name}"`);
  };
  const edgeType = (type: unknown, where: string) => {
    if (typeof type !== 'string' || !edgeTypes.has(type))
      problems.push(`${where}: edge type ${JSON.stringify(type)} is not in schema "${schema.name}"`);
  };
  const unit = (value: unknown, where: string) => {
    if (!inUnit(value)) problems.push(`${where}: ${JSON.stringify(value)} is not in [0, 1]`);
  };
  const anchorIndex = (index: unknown, where: string) => {
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= plan.anchors.length)
      problems.push(
        `${where}: anchor ${JSON.stringify(index)} does not exist (${plan.anchors.length} anchors)`,
      );
  };

  if (typeof plan.query !== 'string') problems.push('query is not a string');
  if (typeof plan.restriction !== 'string') problems.push('restriction is not a string');
  unit(plan.confidence, 'confidence');
  plan.targetTypes.forEach((t, i) => {
    nodeType(t.type, `targetTypes[${i}]`);
    unit(t.score, `targetTypes[${i}].score`);
  });
  plan.anchors.forEach((anchor, a) => {
    if (typeof anchor.mention !== 'string') problems.push(`anchors[${a}].mention is not a string`);
    unit(anchor.confidence, `anchors[${a}].confidence`);
    anchor.candidates.forEach((c, i) => {
      if (typeof c.id !== 'string' || c.id.length === 0)
        problems.push(`anchors[${a}].candidates[${i}].id is empty`);
      nodeType(c.type, `anchors[${a}].candidates[${i}] (${c.id})`);
      unit(c.score, `anchors[${a}].candidates[${i}].score`);
    });
  });
  plan.paths.forEach((path, p) => {
    if (path.anchor !== undefined) anchorIndex(path.anchor, `paths[${p}]`);
    path.startTypes?.forEach((type, i) => {
      nodeType(type, `paths[${p}].startTypes[${i}]`);
    });
    unit(path.score, `paths[${p}].score`);
    if (path.confidence !== undefined) unit(path.confidence, `paths[${p}].confidence`);
    path.hops.forEach((hop, h) => {
      edgeType(hop.edgeType, `paths[${p}].hops[${h}]`);
      if (!directions.has(hop.direction))
        problems.push(
          `paths[${p}].hops[${h}]: direction ${JSON.stringify(hop.direction)} is not "out" or "in"`,
        );
      hop.nodeTypes?.forEach((type, i) => {
        nodeType(type, `paths[${p}].hops[${h}].nodeTypes[${i}]`);
      });
    });
  });
  const variables = new Set<string>();
  plan.variables.forEach((v, i) => {
    if (variables.has(v.name)) problems.push(`variables[${i}]: "${v.name}" is declared twice`);
    variables.add(v.name);
    v.nodeTypes?.forEach((type, j) => {
      nodeType(type, `variables[${i}].nodeTypes[${j}]`);
    });
  });
  plan.triplets.forEach((t, i) => {
    edgeType(t.edgeType, `triplets[${i}]`);
    for (const [side, term] of [
      ['subject', t.subject],
      ['object', t.object],
    ] as const) {
      if (term.kind === 'anchor') anchorIndex(term.anchor, `triplets[${i}].${side}`);
      else if (term.kind === 'variable') {
        if (!variables.has(term.name))
          problems.push(`triplets[${i}].${side}: variable "${term.name}" is not declared`);
      } else
        problems.push(
          `triplets[${i}].${side}: unknown term kind ${JSON.stringify((term as { kind?: unknown }).kind)}`,
        );
    }
  });
  if (plan.target !== undefined && !variables.has(plan.target))
    problems.push(`target "${plan.target}" is not a declared variable`);
  return problems;
}

/** Anchor candidates that name no node of `graph`, or a node of another type than they say. */
export async function anchorNodeProblems(plan: Plan, graph: GraphStoreV1): Promise<string[]> {
  const candidates = plan.anchors.flatMap((anchor, a) => anchor.candidates.map((c) => ({ a, c })));
  if (candidates.length === 0) return [];
  const nodes = await graph.doGetNodes(candidates.map(({ c }) => c.id));
  const problems: string[] = [];
  candidates.forEach(({ a, c }, i) => {
    const node = nodes[i];
    if (!node) problems.push(`anchors[${a}]: candidate "${c.id}" is not a node of this store`);
    else if (node.type !== c.type)
      problems.push(`anchors[${a}]: candidate "${c.id}" is a ${node.type}, not a ${c.type}`);
  });
  return problems;
}

import type {
  Candidate,
  GraphStoreV1,
  Plan,
  PlanHop,
  RetrievalResult,
  SkbNode,
  StageTrace,
  Trajectory,
  TrajectoryHop,
} from '@weft/spec';
import { relationLabel } from '@weft/kit';

/** Node names and types for display, fetched once for every id a rendering mentions. */
export type NodeLabels = ReadonlyMap<string, Pick<SkbNode, 'name' | 'type'>>;

export async function fetchLabels(graph: GraphStoreV1, ids: Iterable<string>): Promise<NodeLabels> {
  const unique = [...new Set(ids)];
  const nodes = unique.length ? await graph.doGetNodes(unique) : [];
  const labels = new Map<string, Pick<SkbNode, 'name' | 'type'>>();
  unique.forEach((id, i) => {
    const node = nodes[i];
    if (node) labels.set(id, { name: node.name, type: node.type });
  });
  return labels;
}

/** Every node id a result and its plan mention (results, trajectory hops, anchor links). */
export function mentionedIds(result: RetrievalResult, maxTrajectories = 3): string[] {
  const ids = new Set<string>();
  for (const candidate of result.ranking) {
    ids.add(candidate.id);
    for (const trajectory of candidate.trajectories.slice(0, maxTrajectories))
      for (const hop of trajectory.hops) ids.add(hop.node);
  }
  for (const anchor of result.trace.plan?.anchors ?? [])
    for (const linked of anchor.candidates.slice(0, 3)) ids.add(linked.id);
  return [...ids];
}

/** Why a ranking can be empty: no evidence at all, rather than a ranking of unrelated nodes. */
export const noResultReason =
  "— no word of the query is in the text index and no span names a node (e.g. a query in another script than the bundle's); nothing to rank";

const fixed = (value: number, digits = 3) =>
  Number.isInteger(value) ? String(value) : value.toFixed(digits);

/** `noun.animal —hypernym→ noun.animal`, `product ←made_by— brand`: a typed step as people read it. */
export function renderHop(
  edgeType: string | undefined,
  direction: 'in' | 'out' | undefined,
  landing: string,
): string {
  if (!edgeType) return ` → ${landing}`;
  return ` ${relationLabel(edgeType, direction ?? 'out')} ${landing}`;
}

/** A type list as people read it: `a|b|c`, cut after six (schemas like WordNet's have 45 types). */
function typeList(types: readonly string[] | undefined, none: string): string {
  if (!types?.length) return none;
  return types.length > 6 ? `${types.slice(0, 6).join('|')}|… ${types.length - 6} more` : types.join('|');
}

function hopTypes(hop: PlanHop): string {
  return typeList(hop.nodeTypes, '*');
}

/** One planned path: where it starts, each typed hop, and each hop's textual restriction. */
export function renderPlanPath(plan: Plan, index: number): string {
  const path = plan.paths[index]!;
  const anchor = path.anchor === undefined ? undefined : plan.anchors[path.anchor];
  const start = anchor
    ? `"${anchor.mention}" (${anchor.candidates[0]?.type ?? '?'})`
    : `text matches of ${typeList(path.startTypes, 'any type')}`;
  const hops = path.hops.map(
    (hop) =>
      `${renderHop(hop.edgeType, hop.direction, hopTypes(hop))}${hop.restriction ? ` [“${hop.restriction}”]` : ''}`,
  );
  return `  [${index}] ${start}${hops.join('')}  (score ${fixed(path.score)})`;
}

function label(labels: NodeLabels, id: string): string {
  const node = labels.get(id);
  return node ? `${node.name} [${id}]` : id;
}

/** The plan: asked-for types, restriction, anchors with their linked nodes, paths and constraints. */
export function renderPlan(plan: Plan, labels: NodeLabels): string[] {
  const lines = ['Plan:'];
  const shownTypes = plan.targetTypes.slice(0, 6).map((t) => `${t.type} ${fixed(t.score, 2)}`);
  if (plan.targetTypes.length > 6) shownTypes.push(`… ${plan.targetTypes.length - 6} more`);
  lines.push(`  target types: ${shownTypes.length ? shownTypes.join(', ') : '(any)'}`);
  lines.push(`  restriction: “${plan.restriction}”   confidence ${fixed(plan.confidence, 2)}`);
  if (plan.anchors.length === 0) lines.push('  anchors: none');
  else {
    lines.push('  anchors:');
    for (const anchor of plan.anchors) {
      const linked = anchor.candidates
        .slice(0, 3)
        .map((c) => `${label(labels, c.id)} (${c.type}) ${fixed(c.score, 2)}`)
        .join('; ');
      lines.push(
        `    “${anchor.mention}” (confidence ${fixed(anchor.confidence, 2)}) → ${linked || 'not linked'}`,
      );
    }
  }
  if (plan.paths.length > 0) {
    lines.push('  paths:');
    for (let i = 0; i < plan.paths.length; i++) lines.push(renderPlanPath(plan, i).replace(/^ {2}/, '    '));
  }
  if (plan.triplets.length > 0) {
    const term = (t: Plan['triplets'][number]['subject']) =>
      t.kind === 'variable' ? `?${t.name}` : `“${plan.anchors[t.anchor]?.mention ?? `anchor ${t.anchor}`}”`;
    lines.push('  constraints:');
    for (const variable of plan.variables) {
      lines.push(
        `    ?${variable.name}: ${typeList(variable.nodeTypes, 'any type')}${variable.restriction ? ` [“${variable.restriction}”]` : ''}${plan.target === variable.name ? '  ← answer' : ''}`,
      );
    }
    for (const triplet of plan.triplets)
      lines.push(
        `    ${term(triplet.subject)} ${relationLabel(triplet.edgeType, 'out')} ${term(triplet.object)}`,
      );
  }
  if (plan.cypher) lines.push(`  cypher: ${plan.cypher.replace(/\s+/g, ' ').slice(0, 300)}`);
  if (plan.raw && plan.raw.trim() !== plan.cypher)
    lines.push(`  raw: ${plan.raw.replace(/\s+/g, ' ').slice(0, 300)}`);
  return lines;
}

function renderTrajectoryHop(hop: TrajectoryHop, labels: NodeLabels, first: boolean): string {
  const node = labels.get(hop.node);
  const type = hop.nodeType ?? node?.type;
  const text = `${node?.name ?? hop.node}${type ? ` (${type})` : ''}`;
  const how =
    hop.via === 'text' || hop.via === 'vector' || hop.via === 'anchor'
      ? ` ‹${hop.via}${hop.textScore !== undefined ? ` ${fixed(hop.textScore, 2)}` : ''}›`
      : hop.textScore !== undefined
        ? ` ‹text ${fixed(hop.textScore, 2)}›`
        : '';
  return first ? `${text}${how}` : `${renderHop(hop.edgeType, hop.direction, text)}${how}`;
}

/** One trajectory: the start, then each hop with its edge type and direction, and how it was reached. */
export function renderTrajectory(trajectory: Trajectory, labels: NodeLabels): string {
  const hops = trajectory.hops.map((hop, i) => renderTrajectoryHop(hop, labels, i === 0)).join('');
  return `${hops}${trajectory.path === undefined ? '' : `  (path ${trajectory.path})`}`;
}

/** How a candidate was reached: up to `max` trajectories, then a count of the rest. */
export function renderReached(candidate: Candidate, labels: NodeLabels, max = 3): string[] {
  const lines = candidate.trajectories.slice(0, max).map((t) => `     via ${renderTrajectory(t, labels)}`);
  if (candidate.trajectories.length > max)
    lines.push(`     … and ${candidate.trajectories.length - max} more paths`);
  const scores = Object.entries(candidate.scores)
    .map(([name, value]) => `${name} ${fixed(value)}`)
    .join(', ');
  if (scores) lines.push(`     scores: ${scores}${candidate.source ? `  (from ${candidate.source})` : ''}`);
  return lines;
}

/**
 * Every model call of the retrieval, one line each in stage order: the stage, what the call was
 * for, how it ended, its tokens, time and model — `planner llm-paths: plan paths → ok (412 + 96
 * tokens, 803.2 ms, openai.chat:gpt-4o-mini)`. Embedding calls are counted on one line per stage.
 */
export function renderModelCalls(result: RetrievalResult): string[] {
  const lines: string[] = [];
  for (const stage of result.trace.stages) {
    const calls = stage.modelCalls ?? [];
    const round = result.trace.rounds > 1 ? ` (round ${stage.round})` : '';
    const language = calls.filter((c) => c.kind === 'language');
    for (const call of language) {
      const tokens =
        call.outcome === 'budget-exceeded' ? '' : `${call.inputTokens} + ${call.outputTokens} tokens, `;
      const unused = call.outcome === 'ok' ? unusedReply(stage, call.purpose) : undefined;
      const several = language.filter((c) => c.purpose === call.purpose && c.outcome === 'ok').length > 1;
      const outcome =
        unused === undefined
          ? `${call.outcome}${call.message ? `: ${call.message}` : ''}`
          : `${several ? 'replied, some replies unusable' : 'reply unusable'}: ${unused}`;
      lines.push(
        `${stage.kind} ${stage.name}${round}: ${call.purpose ?? 'call'} → ${outcome} (${tokens}${fixed(call.durationMs, 1)} ms, ${call.model})`,
      );
    }
    const embeddings = calls.filter((c) => c.kind === 'embedding');
    if (embeddings.length > 0)
      lines.push(
        `${stage.kind} ${stage.name}${round}: ${embeddings.length} embedding call${embeddings.length === 1 ? '' : 's'} (${embeddings.map((c) => c.outcome).join(', ')}, ${embeddings[0]!.model})`,
      );
  }
  return lines;
}

/**
 * Why a call that the provider answered (`outcome: 'ok'`) was of no use to its stage, when the stage
 * said so: stages report a reply they could not use as `<purpose>: <what>; <fallback>` (see
 * `callStructured`). A note that the reply was repaired (and then used) is no such report.
 */
function unusedReply(stage: StageTrace, purpose: string | undefined): string | undefined {
  if (!purpose) return undefined;
  const prefix = `${purpose}: `;
  return stage.warnings?.find((w) => w.startsWith(prefix) && !/ was repaired/.test(w))?.slice(prefix.length);
}

/** Every warning the stages reported, as `kind name: message`, in stage order. */
export function traceWarnings(result: RetrievalResult): string[] {
  return result.trace.stages.flatMap((s) => (s.warnings ?? []).map((w) => `${s.kind} ${s.name}: ${w}`));
}

/** The whole explanation of one retrieval: plan, stages, and per result the paths that reached it. */
export function renderExplanation(
  result: RetrievalResult,
  labels: NodeLabels,
  options: { maxResults?: number } = {},
): string {
  const { trace } = result;
  const lines: string[] = [];
  if (trace.plan) lines.push(...renderPlan(trace.plan, labels));
  else lines.push('Plan: none (no planner; the whole query searched the target types)');
  lines.push(
    `Stages (${trace.rounds} round${trace.rounds === 1 ? '' : 's'}, ${fixed(trace.durationMs, 1)} ms, ${trace.llmCalls} LLM call${trace.llmCalls === 1 ? '' : 's'}${trace.llmCalls ? ` (${trace.inputTokens} + ${trace.outputTokens} tokens)` : ''}):`,
    ...trace.stages.map(
      (s) =>
        `  ${s.kind} ${s.name}${trace.rounds > 1 ? ` (round ${s.round})` : ''}: ${fixed(s.durationMs, 1)} ms${s.llmCalls ? `, ${s.llmCalls} LLM call${s.llmCalls === 1 ? '' : 's'} (${s.inputTokens} + ${s.outputTokens} tokens)` : ''}${s.error ? `, FAILED ${s.error.code}: ${s.error.message}` : ''}`,
    ),
  );
  const calls = renderModelCalls(result);
  if (calls.some((line) => !/embedding call/.test(line)))
    lines.push('LLM calls:', ...calls.map((line) => `  ${line}`));
  const warnings = traceWarnings(result);
  if (warnings.length > 0) lines.push('Warnings:', ...warnings.map((w) => `  ${w}`));
  const route = result.ranking[0]?.scores.routeStructure;
  if (route !== undefined) {
    lines.push(
      route < 0.5
        ? `Route: text — the gate puts P(trajectory ranking wins) at ${fixed(route, 2)}, so the plain text ranking (BM25, then dense) is returned`
        : `Route: trajectories — the gate puts P(trajectory ranking wins) at ${fixed(route, 2)}`,
    );
  }
  if (trace.feedback.length > 0) {
    lines.push('Critic feedback:', ...trace.feedback.map((f) => `  ${f.kind}: ${f.message}`));
  }
  lines.push('Results:');
  const shown = result.ranking.slice(0, options.maxResults ?? result.ranking.length);
  shown.forEach((candidate, i) => {
    const node = labels.get(candidate.id);
    lines.push(
      `  ${i + 1}. ${node?.name ?? candidate.id} (${candidate.type ?? node?.type ?? '?'}) [${candidate.id}] score ${fixed(candidate.score, 4)}`,
    );
    lines.push(...renderReached(candidate, labels));
  });
  if (shown.length === 0) lines.push(`  (no results) ${noResultReason}`);
  return lines.join('\n');
}

import { pathConstraints, relationLabel } from '@weft/kit';
import { groundMention, groundQuestion, mentionFor } from '@weft/grounding';
import { type PathPlanOutput, schemaNames } from '@weft/llm';
import type {
  Anchor,
  EdgeDirection,
  Plan,
  PlanHop,
  PlanPath,
  PlanTriplet,
  PlanVariable,
  RetrievalContext,
  TypeScore,
} from '@weft/spec';

/** A model's plan made fit for the store, or why it could not be; `notes` say what was repaired or dropped. */
export interface GroundedPathPlan {
  readonly plan?: Plan;
  readonly notes: readonly string[];
  /** Why there is no plan (set when `plan` is absent). */
  readonly reason?: string;
}

const squash = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[“”"'‘’`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Whether the query says `mention` (ignoring case, quotes and spacing): a model may not invent anchors. */
function inQuery(query: string, mention: string): boolean {
  const text = squash(mention);
  return text.length > 0 && squash(query).includes(text);
}

const clip = (text: string | undefined, max = 200) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max) : flat;
};

interface Linked {
  readonly candidates: Anchor['candidates'];
  readonly confidence: number;
}

/** Candidates of the anchor's type first (the model said what it takes the mention for). */
function preferType(candidates: Anchor['candidates'], type: string | undefined): Anchor['candidates'] {
  if (!type || !candidates.some((c) => c.type === type)) return candidates;
  return [
    ...candidates.filter((c) => c.type === type),
    ...candidates.filter((c) => c.type !== type).map((c) => ({ ...c, score: c.score * 0.5 })),
  ];
}

/**
 * Grounds what the model wrote against the store: node and edge types onto the schema's names
 * (spellings repaired), every hop's direction against the edge signatures (turned around when only
 * the other way fits) and, for a path's first hop, against the anchor's actual edges; every mention
 * is grounded through the question's grounding (`groundQuestion`) when it offers a node of the
 * declared type, else by `groundMention` among nodes of that type (names, then documents); a
 * mention that is not words of the query is kept when the model declared its type. Paths that cannot be grounded are dropped with a note; a plan left without any path
 * is no plan (`reason`).
 */
export async function groundPathPlan(
  output: PathPlanOutput,
  options: { readonly query: string; readonly context: RetrievalContext; readonly offline: Plan },
): Promise<GroundedPathPlan> {
  const { query, context, offline } = options;
  const schema = context.schema;
  const names = schemaNames(schema);
  const notes: string[] = [];
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const nodeType = (name: string | undefined, what: string): string | undefined => {
    if (!name) return undefined;
    const found = names.nodeType(name);
    if (!found) notes.push(`${what} "${name}" is not a node type of the schema; ignored`);
    else if (found.repaired) notes.push(`${what} "${name}" read as "${found.name}"`);
    return found?.name;
  };

  // Target types: the schema's, and answer types only.
  const answerTypes = new Set(schema.targetTypes ?? schema.nodeTypes.map((t) => t.name));
  const targets: string[] = [];
  for (const name of output.targetTypes) {
    const type = nodeType(name, 'target type');
    if (!type) continue;
    if (!answerTypes.has(type))
      notes.push(`target type "${type}" is not an answer type of the schema; ignored`);
    else if (!targets.includes(type)) targets.push(type);
  }
  const targetTypes: TypeScore[] = targets.length
    ? targets.map((type, i) => ({ type, score: Math.max(0.5, 1 - 0.1 * i) }))
    : [...offline.targetTypes];

  // Anchors: words of the query, linked through the name index.
  const wanted: { mention: string; type?: string }[] = [];
  const mentioned: { mention: string; type?: string | undefined }[] = [
    ...output.anchors,
    ...output.paths.flatMap((p) => (p.anchor ? [{ mention: p.anchor }] : [])),
  ];
  for (const anchor of mentioned) {
    if (wanted.some((w) => squash(w.mention) === squash(anchor.mention))) continue;
    const type = nodeType(anchor.type, `type of "${anchor.mention}"`);
    // Not words of the query: kept when it names or describes a node of its declared type.
    if (!inQuery(query, anchor.mention) && !type) {
      notes.push(`mention "${clip(anchor.mention, 60)}" is not in the query and has no type; dropped`);
      continue;
    }
    wanted.push({ mention: anchor.mention, ...(type ? { type } : {}) });
  }
  const linked = new Map<string, Linked>();
  if (wanted.length > 0) {
    const { mentions } = await groundQuestion(query, context);
    const unresolved: typeof wanted = [];
    for (const w of wanted) {
      const span = mentionFor(mentions, w.mention, { overlapping: true });
      // The question's grounding, when it offers a node of the type the model declared.
      if (span && (!w.type || span.candidates.some((c) => c.type === w.type)))
        linked.set(squash(w.mention), {
          candidates: preferType(
            span.candidates.map((n) => ({ id: n.id, type: n.type, score: n.probability / span.probability })),
            w.type,
          ),
          confidence: span.probability,
        });
      else unresolved.push(w);
    }
    // Else the mention itself among nodes of its declared type: names, then documents.
    const found = await Promise.all(
      unresolved.map((w) => groundMention(w.mention, context, w.type ? { nodeTypes: [w.type] } : {})),
    );
    unresolved.forEach((w, i) => {
      const candidates = found[i]!;
      if (candidates.length === 0) {
        notes.push(`mention "${w.mention}" names no node of the store`);
        return;
      }
      linked.set(squash(w.mention), {
        candidates: preferType(candidates, w.type),
        confidence: Math.max(0, Math.min(1, candidates[0]!.score)),
      });
    });
  }
  const anchors: Anchor[] = [];
  const anchorIndex = new Map<string, number>();
  const anchorOf = (mention: string): number | undefined => {
    const key = squash(mention);
    if (anchorIndex.has(key)) return anchorIndex.get(key);
    const found = linked.get(key);
    if (!found) return undefined;
    const original = wanted.find((w) => squash(w.mention) === key)!.mention;
    anchors.push({
      mention: original,
      candidates: found.candidates
        .slice(0, 10)
        .map((c) => ({ ...c, score: Math.max(0, Math.min(1, c.score)) })),
      confidence: Math.max(0, Math.min(1, found.confidence)),
    });
    anchorIndex.set(key, anchors.length - 1);
    return anchors.length - 1;
  };

  // Paths: every hop's edge, landing type and direction checked against the schema.
  const drafts: { anchor?: number; startTypes?: string[]; hops: PlanHop[] }[] = [];
  output.paths.forEach((path, p) => {
    const anchor = path.anchor ? anchorOf(path.anchor) : undefined;
    const startType = nodeType(path.startType, `start type of path ${p + 1}`);
    if (path.anchor && anchor === undefined && !startType) {
      notes.push(`path ${p + 1} starts at "${clip(path.anchor, 60)}", which is not grounded; dropped`);
      return;
    }
    let previous = anchor !== undefined ? anchors[anchor]!.candidates[0]?.type : startType;
    const hops: PlanHop[] = [];
    for (const [h, hop] of path.hops.entries()) {
      const edge = names.edgeType(hop.edge);
      if (!edge) {
        notes.push(`path ${p + 1}: "${hop.edge}" is not an edge type of the schema; path dropped`);
        return;
      }
      if (edge.repaired) notes.push(`path ${p + 1}: edge "${hop.edge}" read as "${edge.name}"`);
      const landing = nodeType(hop.nodeType, `path ${p + 1}, hop ${h + 1} type`);
      const direction = names.direction(edge.name, hop.direction, previous, landing);
      if (!direction) {
        notes.push(
          `path ${p + 1}: ${edge.name} cannot lead from ${previous ?? 'any type'} to ${landing ?? 'any type'} in either direction; path dropped`,
        );
        return;
      }
      if (direction.repaired)
        notes.push(
          `path ${p + 1}: ${edge.name} followed "${direction.direction}" (the schema has it the other way round)`,
        );
      const restriction = clip(hop.restriction);
      hops.push({
        edgeType: edge.name,
        direction: direction.direction,
        ...(landing ? { nodeTypes: [landing] } : {}),
        ...(restriction ? { restriction } : {}),
      });
      previous = landing;
    }
    drafts.push({
      ...(anchor !== undefined ? { anchor } : {}),
      ...(anchor === undefined && startType ? { startTypes: [startType] } : {}),
      hops,
    });
  });

  // A first hop from an anchor must exist in the graph the way it is followed; schemas with
  // `*` ends (WordNet) cannot say which way, the anchor's own edges can. One batched look.
  const firstHops = drafts.filter((d) => d.anchor !== undefined && anchors[d.anchor]!.candidates[0]);
  if (firstHops.length > 0) {
    const seeds = [...new Set(firstHops.map((d) => anchors[d.anchor!]!.candidates[0]!.id))];
    const edges = [...new Set(firstHops.map((d) => d.hops[0]!.edgeType))];
    const neighbors = await context.graph.doNeighbors({
      seeds,
      edgeTypes: edges,
      direction: 'both',
      limitPerSeed: 500,
      ...signal,
    });
    const seen = new Set(neighbors.map((n) => `${n.seed}|${relationLabel(n.edgeType, n.direction, 'key')}`));
    for (const draft of firstHops) {
      const anchor = anchors[draft.anchor!]!;
      const seed = anchor.candidates[0]!.id;
      const hop = draft.hops[0]!;
      const other: EdgeDirection = hop.direction === 'out' ? 'in' : 'out';
      if (
        !seen.has(`${seed}|${relationLabel(hop.edgeType, hop.direction, 'key')}`) &&
        seen.has(`${seed}|${relationLabel(hop.edgeType, other, 'key')}`)
      ) {
        draft.hops[0] = { ...hop, direction: other };
        notes.push(`"${anchor.mention}" has ${hop.edgeType} edges only the other way; followed "${other}"`);
      }
    }
  }

  if (drafts.length === 0) {
    return {
      notes,
      reason:
        output.paths.length === 0 ? 'the model planned no path' : 'no path of the model could be grounded',
    };
  }
  const paths: PlanPath[] = drafts.map((draft, i) => ({ ...draft, score: Math.max(0.2, 1 - 0.2 * i) }));
  // Mentions without a path still anchor: a traverser may look next to them.
  for (const w of wanted) anchorOf(w.mention);
  const restriction = clip(output.restriction, 300) || offline.restriction;
  const { variables, triplets } = constraintsOf(paths[0]!, targetTypes, restriction);
  return {
    notes,
    plan: {
      query,
      targetTypes,
      anchors,
      paths,
      variables,
      triplets,
      ...(triplets.length > 0 ? { target: 'x' } : {}),
      restriction,
      // A plan the model wrote and the store confirmed; lower when parts of it had to be repaired.
      confidence: notes.length === 0 ? 0.9 : 0.7,
    },
  };
}

/** The best path as FocusedRetriever's constraints (anchor → … → x), so constraint traversers can use it. */
function constraintsOf(
  path: PlanPath,
  targetTypes: readonly TypeScore[],
  restriction: string,
): { variables: PlanVariable[]; triplets: PlanTriplet[] } {
  if (path.anchor === undefined) return { variables: [], triplets: [] };
  return pathConstraints([path], {
    targetTypes,
    restriction,
    variableName: (_path, hop) => `y${hop}`,
    hopRestrictions: true,
  });
}

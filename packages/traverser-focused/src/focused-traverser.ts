import { queryNames, searchText, structureConfirmation, withTextField } from '@weft/kit';
import type {
  Candidate,
  EdgeDirection,
  Plan,
  PlanTerm,
  PlanTriplet,
  RetrievalContext,
  TrajectoryHop,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';

export interface FocusedTraverserOptions {
  readonly name?: string;
  /** Stop growing the per-anchor candidate count once this many target candidates are grounded (default 20). */
  readonly enough?: number;
  /** Largest per-anchor candidate count tried (default 27). */
  readonly maxPerAnchor?: number;
  /** Most values a variable may take before it stops constraining (default 2000). */
  readonly maxDomain?: number;
  /** Weight of grounded answers against the text fill in the α merge (default 0.7). */
  readonly alpha?: number;
  /**
   * Scale `alpha` by the plan's confidence: `true` for every plan, `'offline-plans'` for plans no
   * LLM wrote (no `plan.raw`: an LLM planner's fallback, or its offline plan kept when it was not
   * asked), `false` (default) for none, the published merge. For offline planners, whose guessed
   * relation is often wrong untrained: on WordNet hybrid val the offline pipeline's Hit@1 went from
   * 1.9 to 36.5 (Hit@5 75.0 before: the wrongly grounded nodes took the first place), other sets
   * unchanged.
   */
  readonly alphaByConfidence?: boolean | 'offline-plans';
  /**
   * The text field its searches rank by where the store has it, e.g. `combined` (the document with its
   * neighbours' names by relation); default: the node's own document.
   */
  readonly field?: string;
}

/** Where a value of a variable came from: the value before it on the chain and the edge between. */
interface Origin {
  readonly from: string;
  readonly fromTerm: string;
  readonly edgeType: string;
  readonly direction: EdgeDirection;
}

/** The growth schedule of FocusedRetriever: 1, 2, 3, 5, 8, 12, 18, 27, … (k ← ⌊1.5k + 0.5⌋). */
export function candidateSchedule(max: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= max; k = Math.max(k + 1, Math.floor(1.5 * k + 0.5))) out.push(k);
  return out;
}

const termKey = (term: PlanTerm) => (term.kind === 'anchor' ? `@${term.anchor}` : term.name);

/**
 * Constraint grounding (FocusedRetriever): the plan's anchors and triplets are constraints; each
 * anchor's candidates are taken best first, the triplets are propagated (one batched neighbour call
 * each) until no domain changes, and the per-anchor candidate count grows until enough target
 * candidates are grounded. When the constraints admit nothing, the last-added anchor's constraints
 * are dropped (union fallback). Grounded answers come first, ranked by text, then a text fill.
 */
export class FocusedTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: FocusedTraverserOptions;

  constructor(options: FocusedTraverserOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'focused';
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { plan, limit, query } = options;
    const context = withTextField(options.context, this.options.field);
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const target = plan.target ?? 'x';

    let grounded = new Map<string, TrajectoryHop[]>();
    let triplets = [...plan.triplets];
    while (triplets.length > 0 && grounded.size === 0) {
      grounded = await this.ground(plan, triplets, target, context);
      if (grounded.size > 0) break;
      // Relax: drop the constraints of the last anchor that has any.
      const anchors = [
        ...new Set(
          triplets
            .flatMap((t) => [t.subject, t.object])
            .filter((t) => t.kind === 'anchor')
            .map(termKey),
        ),
      ];
      if (anchors.length <= 1) break;
      const dropped = anchors.at(-1)!;
      const chain = chainOf(triplets, dropped);
      triplets = triplets.filter((t) => !chain.has(t));
    }

    // The anchors are what the query talks about, not what it asks for — unless the query is
    // nothing but their name (`queryNames`: "ecasound" asks for ecasound), and then they lead.
    const asked = new Set(queryNames(plan));
    const anchorIds = new Set(
      plan.anchors
        .map((a) => a.candidates[0]?.id)
        .filter((id): id is string => id !== undefined && !asked.has(id)),
    );
    for (const id of anchorIds) grounded.delete(id);
    const texts = query.trim() ? query : '';
    const ids = [...grounded.keys()];
    const inSet = new Map<string, number>();
    // An unsure plan's grounded answers are worth less than a sure one's against the text fill.
    const byConfidence = this.options.alphaByConfidence;
    const scaled = byConfidence === true || (byConfidence === 'offline-plans' && plan.raw === undefined);
    // Scaled, the grounded answers meet the fill on its own terms: matched by the whole query, on
    // one scale with the fill (else the best grounded answer always scores 1 and comes first, however
    // unsure the plan). Measured: offline pipeline on WordNet hybrid Hit@1 train 33.5 → 37.3, val 36.5
    // → 42.3; Debian described and text train +1 question each; Pokémon hybrid val 42.1 → 36.8, described
    // train −1 question; the other sets of three KBs unchanged.
    const restriction = scaled ? query : plan.restriction || query;
    if (ids.length > 0 && texts) {
      const [hits] = await searchText(context.text, [restriction], {
        limit: ids.length,
        filter: { ids },
        ...signal,
      });
      for (const hit of hits ?? []) inSet.set(hit.id, hit.score);
    }
    const fill = new Map<string, number>();
    if (texts) {
      // Scaled, the fill spans every target type: an offline planner's asked type comes from type
      // names the question's words spell, which in a KB whose type names are not everyday words
      // misleads (WordNet's `noun.substance` for "which phenomena involve one substance …"). Hit@1,
      // train / val: WordNet hybrid 72 / 28 → 79 / 27 (bm25 75 / 27), its synthesised text-only
      // questions 165 → 178 of 189 (bm25 178), wn18rr val 179 → 180; Pokémon text 10 / 3 → 9 / 4,
      // hybrid val 7 → 6, described train 3 → 2; Debian equal.
      const types = scaled ? [] : plan.targetTypes.filter((t) => t.score >= 0.5).map((t) => t.type);
      const filter =
        types.length > 0 && types.length < (context.schema.targetTypes ?? context.schema.nodeTypes).length
          ? { nodeTypes: types }
          : context.schema.targetTypes
            ? { nodeTypes: context.schema.targetTypes }
            : undefined;
      const [hits] = await searchText(context.text, [query], {
        limit: limit + anchorIds.size,
        ...(filter ? { filter } : {}),
        ...signal,
      });
      for (const hit of hits ?? [])
        if (!anchorIds.has(hit.id) && fill.size < limit) fill.set(hit.id, hit.score);
    }

    const maxFill = Math.max(0, ...fill.values());
    const maxIn = Math.max(0, ...inSet.values(), ...(scaled ? [maxFill] : []));
    // Scaled, the grounded answers count as far as the question's words confirm the grounding
    // (`structureConfirmation`: they describe its best answer or its anchor). Hit@1 before → after,
    // train / val: WordNet hybrid 59 / 22 → 72 / 28 of 158 / 52 (bm25 75 / 27), its synthesised
    // text-only questions 160 → 165 of 189, wn18rr val 179 → 179 of 300; Pokémon hybrid 14 / 7 → 16 /
    // 7, text train 9 → 10; Debian described train 7 → 10, hybrid val 4 → 5; the other splits of
    // three KBs equal.
    const confirmed = scaled
      ? await structureConfirmation(context, query, plan, {
          best: maxIn,
          reached: Math.max(0, ...inSet.values()),
        })
      : 1;
    const alpha = (this.options.alpha ?? 0.7) * (scaled ? plan.confidence * confirmed : 1);
    const candidates: Candidate[] = [];
    for (const [id, hops] of grounded) {
      const text = maxIn > 0 ? (inSet.get(id) ?? 0) / maxIn : 0;
      const last = hops.at(-1)!;
      const withText = hops.map((h, i) =>
        i === hops.length - 1 ? { ...h, textScore: inSet.get(id) ?? 0 } : h,
      );
      candidates.push({
        id,
        ...(last.nodeType ? { type: last.nodeType } : {}),
        score: alpha + (1 - alpha) * text,
        scores: {
          grounded: 1,
          bm25InSet: text,
          bm25: inSet.get(id) ?? 0,
          structure: 1,
          hops: hops.length - 1,
          setSize: grounded.size,
        },
        trajectories: [{ hops: withText }],
        source: this.name,
      });
    }
    // Fill candidates go without their type: fetching nodes would cost a store call per query.
    const missing = [...fill.keys()].filter((id) => !grounded.has(id));
    for (const id of missing) {
      const text = maxFill > 0 ? fill.get(id)! / maxFill : 0;
      candidates.push({
        id,
        score: (1 - alpha) * text,
        scores: { grounded: 0, bm25Global: text, bm25: fill.get(id)!, structure: 0 },
        trajectories: [{ hops: [{ node: id, textScore: fill.get(id)!, via: 'text' }] }],
        source: this.name,
      });
    }
    // The nodes a query that is nothing but a name asks for lead: every other score is at most 1.
    const ranked = candidates.map((c) => (asked.has(c.id) ? { ...c, score: c.score + 1 } : c));
    ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return ranked.slice(0, limit);
  }

  /** Grows the per-anchor candidate count until enough target values are grounded or the cap. */
  private async ground(
    plan: Plan,
    triplets: readonly PlanTriplet[],
    target: string,
    context: RetrievalContext,
  ): Promise<Map<string, TrajectoryHop[]>> {
    const enough = this.options.enough ?? 20;
    const anchorsUsed = [
      ...new Set(
        triplets
          .flatMap((t) => [t.subject, t.object])
          .filter((t) => t.kind === 'anchor')
          .map((t) => (t as { anchor: number }).anchor),
      ),
    ];
    const most = Math.max(0, ...anchorsUsed.map((a) => plan.anchors[a]?.candidates.length ?? 0));
    let result = new Map<string, TrajectoryHop[]>();
    for (const k of candidateSchedule(Math.min(this.options.maxPerAnchor ?? 27, Math.max(1, most)))) {
      result = await this.propagate(plan, triplets, target, k, context);
      if (result.size >= enough) break;
    }
    return result;
  }

  /** Propagates the triplets over the domains until nothing changes; returns target values with paths. */
  private async propagate(
    plan: Plan,
    triplets: readonly PlanTriplet[],
    target: string,
    k: number,
    context: RetrievalContext,
  ): Promise<Map<string, TrajectoryHop[]>> {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const maxDomain = this.options.maxDomain ?? 2000;
    const domains = new Map<string, Set<string>>();
    const origins = new Map<string, Map<string, Origin>>();
    const types = new Map<string, string>();
    for (const t of triplets) {
      for (const term of [t.subject, t.object]) {
        if (term.kind !== 'anchor') continue;
        const anchor = plan.anchors[term.anchor];
        const chosen = (anchor?.candidates ?? []).slice(0, k);
        domains.set(termKey(term), new Set(chosen.map((c) => c.id)));
        for (const c of chosen) types.set(c.id, c.type);
      }
    }
    const variableTypes = new Map(
      plan.variables.map((v) => [v.name, v.nodeTypes && v.nodeTypes.length > 0 ? v.nodeTypes : undefined]),
    );
    let changed = true;
    for (let round = 0; changed && round < 2 * triplets.length + 2; round++) {
      changed = false;
      for (const t of triplets) {
        const s = termKey(t.subject);
        const o = termKey(t.object);
        // Propagate from the bound side (subject first) to the other; an edge s -> o seen from s is 'out'.
        for (const [fromKey, toKey, toTerm, direction] of [
          [s, o, t.object, 'out'],
          [o, s, t.subject, 'in'],
        ] as const) {
          const from = domains.get(fromKey);
          if (!from || from.size === 0 || from.size > maxDomain) continue;
          const nodeTypes =
            toTerm.kind === 'variable' && toKey !== target ? variableTypes.get(toKey) : undefined;
          const neighbors = await context.graph.doNeighbors({
            seeds: [...from],
            edgeTypes: [t.edgeType],
            direction,
            ...(nodeTypes ? { nodeTypes } : {}),
            limitPerSeed: 500,
            ...signal,
          });
          const reached = new Map<string, Origin>();
          for (const n of neighbors) {
            types.set(n.node, n.nodeType);
            if (!reached.has(n.node))
              reached.set(n.node, {
                from: n.seed,
                fromTerm: fromKey,
                edgeType: n.edgeType,
                direction: n.direction,
              });
          }
          const current = domains.get(toKey);
          const next = current
            ? new Set([...current].filter((id) => reached.has(id)))
            : new Set(reached.keys());
          if (!current || next.size !== current.size) {
            changed = true;
            domains.set(toKey, next);
            if (!toKey.startsWith('@')) {
              const known = origins.get(toKey) ?? new Map<string, Origin>();
              for (const id of next) if (!known.has(id) && reached.has(id)) known.set(id, reached.get(id)!);
              origins.set(toKey, known);
            }
          }
        }
      }
    }
    const out = new Map<string, TrajectoryHop[]>();
    for (const id of domains.get(target) ?? []) {
      const hops: TrajectoryHop[] = [];
      let node = id;
      let term = target;
      const visited = new Set<string>();
      while (!visited.has(`${term}|${node}`)) {
        visited.add(`${term}|${node}`);
        const origin = origins.get(term)?.get(node);
        if (!origin) {
          hops.unshift({
            node,
            ...(types.get(node) ? { nodeType: types.get(node)! } : {}),
            via: term.startsWith('@') ? 'anchor' : 'structure',
          });
          break;
        }
        hops.unshift({
          node,
          ...(types.get(node) ? { nodeType: types.get(node)! } : {}),
          edgeType: origin.edgeType,
          direction: origin.direction,
          via: 'structure',
        });
        node = origin.from;
        term = origin.fromTerm;
      }
      // A chain that does not end at an anchor is still a valid path; its first node is where it starts.
      if (hops[0] && hops[0].edgeType !== undefined) {
        const { edgeType: _e, direction: _d, ...first } = hops[0];
        hops[0] = { ...first, via: 'anchor' };
      }
      out.set(id, hops);
    }
    return out;
  }
}

/** The triplets that hang off one anchor term (its chain of variables up to the target). */
function chainOf(triplets: readonly PlanTriplet[], anchorKey: string): Set<PlanTriplet> {
  const chain = new Set<PlanTriplet>();
  const frontier = [anchorKey];
  const seen = new Set(frontier);
  while (frontier.length > 0) {
    const key = frontier.pop()!;
    for (const t of triplets) {
      const s = termKey(t.subject);
      const o = termKey(t.object);
      if (s !== key && o !== key) continue;
      chain.add(t);
      const other = s === key ? o : s;
      // Stop at variables that other anchors also constrain (the target).
      const shared = triplets.some(
        (u) => !chain.has(u) && (termKey(u.subject) === other || termKey(u.object) === other),
      );
      if (!seen.has(other) && !shared) {
        seen.add(other);
        frontier.push(other);
      }
    }
  }
  return chain;
}

import type {
  Candidate,
  Plan,
  PrepareOptions,
  RetrievalContext,
  TraverserV1,
  TraverseOptions,
} from '@weft/spec';
import { queryNames, withTextField } from '@weft/kit';
import { markAnchorNeighbors } from './anchor-neighbors.ts';
import { fillCandidates, keepFillShare, structuralCandidates } from './assemble-candidates.ts';
import { type AnchorStarts, followPaths, startsOfAnchors } from './follow-paths.ts';
import { type GlobalSearches, startGlobalSearches } from './global-searches.ts';
import { collectEntries, combineEvidence } from './path-evidence.ts';
import { textEvidence } from './text-evidence.ts';

export interface MorTraverserOptions {
  /** Name shown in traces (default `'mor'`). */
  readonly name?: string;
  /** Most nodes kept on a frontier after each hop (default 300). */
  readonly frontierLimit?: number;
  /** Most neighbours taken from one node per hop (default 200). */
  readonly neighborsPerSeed?: number;
  /** Text top-k of a hop's node type united with its neighbours, when the hop names its types (default 20). */
  readonly hopTextK?: number;
  /** Text (and dense) top-N on the target types used to fill the list (default: the limit). */
  readonly fillK?: number;
  /** Share of the returned list kept for text/dense fill candidates when there are enough (default 0.3). */
  readonly fillShare?: number;
  /** Dense top-N; its scores also score the structural set where it reaches (default and minimum: fillK + 8). */
  readonly denseK?: number;
  /** Start from anchor candidates scoring at least this fraction of the best (default 0.6) ... */
  readonly startRatio?: number;
  /** ... and at most this many of them (default 3). */
  readonly maxStarts?: number;
  /**
   * How the sets of several paths combine: `'sum'` adds their evidence (a node reached by two
   * anchors ranks higher); `'intersect'` keeps the intersection of the confident paths of different
   * anchors, falling back to the union when it is empty (MoR).
   */
  readonly combine?: 'sum' | 'intersect';
  /**
   * The text field its searches rank by where the store has it, e.g. `combined` (the document with its
   * neighbours' names by relation); default: the node's own document.
   */
  readonly field?: string;
}

/**
 * What `doPrepare` hands the pipeline: the global searches it started, and what they were started
 * for. `doTraverse` uses them only for the same query, limit and text index, so a handle can never
 * carry one store's nodes into another store's traversal.
 */
class PreparedSearches {
  readonly query: string;
  readonly limit: number;
  readonly text: RetrievalContext['text'];
  readonly searches: GlobalSearches;

  constructor(query: string, limit: number, text: RetrievalContext['text'], searches: GlobalSearches) {
    this.query = query;
    this.limit = limit;
    this.text = text;
    this.searches = searches;
  }
}

/**
 * Mixed traversal (MoR): for each planned path, per hop the union of the frontier's typed neighbours
 * and the text top-k of the hop's node type; candidates keep every trajectory that reached them
 * (node per hop, edge type, direction, text score, how it was reached). Text and dense matches on
 * the target types fill the list when the structure finds little. All store calls are batched: one
 * neighbour call per hop, one text search for the candidate set. The instance holds only its
 * settings, so one traverser serves any number of stores and queries at once.
 */
export class MorTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name: string;
  private readonly options: MorTraverserOptions;

  constructor(options: MorTraverserOptions = {}) {
    this.options = options;
    this.name = options.name ?? 'mor';
  }

  /** Starts the global text and dense searches, which need only the query, while the planner runs. */
  doPrepare(options: PrepareOptions): PreparedSearches {
    const context = withTextField(options.context, this.options.field);
    return new PreparedSearches(
      options.query,
      options.limit,
      context.text,
      this.globalSearches(options.query, options.limit, context),
    );
  }

  async doTraverse(options: TraverseOptions): Promise<Candidate[]> {
    const { plan, limit, query } = options;
    const context = withTextField(options.context, this.options.field);
    const startsOf = this.startsOf(plan);
    // Prepared while the planner ran, or started now: either way they run while the paths are followed.
    const searches = preparedFor(options, context.text) ?? this.globalSearches(query, limit, context);
    const reachedByPath = await followPaths(plan, context, startsOf, {
      frontierLimit: this.options.frontierLimit ?? 300,
      neighborsPerSeed: this.options.neighborsPerSeed ?? 200,
      hopTextK: this.options.hopTextK ?? 20,
    });
    const entries = collectEntries(plan, reachedByPath, startsOf);
    const evidence = combineEvidence(plan, entries, reachedByPath, this.options.combine ?? 'sum');
    const text = await textEvidence(
      plan,
      query,
      context,
      [...entries.keys()],
      searches,
      pathAnchorIds(plan, startsOf),
      this.fillK(limit),
    );
    const candidates = [
      ...structuralCandidates(plan, entries, evidence, text, this.name),
      ...fillCandidates(plan, entries, text, this.name),
    ];
    await markAnchorNeighbors(plan, context, candidates, startsOf, this.options.neighborsPerSeed ?? 200);
    return keepFillShare(candidates, limit, this.options.fillShare ?? 0.3);
  }

  private fillK(limit: number): number {
    return Math.max(this.options.fillK ?? limit, 1);
  }

  private globalSearches(query: string, limit: number, context: RetrievalContext): GlobalSearches {
    const fillK = this.fillK(limit);
    return startGlobalSearches(query, context, {
      fillK,
      denseK: Math.max(fillK + 8, this.options.denseK ?? 0),
    });
  }

  private startsOf(plan: Plan): AnchorStarts {
    return startsOfAnchors(plan, this.options.startRatio ?? 0.6, this.options.maxStarts ?? 3);
  }
}

/** The prepared searches, when the handle was made by `doPrepare` for this query, limit and index. */
function preparedFor(
  options: TraverseOptions,
  text: TraverseOptions['context']['text'],
): GlobalSearches | undefined {
  const handle = options.prepared;
  return handle instanceof PreparedSearches &&
    handle.query === options.query &&
    handle.limit === options.limit &&
    handle.text === text
    ? handle.searches
    : undefined;
}

/**
 * Start nodes of the anchors that planned paths start from: what the query talks about, never an
 * answer — unless the query is nothing but their name (`queryNames`: "ecasound" asks for ecasound).
 */
function pathAnchorIds(plan: Plan, startsOf: AnchorStarts): Set<string> {
  const pathAnchors = new Set(plan.paths.flatMap((p) => (p.anchor === undefined ? [] : [p.anchor])));
  const asked = new Set(queryNames(plan));
  return new Set(
    [...startsOf]
      .filter(([a]) => pathAnchors.has(a))
      .flatMap(([, s]) => [...s.keys()])
      .filter((id) => !asked.has(id)),
  );
}

import { edgeTypeWords, searchText, stableHash, WeftError, withArticle } from '@weft/kit';
import type { EdgeDirection, GraphNeighbor, RetrievalContext, SkbNode, SkbQuery, SkbSplit } from '@weft/spec';

export interface SynthesizeQueriesOptions {
  /**
   * Relational queries to make: a textual requirement on the answer plus a relation to a named node
   * (default 200); a third of those whose relation alone reaches at most `maxAnswers` nodes ask about
   * the relation alone, every node it reaches gold.
   */
  readonly hybrid?: number;
  /**
   * Relational queries whose neighbour is described by words of its own text instead of named, as
   * people ask ("the maker of the first mirrorless body"), so training sees anchors no name links
   * (default 0).
   */
  readonly described?: number;
  /** Text-only queries: a partial paraphrase of one node's description (default 100). */
  readonly text?: number;
  readonly seed?: number;
  /** Shares of the `val` and `test` splits; the rest is `train` (default 0.2 each). */
  readonly valShare?: number;
  readonly testShare?: number;
  /** Relations that reach more nodes of the answer's type than this are skipped: no requirement narrows them (default 300). */
  readonly maxCandidates?: number;
  /** Queries whose requirement fits more candidates than this are dropped (default 5). */
  readonly maxAnswers?: number;
  readonly onProgress?: (made: number, wanted: number) => void;
  readonly abortSignal?: AbortSignal;
}

export interface SynthesizedQueries {
  readonly hybrid: SkbQuery[];
  readonly described: SkbQuery[];
  readonly text: SkbQuery[];
}

/** Words no requirement is made of: they say nothing about a node. */
const functionWords = new Set(
  (
    'a an the of in on at to for from by with about as into onto over under and or nor but if then than so ' +
    'is are was were be been being am do does did has have had having it its this that these those there here ' +
    'which what who whom whose where when why how all any both each every some such no not only very too also ' +
    'just can could may might must shall should will would one ones other another more most used usually often'
  ).split(' '),
);

const words = (text: string) => text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];

/** The first clause of a node's text, without the node's own names and function words. */
function describingWords(node: SkbNode): string[] {
  const clause = node.text.split(/;|\.\s|["“(]/)[0] ?? '';
  const names = new Set([node.name, ...(node.aliases ?? [])].flatMap((n) => words(n.toLowerCase())));
  const seen = new Set<string>();
  return words(clause).filter((w) => {
    const lower = w.toLowerCase();
    if (w.length < 3 || functionWords.has(lower) || names.has(lower) || seen.has(lower)) return false;
    seen.add(lower);
    return true;
  });
}

/** Keeps about `share` of the words, chosen by a seeded hash, in their original order. */
function keepSome(list: readonly string[], share: number, salt: string, seed: number): string[] {
  return list.filter((w) => stableHash(`${salt}|${w}`, seed) % 1000 < share * 1000);
}

/** `noun.animal` → `animal`, `egg_group` → `egg group`: a node type as a word of a question. */
export function typeWord(type: string): string {
  const last = type.split('.').pop() ?? type;
  return last.replace(/[_\-:/]+/g, ' ').trim();
}

function splitOf(id: string, seed: number, valShare: number, testShare: number): SkbSplit {
  const u = (stableHash(id, seed ^ 0x5bd1e995) % 10_000) / 10_000;
  if (u < testShare) return 'test';
  if (u < testShare + valShare) return 'val';
  return 'train';
}

/**
 * Four ways to ask, so a model trained on them does not learn one sentence shape. `phrase` names the
 * answer's type and its relation to the named node.
 */
export function question(variant: number, phrase: string, requirement: string): string {
  switch (variant % 4) {
    case 0:
      return `Which ${phrase} and ${requirement}?`;
    case 1:
      return `${requirement}: which ${phrase}?`;
    case 2:
      return `I am looking for ${withArticle(phrase)}, ${requirement}`;
    default:
      return `${phrase} ${requirement}`;
  }
}

/** A question on the relation alone, in three shapes. */
export function structuralQuestion(variant: number, phrase: string): string {
  switch (variant % 3) {
    case 0:
      return `Which ${phrase}?`;
    case 1:
      return `every ${phrase}`;
    default:
      return `I am looking for ${withArticle(phrase)}`;
  }
}

/** Seen from the answer: `move that Charizard learns`, `pokemon that has type Fire`. */
function relationPhrase(
  type: string,
  anchorName: string,
  edgeType: string,
  fromAnchor: EdgeDirection,
): string {
  // fromAnchor 'out': anchor -edge-> answer; 'in': answer -edge-> anchor.
  return fromAnchor === 'out'
    ? `${typeWord(type)} that ${anchorName} ${edgeTypeWords(edgeType)}`
    : `${typeWord(type)} that ${edgeTypeWords(edgeType)} ${anchorName}`;
}

const opposite = (d: EdgeDirection): EdgeDirection => (d === 'in' ? 'out' : 'in');

/**
 * STaRK-style queries synthesised from a store alone, for training and for a benchmark of the user's
 * own KB. A hybrid query samples an answer node, a neighbour of it to name (the anchor) and a
 * textual requirement taken from the answer's own description; every node of the answer's type
 * that the anchor reaches over the same relation is a candidate, and every candidate whose document
 * matches the requirement at least 90% as well as the sampled answer (BM25 among the candidates) is
 * gold — not only the sampled one. Text-only queries are partial paraphrases of one description.
 * Deterministic for a store and seed. Needs `doSampleNodes` on the graph store.
 */
export async function synthesizeQueries(
  context: RetrievalContext,
  options: SynthesizeQueriesOptions = {},
): Promise<SynthesizedQueries> {
  const graph = context.graph;
  if (!graph.doSampleNodes) {
    throw new WeftError({
      code: 'WEFT_UNSUPPORTED',
      message: `the graph store (${graph.provider}) cannot sample nodes (doSampleNodes), so queries cannot be synthesised from it`,
    });
  }
  const seed = options.seed ?? 1;
  const wantHybrid = options.hybrid ?? 200;
  const wantDescribed = options.described ?? 0;
  const wantText = options.text ?? 100;
  const valShare = options.valShare ?? 0.2;
  const testShare = options.testShare ?? 0.2;
  const maxCandidates = options.maxCandidates ?? 300;
  const maxAnswers = options.maxAnswers ?? 5;
  const targets = context.schema.targetTypes ?? context.schema.nodeTypes.map((t) => t.name);
  const signal = options.abortSignal ? { abortSignal: options.abortSignal } : {};
  const total = wantHybrid + wantDescribed + wantText;
  const progress = (made: number) => options.onProgress?.(made, total);
  const share = (made: number, wanted: number) => made / Math.max(1, wanted);

  // Oversample: many nodes have no usable description or no narrowing relation.
  const pool = await graph.doSampleNodes({ nodeTypes: targets, count: 8 * total + 50, seed, ...signal });
  const hybrid: SkbQuery[] = [];
  const described: SkbQuery[] = [];
  const text: SkbQuery[] = [];
  const made = () => hybrid.length + described.length + text.length;
  const used = new Set<string>();
  for (
    let start = 0;
    start < pool.length &&
    (hybrid.length < wantHybrid || described.length < wantDescribed || text.length < wantText);
    start += 64
  ) {
    options.abortSignal?.throwIfAborted();
    const batch = pool.slice(start, start + 64);
    const nodes = await graph.doGetNodes(batch, signal);
    for (const node of nodes) {
      if (!node || used.has(node.id)) continue;
      const describing = describingWords(node);
      // Alternate: every node is offered to the kind that is further from its goal.
      const relationalFull = hybrid.length >= wantHybrid && described.length >= wantDescribed;
      const wantsText =
        text.length < wantText &&
        share(text.length, wantText) <= share(hybrid.length + described.length, wantHybrid + wantDescribed);
      if (text.length < wantText && (wantsText || relationalFull)) {
        const kept = keepSome(describing, 0.7, node.id, seed);
        if (kept.length < 4) continue;
        used.add(node.id);
        const id = `synth-text-${String(text.length + 1).padStart(4, '0')}`;
        text.push({
          id,
          query: kept.join(' '),
          answers: [node.id],
          split: splitOf(id, seed, valShare, testShare),
          meta: { synthesized: 'text', node: node.id },
        });
        progress(made());
        continue;
      }
      if (relationalFull) continue;
      const settings = { seed, maxCandidates, maxAnswers, signal };
      const wantsDescribed =
        described.length < wantDescribed &&
        (hybrid.length >= wantHybrid ||
          share(described.length, wantDescribed) <= share(hybrid.length, wantHybrid));
      // A node whose neighbours cannot be described can still be asked about by name.
      const query = wantsDescribed
        ? await hybridQuery(context, node, describing, { ...settings, describe: true })
        : undefined;
      if (query) {
        used.add(node.id);
        const id = `synth-described-${String(described.length + 1).padStart(4, '0')}`;
        described.push({ id, ...query, split: splitOf(id, seed, valShare, testShare) });
        progress(made());
        continue;
      }
      if (hybrid.length >= wantHybrid) continue;
      const named = await hybridQuery(context, node, describing, settings);
      if (!named) continue;
      used.add(node.id);
      const id = `synth-hybrid-${String(hybrid.length + 1).padStart(4, '0')}`;
      hybrid.push({ id, ...named, split: splitOf(id, seed, valShare, testShare) });
      progress(made());
    }
  }
  return { hybrid, described, text };
}

async function hybridQuery(
  context: RetrievalContext,
  node: SkbNode,
  describing: readonly string[],
  options: {
    seed: number;
    maxCandidates: number;
    maxAnswers: number;
    signal: { abortSignal?: AbortSignal };
    /** Describe the neighbour by words of its own text instead of naming it. */
    describe?: boolean;
  },
): Promise<Omit<SkbQuery, 'id' | 'split'> | undefined> {
  const requirementWords = keepSome(describing, 0.6, node.id, options.seed).slice(0, 5);
  if (requirementWords.length < 2) return undefined;
  const requirement = requirementWords.join(' ');
  const neighbours = await context.graph.doNeighbors({
    seeds: [node.id],
    direction: 'both',
    limitPerSeed: 200,
    ...options.signal,
  });
  const ordered = [...neighbours].sort(
    (a, b) =>
      stableHash(`${node.id}|${a.node}|${a.edgeType}`, options.seed) -
      stableHash(`${node.id}|${b.node}|${b.edgeType}`, options.seed),
  );
  const anchors = await context.graph.doGetNodes(
    ordered.slice(0, 12).map((n) => n.node),
    options.signal,
  );
  for (const [i, neighbour] of ordered.slice(0, 12).entries()) {
    const anchor = anchors[i];
    if (!anchor || !usableAnchor(anchor, node)) continue;
    const description = options.describe
      ? await describe(context, anchor, requirementWords, options)
      : undefined;
    if (options.describe && !description) continue;
    const fromAnchor = opposite(neighbour.direction);
    const candidates = await relationSet(context, neighbour, fromAnchor, node.type, options);
    if (!candidates?.includes(node.id)) continue;
    // A relation that narrows to a few nodes is asked about by itself a third of the time, as people
    // ask ("which word senses fall under the usage domain of 'trade name'"): every candidate is gold.
    if (
      !options.describe &&
      candidates.length <= options.maxAnswers &&
      stableHash(`${node.id}|structural`, options.seed) % 3 === 0
    ) {
      const phrase = relationPhrase(node.type, anchor.name, neighbour.edgeType, fromAnchor);
      return {
        query: structuralQuestion(stableHash(node.id, options.seed), phrase),
        answers: [...candidates].sort(),
        meta: {
          synthesized: 'hybrid',
          node: node.id,
          anchors: [anchor.id],
          relation: `${neighbour.edgeType}|${fromAnchor}`,
          candidates: candidates.length,
        },
      };
    }
    const gold = await judge(context, requirement, node.id, candidates, options.signal);
    if (!gold || gold.length > options.maxAnswers) continue;
    const phrase = relationPhrase(
      node.type,
      description ? `the ${typeWord(anchor.type)} ${description}` : anchor.name,
      neighbour.edgeType,
      fromAnchor,
    );
    return {
      query: question(stableHash(node.id, options.seed), phrase, requirement),
      answers: gold,
      meta: {
        synthesized: description ? 'described' : 'hybrid',
        node: node.id,
        anchors: [anchor.id],
        relation: `${neighbour.edgeType}|${fromAnchor}`,
        requirement,
        ...(description ? { description } : {}),
        candidates: candidates.length,
      },
    };
  }
  return undefined;
}

/**
 * Words of the anchor's own text that find it: at most 5 of its first clause (none of its names, none
 * of the requirement's), kept only when a search for them ranks the anchor first among the nodes of its
 * type — a description that fits many nodes would make the gold answers wrong.
 */
async function describe(
  context: RetrievalContext,
  anchor: SkbNode,
  requirementWords: readonly string[],
  options: { seed: number; signal: { abortSignal?: AbortSignal } },
): Promise<string | undefined> {
  const taken = new Set(requirementWords.map((w) => w.toLowerCase()));
  const kept = keepSome(
    describingWords(anchor).filter((w) => !taken.has(w.toLowerCase())),
    0.7,
    anchor.id,
    options.seed,
  ).slice(0, 5);
  if (kept.length < 3) return undefined;
  const description = kept.join(' ');
  const [hits = []] = await searchText(context.text, [description], {
    limit: 1,
    filter: { nodeTypes: [anchor.type] },
    ...options.signal,
  });
  return hits[0]?.id === anchor.id ? description : undefined;
}

/** A name a question can use: short, and neither containing nor contained in the answer's name. */
function usableAnchor(anchor: SkbNode, answer: SkbNode): boolean {
  const name = anchor.name.trim().toLowerCase();
  const answerName = answer.name.trim().toLowerCase();
  const count = words(name).length;
  return (
    count >= 1 && count <= 5 && name.length >= 2 && !name.includes(answerName) && !answerName.includes(name)
  );
}

/** Every node of `type` the anchor reaches over the neighbour's relation; undefined when too many. */
async function relationSet(
  context: RetrievalContext,
  neighbour: GraphNeighbor,
  fromAnchor: EdgeDirection,
  type: string,
  options: { maxCandidates: number; signal: { abortSignal?: AbortSignal } },
): Promise<string[] | undefined> {
  const reached = await context.graph.doNeighbors({
    seeds: [neighbour.node],
    edgeTypes: [neighbour.edgeType],
    direction: fromAnchor,
    nodeTypes: [type],
    limitPerSeed: options.maxCandidates + 1,
    ...options.signal,
  });
  const ids = [...new Set(reached.map((n) => n.node))];
  return ids.length > options.maxCandidates ? undefined : ids;
}

/** Candidates whose documents match the requirement at least 90% as well as the sampled answer's. */
async function judge(
  context: RetrievalContext,
  requirement: string,
  answer: string,
  candidates: readonly string[],
  signal: { abortSignal?: AbortSignal },
): Promise<string[] | undefined> {
  const [hits = []] = await searchText(context.text, [requirement], {
    limit: candidates.length,
    filter: { ids: candidates },
    ...signal,
  });
  const own = hits.find((h) => h.id === answer)?.score;
  if (!own || own <= 0) return undefined;
  return hits.filter((h) => h.score >= 0.9 * own).map((h) => h.id);
}

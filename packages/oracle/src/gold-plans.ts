import type { Relation } from '@weft/kit';
import type { EdgeDirection, GraphStoreV1, SkbQuery, SkbSchema } from '@weft/spec';
import { type RelationalPartData, relationPaths } from './relational-part.ts';

/** One hop of a gold path, followed from the anchor towards the answer. */
export interface GoldHop {
  readonly edgeType: string;
  /** `out` follows the edge as stored; `both` when the source does not say (resolved on the graph). */
  readonly direction: EdgeDirection | 'both';
}

/** A gold relation path: from a gold anchor node to the answers. */
export interface GoldPath {
  readonly anchor: string;
  readonly hops: readonly GoldHop[];
}

/** What a query set says about a question's plan, before the store is read. */
export interface GoldAnnotation {
  readonly queryId: string;
  readonly question: string;
  /** Gold anchor node ids (`meta.anchors`, node types left out). */
  readonly anchors: readonly string[];
  /** The words of the question that name each anchor, when the set says (`meta.anchor_names`). */
  readonly anchorNames?: readonly (string | undefined)[];
  /**
   * The words of the question that describe each anchor instead of naming it, when the set says
   * (`meta.anchor_descriptions`, node id → description).
   */
  readonly anchorDescriptions?: readonly (string | undefined)[];
  /** Gold paths; empty when the query set gives none. */
  readonly paths: readonly GoldPath[];
  /** A node type the answers must have, when the source says so (WordNet's `type(X) = L`). */
  readonly answerType?: string;
  /** What the answer's own text should say, as the judge wrote it (`meta.textual_requirement`), or empty. */
  readonly restriction: string;
  /** Where the paths came from. */
  readonly source: 'meta.paths' | 'annotations' | 'relational_part' | 'none';
}

function isDirection(value: unknown): value is EdgeDirection | 'both' {
  return value === 'out' || value === 'in' || value === 'both';
}

/** `meta.paths: [{anchor, hops: [{edgeType, direction}]}]`, direction from the anchor towards the answer. */
function metaPaths(value: unknown): GoldPath[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const paths: GoldPath[] = [];
  for (const entry of value) {
    const anchor = (entry as { anchor?: unknown })?.anchor;
    const hops = (entry as { hops?: unknown })?.hops;
    if (typeof anchor !== 'string' || !Array.isArray(hops) || hops.length === 0) continue;
    const parsed = hops.map((hop) => ({
      edgeType: (hop as { edgeType?: unknown })?.edgeType,
      direction: (hop as { direction?: unknown })?.direction ?? 'both',
    }));
    if (parsed.every((h) => typeof h.edgeType === 'string' && isDirection(h.direction)))
      paths.push({ anchor, hops: parsed as GoldHop[] });
  }
  return paths;
}

/** The annotations' constraints run from the answer to the anchor: reversed and flipped (`relationPaths`). */
function annotationPaths(part: RelationalPartData): GoldPath[] {
  return relationPaths({
    constraints: part.constraints.filter(
      (c) => typeof c.anchor === 'string' && Array.isArray(c.path) && c.path.length > 0,
    ),
  });
}

type Token =
  | { kind: 'node'; label: string }
  | { kind: 'edge'; edgeType: string; arrow: 'right' | 'left' | 'none' };

/**
 * A relational part as the judged sets write it. WordNet's: `X --hypernym--> A`,
 * `A --part_meronym--> X or A --…`, `X --instance_hypernym--> A1 and A2 --part_meronym--> X`,
 * `A --antonym-- B --similar_to-- X`, `X --domain_topic--> A and type(X) = L`: X is the answer, A (or
 * A1) the first gold anchor, A2 the second. The Pokémon KB's: `X:move <-learns- Charizard
 * (pokemon:charizard) AND X -has_type-> Fire (type:fire)`: an anchor is named by its id in
 * parentheses, `X:<type>` gives the answers' type. `--e-->` / `-e->` is an edge as stored, `<--e--` /
 * `<-e-` backwards, `--e--` either way; of alternatives (`or`) the first is taken; `-->+` (any
 * depth) is read as one hop.
 */
export function parseRelationalPart(
  text: string,
  anchors: readonly string[],
): { paths: GoldPath[]; typeLabel?: string } {
  let main = text.split(';')[0] ?? '';
  // An anchor named by its id in parentheses stands for A1, A2, … (its name words are dropped).
  for (const [k, id] of anchors.entries())
    main = main.replace(new RegExp(`(?:[^\\s<>-]+\\s+)*?\\(${escapeRegExp(id)}\\)`), ` A${k + 1} `);
  const answerType = /\bX:([A-Za-z0-9_.]+)/.exec(main)?.[1];
  main = main.replace(/\([^)]*\)/g, ' ').split(/:\s/)[0] ?? '';
  const paths: GoldPath[] = [];
  let typeLabel: string | undefined = answerType;
  for (const clause of main.split(/\s+and\s+/i)) {
    const type = /type\s+X?\s*=\s*(\S+)/.exec(clause.replace(/[()]/g, ' '));
    if (type && !clause.includes('--')) {
      typeLabel = type[1];
      continue;
    }
    const first = clause.split(/\s+or\s+/i)[0] ?? '';
    const tokens: Token[] = [];
    for (const part of first.trim().split(/\s+/)) {
      const edge = /^(<)?--?([A-Za-z0-9_.:]+?)--?(>)?\+?$/.exec(part);
      if (edge) {
        tokens.push({
          kind: 'edge',
          edgeType: edge[2]!,
          arrow: edge[3] ? 'right' : edge[1] ? 'left' : 'none',
        });
      } else if (/^X:/.test(part)) tokens.push({ kind: 'node', label: 'X' });
      else if (/^[A-Z][A-Z0-9]*$/.test(part)) tokens.push({ kind: 'node', label: part });
    }
    const answer = tokens.findIndex((t) => t.kind === 'node' && t.label === 'X');
    const start = tokens.findIndex((t) => t.kind === 'node' && /^A\d*$/.test(t.label));
    if (answer < 0 || start < 0) continue;
    const label = (tokens[start] as { label: string }).label;
    const anchor = anchors[/^A\d+$/.test(label) ? Number(label.slice(1)) - 1 : 0];
    if (!anchor) continue;
    const step = answer > start ? 1 : -1;
    const hops: GoldHop[] = [];
    for (let i = start + step; i !== answer; i += step) {
      const token = tokens[i]!;
      if (token.kind !== 'edge') continue;
      const forward = step === 1 ? token.arrow === 'right' : token.arrow === 'left';
      const backward = step === 1 ? token.arrow === 'left' : token.arrow === 'right';
      hops.push({ edgeType: token.edgeType, direction: forward ? 'out' : backward ? 'in' : 'both' });
    }
    if (hops.length > 0) paths.push({ anchor, hops });
  }
  return { paths, ...(typeLabel ? { typeLabel } : {}) };
}

/**
 * The gold annotation of each query with gold anchors: anchors from `meta.anchors` (entries naming a
 * node type of `schema` become the answer type), paths from `meta.paths` when present, else from the
 * bundle's annotations (`readAnnotations`), else parsed from `meta.relational_part`; the restriction
 * from `meta.textual_requirement`. Queries without gold anchors are left out.
 */
export function goldAnnotations(
  queries: readonly SkbQuery[],
  options: {
    readonly schema: SkbSchema;
    readonly annotations?: ReadonlyMap<string, RelationalPartData>;
  },
): GoldAnnotation[] {
  const typeNames = new Set(options.schema.nodeTypes.map((t) => t.name));
  const result: GoldAnnotation[] = [];
  for (const query of queries) {
    const meta = query.meta ?? {};
    const listed = Array.isArray(meta.anchors)
      ? meta.anchors.filter((a): a is string => typeof a === 'string' && a !== '')
      : [];
    const anchors = listed.filter((a) => !typeNames.has(a));
    if (anchors.length === 0) continue;
    const names = Array.isArray(meta.anchor_names) ? meta.anchor_names : [];
    const anchorNames = listed.flatMap((a, i) =>
      typeNames.has(a) ? [] : [typeof names[i] === 'string' ? (names[i] as string) : undefined],
    );
    const described =
      meta.anchor_descriptions && typeof meta.anchor_descriptions === 'object'
        ? (meta.anchor_descriptions as Record<string, unknown>)
        : {};
    const anchorDescriptions = anchors.map((a) =>
      typeof described[a] === 'string' ? (described[a] as string) : undefined,
    );
    const listedType = listed.find((a) => typeNames.has(a));
    const restriction = typeof meta.textual_requirement === 'string' ? meta.textual_requirement : '';
    const base = {
      queryId: query.id,
      question: query.query,
      anchors,
      ...(anchorNames.some((n) => n !== undefined) ? { anchorNames } : {}),
      ...(anchorDescriptions.some((d) => d !== undefined) ? { anchorDescriptions } : {}),
      restriction,
    };
    const fromMeta = metaPaths(meta.paths);
    const annotated = options.annotations?.get(query.id);
    if (fromMeta && fromMeta.length > 0) {
      result.push({ ...base, paths: fromMeta, source: 'meta.paths', ...typed(listedType) });
    } else if (annotated) {
      const answerType = annotated.answerType ?? listedType;
      result.push({
        ...base,
        paths: annotationPaths(annotated),
        source: 'annotations',
        ...typed(answerType),
      });
    } else if (typeof meta.relational_part === 'string') {
      const parsed = parseRelationalPart(meta.relational_part, listed);
      const answerType =
        listedType ?? (parsed.typeLabel && typeNames.has(parsed.typeLabel) ? parsed.typeLabel : undefined);
      result.push({ ...base, paths: parsed.paths, source: 'relational_part', ...typed(answerType) });
    } else {
      result.push({ ...base, paths: [], source: 'none', ...typed(listedType) });
    }
  }
  return result;
}

const typed = (answerType: string | undefined) => (answerType ? { answerType } : {});

/** A gold node as the oracle names it. */
export interface GoldNode {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  /**
   * What a model following the planners' prompts writes for it: the words of the question that name
   * it (`meta.anchor_names`, else the node's name or an alias, as they occur in the question), else
   * the node's name.
   */
  readonly mention: string;
}

/** The question without the anchors' mentions and the final question mark. */
export function questionRestriction(question: string, mentions: readonly string[]): string {
  let rest = question;
  for (const mention of mentions)
    rest = rest.replace(
      new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(mention)}(?![\\p{L}\\p{N}])`, 'giu'),
      ' ',
    );
  return rest
    .replace(/\?\s*$/, '')
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Letters-and-digits words, with their case. */
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** The same word, or the same stem: a shared start of 4 letters at least, all but 3 of the shorter word. */
function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return prefix >= 4 && prefix >= Math.min(a.length, b.length) - 3;
}

/**
 * The question's words, in its order, that the judge's wording of the requirement also has (by
 * stem; the requirement's words of 4 letters or more, or written with a capital or a digit, as "C"
 * and "DJ"): the part of the question a model would read as the answer's requirement, never a word
 * the question does not write. Undefined when none is shared.
 */
export function requirementWords(question: string, requirement: string): string | undefined {
  const wanted = wordsOf(requirement)
    .filter((w) => w.length >= 4 || /[\p{Lu}\p{N}]/u.test(w))
    .map((w) => w.toLowerCase());
  const kept = wordsOf(question).filter((w) => wanted.some((r) => sameStem(w.toLowerCase(), r)));
  return kept.length > 0 ? kept.join(' ') : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first of `names` that occurs in `question` as whole words, ignoring case. */
export function mentionIn(question: string, names: readonly (string | undefined)[]): string | undefined {
  for (const name of names) {
    if (!name?.trim()) continue;
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name.trim())}(?![\\p{L}\\p{N}])`, 'iu').exec(
      question,
    );
    if (match) return match[0];
  }
  return undefined;
}

/** A gold plan with everything read from the store: what the oracle model writes from. */
export interface GoldPlan {
  readonly queryId: string;
  readonly question: string;
  readonly anchors: readonly GoldNode[];
  /** Paths with every direction resolved (`both` checked on the graph); `anchor` indexes `anchors`. */
  readonly paths: readonly {
    readonly anchor: number;
    readonly hops: readonly Relation[];
  }[];
  /** Types of the answers, most frequent first (the annotation's answer type first when given). */
  readonly targetTypes: readonly string[];
  readonly restriction: string;
  /**
   * The gold answers as the store names them (what the rerankers and the critic see of a
   * candidate); absent on plans made by hand.
   */
  readonly answers?: readonly { readonly id: string; readonly name: string; readonly type: string }[];
}

/**
 * Resolves annotations against the store: anchor names and types, the answers' types, and hop
 * directions the source left open (`both`): each combination is tried from the anchor, and the
 * first that reaches a gold answer is kept (else `out`). Anchors missing from the store are left
 * out, with their paths. The plan's restriction is, by default, what a model can read off the
 * question — the question without its anchor mentions and the descriptions that stand for anchors
 * (`meta.anchor_descriptions`) (`restriction: 'question'`); `'annotation'`
 * takes the judge's wording of the textual requirement instead (words the question may not have).
 * A question that paraphrases an anchor ("the packagers of the scripture software library" for "the
 * team packaging CrossWire's SWORD Bible software") cannot have it cut out, and left in, its words
 * rank the answers by how well they describe the anchor; there the restriction is the question's
 * words that the judge's requirement also has (`requirementWords`), as a model that knows which node
 * the paraphrase means would write it, in the question's own words.
 */
export async function resolveGoldPlans(
  annotations: readonly GoldAnnotation[],
  options: {
    readonly graph: GraphStoreV1;
    readonly answers: ReadonlyMap<string, readonly string[]>;
    readonly restriction?: 'question' | 'annotation';
  },
): Promise<GoldPlan[]> {
  const ids = [
    ...new Set(annotations.flatMap((a) => [...a.anchors, ...(options.answers.get(a.queryId) ?? [])])),
  ];
  const nodes = await options.graph.doGetNodes(ids);
  const byId = new Map(nodes.flatMap((node) => (node ? [[node.id, node] as const] : [])));
  const plans: GoldPlan[] = [];
  for (const annotation of annotations) {
    // An anchor the question describes in words of its own, neither by a name nor by the annotated
    // description: it cannot be cut out of the question.
    let paraphrased = false;
    const anchors = annotation.anchors.flatMap((id, i) => {
      const node = byId.get(id);
      if (!node) return [];
      const named = mentionIn(annotation.question, [
        annotation.anchorNames?.[i],
        node.name,
        ...(node.aliases ?? []),
      ]);
      const description = annotation.anchorDescriptions?.[i];
      if (named === undefined && description !== undefined && !mentionIn(annotation.question, [description]))
        paraphrased = true;
      return [{ id, name: node.name, type: node.type, mention: named ?? node.name }];
    });
    // What a model reads as the requirement of a question that paraphrases an anchor (see above).
    const ownWords = paraphrased ? requirementWords(annotation.question, annotation.restriction) : undefined;
    const answers = options.answers.get(annotation.queryId) ?? [];
    const counts = new Map<string, number>();
    for (const id of answers) {
      const type = byId.get(id)?.type;
      if (type) counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    const targetTypes = [...counts].sort((a, b) => b[1] - a[1]).map(([type]) => type);
    const paths: GoldPlan['paths'][number][] = [];
    for (const path of annotation.paths) {
      const anchor = anchors.findIndex((a) => a.id === path.anchor);
      if (anchor < 0) continue;
      paths.push({ anchor, hops: await resolveDirections(options.graph, path, new Set(answers)) });
    }
    plans.push({
      queryId: annotation.queryId,
      question: annotation.question,
      anchors,
      paths,
      answers: answers.flatMap((id) => {
        const node = byId.get(id);
        return node ? [{ id, name: node.name, type: node.type }] : [];
      }),
      targetTypes:
        annotation.answerType && targetTypes[0] !== annotation.answerType
          ? [annotation.answerType, ...targetTypes.filter((t) => t !== annotation.answerType)]
          : targetTypes,
      restriction:
        options.restriction === 'annotation'
          ? annotation.restriction
          : (ownWords ??
            questionRestriction(annotation.question, [
              ...anchors.map((a) => a.mention),
              // A model that knows which node a description means reads the rest of the question
              // as the answer's requirement, as it does around a name.
              ...annotation.anchors.flatMap((id, i) => {
                const description = annotation.anchorDescriptions?.[i];
                return byId.has(id) && description !== undefined ? [description] : [];
              }),
            ])),
    });
  }
  return plans;
}

async function resolveDirections(
  graph: GraphStoreV1,
  path: GoldPath,
  answers: ReadonlySet<string>,
): Promise<Relation[]> {
  const open = path.hops.flatMap((hop, i) => (hop.direction === 'both' ? [i] : []));
  const fixed = (choice: number) =>
    path.hops.map((hop, i) => ({
      edgeType: hop.edgeType,
      direction: (hop.direction === 'both'
        ? (choice >> open.indexOf(i)) & 1
          ? 'in'
          : 'out'
        : hop.direction) as EdgeDirection,
    }));
  if (open.length === 0 || open.length > 4 || answers.size === 0) return fixed(0);
  for (let choice = 0; choice < 1 << open.length; choice++) {
    const hops = fixed(choice);
    let frontier = [path.anchor];
    for (const hop of hops) {
      if (frontier.length === 0) break;
      const next = await graph.doNeighbors({
        seeds: frontier,
        edgeTypes: [hop.edgeType],
        direction: hop.direction,
        limitPerSeed: 2000,
      });
      frontier = [...new Set(next.map((n) => n.node))].slice(0, 20_000);
    }
    if (frontier.some((id) => answers.has(id))) return hops;
  }
  return fixed(0);
}

import { searchText, sigmoid, textFields } from '@weft/kit';
import type { IndexHit, RetrievalContext, TermStatistics } from '@weft/spec';
import { groundingWeights, type GroundingFeature, groundingFeatures } from './grounding-weights.ts';
import { typeOfWords, typeWords } from './answer-type.ts';
import { type NounPhrase, nounPhrases } from './noun-phrases.ts';
import { contentWords, isFunctionWord, singularForms } from './query-spans.ts';

/** A node a mention may refer to, with the evidence for it. */
export interface GroundedCandidate {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  /** Calibrated probability that the question builds on this node through this mention. */
  readonly probability: number;
  /** The evidence, each in [0, 1] (see `groundingFeatures`). */
  readonly features: Readonly<Record<GroundingFeature, number>>;
}

/** A stretch of the question that names or describes graph nodes. */
export interface GroundedMention {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Written between quotes: the user marked it as a name. */
  readonly quoted: boolean;
  /** The probability that the question builds on one of `candidates`: the best candidate's. */
  readonly probability: number;
  /** Best first. */
  readonly candidates: readonly GroundedCandidate[];
}

export interface Grounding {
  readonly question: string;
  /** Mentions at or above `minProbability`, most probable first. */
  readonly mentions: readonly GroundedMention[];
  /** The question's own best text matches (target types), which coherence was measured against. */
  readonly textual: readonly IndexHit[];
}

export interface GroundQuestionOptions {
  /** Mentions below this probability are left out (default 0.2): a question that builds on nothing gets none. */
  readonly minProbability?: number;
  /** Nodes matched per phrase by description (default 10). */
  readonly descriptionK?: number;
  /** Text matches of the whole question that confirm a candidate by adjacency (default 30). */
  readonly coherenceK?: number;
  /** Candidates kept per mention (default 5). */
  readonly candidatesPerMention?: number;
  /** Looked-up names per span (default 20). */
  readonly namesakes?: number;
}

interface Phrase {
  readonly text: string;
  /** What describes the node: the phrase with the relative clause that follows it, if any. */
  readonly description: string;
  /** A node type the phrase's head noun names ("the ability that …"): its description is looked up among those. */
  readonly headType?: string;
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
  /** Sub-spans tried as names (the phrase itself first). */
  readonly names: readonly { readonly text: string; readonly words: number }[];
}

interface Evidence {
  id: string;
  type: string;
  name: string;
  /** Best name-match score of a sub-span, × its share of the phrase's words. */
  name_: number;
  nameWhole: number;
  descriptionRank: number;
  description: number;
}

const quotePattern = /(?<![\p{L}\p{N}])['"‘“]([^'"‘’“”]{1,80}?)['"’”](?![\p{L}\p{N}])/gu;

const relative = /^\s*(?:that|which|who|whom|whose|where)\b[^,;:?!()]*/iu;

/**
 * Noun phrases and quoted spans, each with the sub-spans that could be names (at most four words)
 * and its description: the phrase and the relative clause after it ("the ability that whips up a
 * sandstorm"), which is how a question describes a node it does not name.
 */
export function questionPhrases(question: string, nodeTypes: readonly string[] = []): Phrase[] {
  const types = typeWords(nodeTypes);
  const phrases: Phrase[] = [];
  const covered: [number, number][] = [];
  for (const match of question.matchAll(quotePattern)) {
    const start = match.index + 1;
    const text = match[1]!.trim();
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    covered.push([start, start + text.length]);
    phrases.push({
      text,
      description: text,
      start,
      end: start + text.length,
      quoted: true,
      names: [{ text, words: 1 }],
    });
  }
  for (const np of nounPhrases(question)) {
    if (covered.some(([s, e]) => np.start >= s && np.end <= e)) continue;
    const clause = question.slice(np.end).match(relative)?.[0] ?? '';
    const headType = typeOfWords(np.words, types);
    phrases.push({
      text: np.text,
      description: `${np.text}${clause}`,
      ...(headType ? { headType } : {}),
      start: np.start,
      end: np.end,
      quoted: false,
      names: [{ text: np.text, words: np.words.length }],
    });
    // Each shorter run of its words may spell a name of its own ("Combee" in "the moves Combee").
    for (const span of subSpans(question, np)) {
      if (span.words === np.words.length) continue;
      phrases.push({
        ...span,
        description: '',
        quoted: false,
        names: [{ text: span.text, words: span.words }],
      });
    }
  }
  return phrases;
}

function subSpans(
  question: string,
  np: NounPhrase,
): { text: string; start: number; end: number; words: number }[] {
  const words = np.words;
  const out: { text: string; start: number; end: number; words: number }[] = [];
  for (let n = Math.min(4, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const first = words[i]!;
      const last = words[i + n - 1]!;
      if (isFunctionWord(first.text) || isFunctionWord(last.text)) continue;
      out.push({ text: question.slice(first.start, last.end), start: first.start, end: last.end, words: n });
    }
  }
  return out;
}

/** Inverse document frequency as BM25 uses it, scaled to [0, 1] by the largest possible value. */
function scaledIdf(statistics: TermStatistics | undefined): number | undefined {
  if (!statistics || statistics.terms.length === 0 || statistics.documents === 0) return undefined;
  const n = statistics.documents;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return Math.max(...statistics.terms.map((t) => idf(t.documentFrequency))) / idf(0);
}

/**
 * Grounds a question in the graph: which nodes it builds on, named or described. Each noun phrase
 * (and quoted span) is matched against node names and aliases (exact, one batched look-up) and
 * against node documents of every type (BM25), and each candidate is confirmed by the structure:
 * how much of the question's own best text matches lie next to it. A fixed logistic model over that
 * evidence (`groundingWeights`, KB-independent features) gives each candidate a calibrated
 * probability; mentions whose best candidate stays below `minProbability` are dropped, so a
 * question that names and describes nothing of the graph gets no mentions at all.
 */
export async function groundQuestion(
  question: string,
  context: RetrievalContext,
  options: GroundQuestionOptions = {},
): Promise<Grounding> {
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const targets = context.schema.targetTypes;
  const coherenceK = options.coherenceK ?? 30;
  // The question's own text matches, each phrase's evidence and rarity are independent searches:
  // all run at once, and the structure's confirmation starts as soon as the first two are in.
  const textualSearch: Promise<IndexHit[]> =
    question.trim() === ''
      ? Promise.resolve([])
      : searchText(context.text, [question], {
          limit: coherenceK,
          ...(targets ? { filter: { nodeTypes: targets } } : {}),
          ...signal,
        }).then((lists) => lists[0] ?? []);
  const phrases = questionPhrases(
    question,
    context.schema.nodeTypes.map((t) => t.name),
  );
  if (phrases.length === 0) return { question, mentions: [], textual: await textualSearch };
  // A search that fails while another is awaited must not go unhandled.
  textualSearch.catch(() => {});
  const rarityOf = phraseRarity(phrases, context);
  rarityOf.catch(() => {});
  const { evidence, completed } = await phraseEvidence(phrases, context, options);
  completed.catch(() => {});
  const ids = [...new Set(evidence.flatMap((list) => [...list.keys()]))];
  const textual = await textualSearch;
  const [coherence, rarity] = await Promise.all([coherenceOf(ids, textual, context), rarityOf, completed]);
  const textualRank = new Map(textual.map((hit, rank) => [hit.id, rank]));
  const firstWord = question.search(/[\p{L}\p{N}]/u);
  const perMention = options.candidatesPerMention ?? 5;
  const minProbability = options.minProbability ?? 0.2;
  const mentions: GroundedMention[] = [];
  phrases.forEach((phrase, p) => {
    const candidates = [...evidence[p]!.values()].map((e) => {
      const c = coherence.get(e.id) ?? { share: 0, rank: 0 };
      const rank = textualRank.get(e.id);
      const features: Record<GroundingFeature, number> = {
        name: e.name_,
        nameWhole: e.nameWhole,
        // An exact name made of rare words names something; one of common words may only use them.
        nameRare: e.nameWhole * (rarity[p] ?? 0.5),
        description: e.description,
        descriptionRank: e.descriptionRank,
        coherence: c.share,
        coherenceBest: c.rank,
        rarity: rarity[p] ?? 0.5,
        words: Math.min(phrase.names[0]?.words ?? 1, 4) / 4,
        quoted: phrase.quoted ? 1 : 0,
        // Written with a capital inside the sentence: English marks names so, whatever the KB.
        capitalised: /(^|[^\p{L}\p{N}])\p{Lu}/u.test(phrase.text) && phrase.start > firstWord ? 1 : 0,
        isTextMatch: rank === undefined ? 0 : 1 / (1 + rank),
        bias: 1,
      };
      const weights = groundingWeights[e.nameWhole > 0 ? 'named' : 'described'];
      const score = groundingFeatures.reduce((sum, f) => sum + weights[f] * features[f], 0);
      return { id: e.id, type: e.type, name: e.name, probability: sigmoid(score), features };
    });
    candidates.sort((a, b) => b.probability - a.probability || a.id.localeCompare(b.id));
    // What the phrase spells and what it describes are two readings: a node that merely matches its
    // words never displaces the node it names ("Nikon D850" names the camera, and describes Nikon).
    const named = candidates.filter((c) => c.features.nameWhole > 0);
    // A quoted phrase that spells a name was marked as that name by the user: it describes nothing.
    const described =
      phrase.quoted && named.length > 0 ? [] : candidates.filter((c) => c.features.nameWhole === 0);
    for (const group of [named, described]) {
      const kept = group.slice(0, perMention);
      const best = kept[0]?.probability ?? 0;
      if (kept.length === 0 || best < minProbability) continue;
      mentions.push({
        text: phrase.text,
        start: phrase.start,
        end: phrase.end,
        quoted: phrase.quoted,
        probability: best,
        candidates: kept,
      });
    }
  });
  mentions.sort((a, b) => b.probability - a.probability || a.start - b.start);
  // A span inside another that links the same best node says nothing new: the one that spells its
  // name stays (it tells the stages that the node's own text matches by that name), else the surer.
  const spells = (m: GroundedMention) => (m.candidates[0]!.features.nameWhole > 0 ? 1 : 0);
  const kept: GroundedMention[] = [];
  for (const mention of [...mentions].sort((a, b) => spells(b) - spells(a))) {
    const same = kept.some(
      (k) =>
        k.start < mention.end && mention.start < k.end && k.candidates[0]!.id === mention.candidates[0]!.id,
    );
    if (!same) kept.push(mention);
  }
  kept.sort((a, b) => b.probability - a.probability || a.start - b.start);
  return { question, mentions: kept, textual };
}

/**
 * Per phrase: its candidates from names (exact look-up of sub-spans) and descriptions (BM25).
 * `completed` settles once the described candidates' names and types are read from the graph; the
 * candidates' ids are known before.
 */
async function phraseEvidence(
  phrases: readonly Phrase[],
  context: RetrievalContext,
  options: GroundQuestionOptions,
): Promise<{ evidence: Map<string, Evidence>[]; completed: Promise<void> }> {
  const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
  const names: string[] = [];
  const owner: { phrase: number; share: number; whole: boolean }[] = [];
  phrases.forEach((phrase, p) => {
    const total = Math.max(1, phrase.names[0]?.words ?? 1, ...phrase.names.map((n) => n.words));
    for (const span of phrase.names) {
      for (const name of [span.text, ...singularForms(span.text)]) {
        names.push(name);
        owner.push({ phrase: p, share: span.words / total, whole: span.words === total });
      }
    }
  });
  const describing = phrases.map((p) => (p.quoted ? p.text : contentWords(p.description).join(' ')).trim());
  const descriptionK = options.descriptionK ?? 10;
  const fields = textFields(context.text);
  const [lookups, described] = await Promise.all([
    context.graph.doLookup(names, { fuzzy: false, limit: options.namesakes ?? 20, ...signal }),
    Promise.all(
      phrases.map(async (phrase, p) =>
        describing[p] === ''
          ? []
          : ((
              await searchText(context.text, [describing[p]!], {
                limit: descriptionK,
                // The combined field also describes nodes without text of their own, by what they are linked to.
                ...(fields.includes('combined') ? { field: 'combined' } : {}),
                ...(phrase.headType ? { filter: { nodeTypes: [phrase.headType] } } : {}),
                ...signal,
              })
            )[0] ?? []),
      ),
    ),
  ]);
  const out = phrases.map(() => new Map<string, Evidence>());
  const entry = (p: number, id: string, type: string, name: string) => {
    const map = out[p]!;
    let e = map.get(id);
    if (!e) {
      e = { id, type, name, name_: 0, nameWhole: 0, descriptionRank: 0, description: 0 };
      map.set(id, e);
    }
    return e;
  };
  lookups.forEach((matches, n) => {
    const { phrase, share, whole } = owner[n]!;
    for (const match of matches) {
      const e = entry(phrase, match.id, match.type, match.name);
      e.name_ = Math.max(e.name_, match.score * share);
      if (whole) e.nameWhole = Math.max(e.nameWhole, match.score);
    }
  });
  described.forEach((hits, p) => {
    if (describing[p] === '') return;
    const top = hits[0]?.score ?? 0;
    const ranks = tiedRanks(hits.map((hit) => hit.score));
    hits.forEach((hit, i) => {
      const e = entry(p, hit.id, hit.type ?? '', '');
      e.description = top > 0 ? hit.score / top : 0;
      e.descriptionRank = 1 / (1 + ranks[i]!);
    });
  });
  // Text hits carry no name (and some indexes no type): completed from the graph in one call.
  const unknown = [
    ...new Set(
      out.flatMap((m) => [...m.values()].filter((e) => e.name === '' || e.type === '').map((e) => e.id)),
    ),
  ];
  const completed =
    unknown.length === 0
      ? Promise.resolve()
      : context.graph.doGetNodes(unknown).then((nodes) => {
          const byId = new Map(nodes.flatMap((n) => (n ? [[n.id, n] as const] : [])));
          for (const map of out) {
            for (const e of map.values()) {
              const node = byId.get(e.id);
              if (node && (e.type === '' || e.name === '')) {
                e.type = node.type;
                e.name = node.name;
              }
            }
          }
        });
  return { evidence: out, completed };
}

/**
 * How much the structure confirms each candidate: the share of the question's best text matches
 * (weighted by their BM25 score) that are its neighbours, and 1 / (1 + its rank) by that share.
 */
async function coherenceOf(
  ids: readonly string[],
  textual: readonly IndexHit[],
  context: RetrievalContext,
): Promise<Map<string, { share: number; rank: number }>> {
  const out = new Map<string, { share: number; rank: number }>();
  if (ids.length === 0 || textual.length === 0) return out;
  const top = textual[0]!.score;
  const weight = new Map(textual.map((hit) => [hit.id, top > 0 ? hit.score / top : 0]));
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  const wanted = new Set(ids);
  // From the text matches' side: a hub candidate's own neighbour list would be cut.
  const neighbours = await context.graph.doNeighbors({
    seeds: textual.map((hit) => hit.id),
    direction: 'both',
    limitPerSeed: 2000,
    ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
  });
  const sums = new Map<string, number>();
  const counted = new Set<string>();
  for (const n of neighbours) {
    if (!wanted.has(n.node) || n.node === n.seed) continue;
    const key = `${n.node}|${n.seed}`;
    if (counted.has(key)) continue;
    counted.add(key);
    sums.set(n.node, (sums.get(n.node) ?? 0) + (weight.get(n.seed) ?? 0));
  }
  const order = [...sums].sort((a, b) => b[1] - a[1]);
  const ranks = tiedRanks(order.map(([, sum]) => sum));
  order.forEach(([id, sum], i) => {
    out.set(id, { share: total > 0 ? sum / total : 0, rank: 1 / (1 + ranks[i]!) });
  });
  return out;
}

/** The rarest word of each phrase, as a scaled inverse document frequency (0.5 without statistics). */
async function phraseRarity(phrases: readonly Phrase[], context: RetrievalContext): Promise<number[]> {
  const text = context.text;
  if (text.specificationVersion !== 'v2' || !text.doTermStatistics) return phrases.map(() => 0.5);
  const statistics = await text.doTermStatistics({ texts: phrases.map((p) => p.text) });
  return phrases.map((_, i) => scaledIdf(statistics[i]) ?? 0.5);
}

/**
 * Ranks of scores sorted best first, equal scores sharing the better rank (1, 2, 2, 4): which of two
 * tied nodes an index returns first depends on how its rows lie, which an update changes.
 */
function tiedRanks(sorted: readonly number[]): number[] {
  const ranks: number[] = [];
  sorted.forEach((score, i) => {
    ranks.push(i > 0 && score === sorted[i - 1] ? ranks[i - 1]! : i);
  });
  return ranks;
}

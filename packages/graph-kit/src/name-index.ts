import { trigramCount, trigrams, trigramSimilarity } from '@weft/kit';
import type { NameMatch } from '@weft/spec';

export interface NameIndexEntry {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly aliases: readonly string[];
}

/**
 * Everything a `NameIndex` holds, as flat lists (`name-index-file.ts` writes and reads it). Lists of
 * lists are in compressed form: `labelNodes` of label i are `labelNodeList[labelNodeStart[i]…labelNodeStart[i+1]]`,
 * likewise the aliases (`aliasKeys`) and, when they were built, the trigram postings (`grams`).
 */
export interface NameIndexState {
  readonly ids: readonly string[];
  readonly names: readonly string[];
  readonly typeOf: Uint32Array;
  readonly types: readonly string[];
  readonly aliasKeys: readonly string[];
  readonly aliasStart: Uint32Array;
  readonly aliasNodes: Uint32Array;
  readonly labels: readonly string[];
  readonly labelStart: Uint32Array;
  readonly labelNodeList: Uint32Array;
  /** The spelling of each (label, node) pair, aligned with `labelNodeList`. */
  readonly labelSpellings: readonly string[];
  readonly grams?: {
    readonly keys: readonly string[];
    readonly start: Uint32Array;
    readonly labels: Uint32Array;
    readonly labelGramTotal: Uint32Array;
  };
}

function flatten(lists: readonly ArrayLike<number>[]): { start: Uint32Array; items: Uint32Array } {
  const start = new Uint32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) start[i + 1] = start[i]! + lists[i]!.length;
  const items = new Uint32Array(start[lists.length]!);
  lists.forEach((list, i) => {
    items.set(list, start[i]!);
  });
  return { start, items };
}

function slice(start: Uint32Array, items: Uint32Array, i: number): Uint32Array {
  return items.subarray(start[i]!, start[i + 1]!);
}

export interface NameLookupOptions {
  readonly nodeTypes?: readonly string[];
  readonly limit: number;
  readonly fuzzy: boolean;
}

/** Below this trigram similarity a fuzzy candidate is not a match. */
const minSimilarity = 0.5;
/** A trigram on more than this share of the labels (and more than the floor) is too common to search by. */
const commonGramShare = 0.002;
const commonGramFloor = 2_000;

/**
 * In-process name/alias maps for entity linking, built from one scan of the graph: exact names,
 * exact aliases, lower-cased labels, and a trigram inverted index over distinct lower-cased labels
 * for the fuzzy fallback (candidates from posting lists, an upper bound prunes, exact Dice ranks).
 * Grams and similarity are `@weft/core`'s `trigrams`/`trigramSimilarity`, which the reference store
 * uses too, so both agree on fuzzy matches.
 * Scores match the reference store: 1 exact name, 0.95 alias, 0.9 case-insensitive, 0.8 × similarity fuzzy.
 */
export class NameIndex {
  private ids: string[] = [];
  private names: string[] = [];
  private typeOf: number[] = [];
  private readonly types: string[] = [];
  private readonly typeIndex = new Map<string, number>();
  private readonly byName = new Map<string, number[]>();
  private readonly byAlias = new Map<string, number[]>();
  /** Distinct lower-cased labels, the nodes carrying each, and its original spelling per node. */
  private labels: string[] = [];
  private readonly labelNodes: number[][] = [];
  private readonly labelSpelling: string[][] = [];
  /**
   * The labels' nodes and spellings of an index read from a file, kept in compressed form (a million
   * small arrays would take seconds to make); turned into `labelNodes`/`labelSpelling` if `add` is called.
   */
  private savedLabels: Pick<NameIndexState, 'labelStart' | 'labelNodeList' | 'labelSpellings'> | undefined;
  private readonly labelIndex = new Map<string, number>();
  /** Trigram postings over the labels, built on the first fuzzy lookup: exact look-ups (nearly all
   * of them) never pay for them, and a one-shot `weft query` starts ~1 s sooner on WordNet. */
  private labelGramTotal: number[] = [];
  private postings = new Map<string, number[] | Uint32Array>();
  private indexedLabels = 0;
  private scores = new Float64Array(0);

  add(entry: NameIndexEntry): void {
    if (this.savedLabels) this.unpackLabels();
    const node = this.ids.length;
    this.ids.push(entry.id);
    this.names.push(entry.name);
    let type = this.typeIndex.get(entry.type);
    if (type === undefined) {
      type = this.types.length;
      this.types.push(entry.type);
      this.typeIndex.set(entry.type, type);
    }
    this.typeOf.push(type);
    push(this.byName, entry.name, node);
    const seen = new Set<string>();
    for (const alias of entry.aliases) {
      if (alias === entry.name || seen.has(alias)) continue;
      seen.add(alias);
      push(this.byAlias, alias, node);
    }
    const lowered = new Set<string>();
    for (const label of [entry.name, ...entry.aliases]) {
      const lower = label.toLowerCase();
      if (lower.trim().length === 0 || lowered.has(lower)) continue;
      lowered.add(lower);
      let index = this.labelIndex.get(lower);
      if (index === undefined) {
        index = this.labels.length;
        this.labels.push(lower);
        this.labelNodes.push([]);
        this.labelSpelling.push([]);
        this.labelIndex.set(lower, index);
      }
      this.labelNodes[index]!.push(node);
      this.labelSpelling[index]!.push(label);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  private unpackLabels(): void {
    const saved = this.savedLabels!;
    this.savedLabels = undefined;
    this.names.forEach((name, node) => {
      push(this.byName, name, node);
    });
    for (let label = 0; label < this.labels.length; label++) {
      const from = saved.labelStart[label]!;
      const to = saved.labelStart[label + 1]!;
      this.labelNodes.push(Array.from(saved.labelNodeList.subarray(from, to)));
      this.labelSpelling.push(saved.labelSpellings.slice(from, to));
    }
  }

  /**
   * The nodes named exactly `name`, in the order they were added. An index read from a file finds
   * them among the nodes of `name`'s lower-cased label (every non-blank name is a label of its node).
   */
  private exactMatches(name: string): readonly number[] {
    if (!this.savedLabels) return this.byName.get(name) ?? [];
    const label = this.labelIndex.get(name.toLowerCase());
    if (label === undefined) return [];
    return Array.from(this.nodesOf(label)).filter((node) => this.names[node] === name);
  }

  private nodesOf(label: number): ArrayLike<number> {
    const saved = this.savedLabels;
    return saved ? slice(saved.labelStart, saved.labelNodeList, label) : this.labelNodes[label]!;
  }

  /** The spelling of the `i`-th node of `label`. */
  private spellingOf(label: number, i: number): string {
    const saved = this.savedLabels;
    return saved ? saved.labelSpellings[saved.labelStart[label]! + i]! : this.labelSpelling[label]![i]!;
  }

  /** Whether the trigram postings of every label are built (after a fuzzy look-up, or `indexGrams`). */
  get gramsBuilt(): boolean {
    return this.indexedLabels === this.labels.length;
  }

  toState(): NameIndexState {
    const aliasKeys = [...this.byAlias.keys()];
    const aliases = flatten(aliasKeys.map((key) => this.byAlias.get(key)!));
    const labelNodes = this.savedLabels
      ? { start: this.savedLabels.labelStart, items: this.savedLabels.labelNodeList }
      : flatten(this.labelNodes);
    let grams: NameIndexState['grams'];
    if (this.gramsBuilt) {
      const keys = [...this.postings.keys()];
      const postings = flatten(keys.map((key) => this.postings.get(key)!));
      grams = {
        keys,
        start: postings.start,
        labels: postings.items,
        labelGramTotal: Uint32Array.from(this.labelGramTotal),
      };
    }
    return {
      ids: this.ids,
      names: this.names,
      typeOf: Uint32Array.from(this.typeOf),
      types: this.types,
      aliasKeys,
      aliasStart: aliases.start,
      aliasNodes: aliases.items,
      labels: this.labels,
      labelStart: labelNodes.start,
      labelNodeList: labelNodes.items,
      labelSpellings: this.savedLabels?.labelSpellings ?? this.labelSpelling.flat(),
      ...(grams ? { grams } : {}),
    };
  }

  /** A name index from `toState`: the maps are rebuilt from the lists, nothing is re-analysed. */
  static fromState(state: NameIndexState): NameIndex {
    const index = new NameIndex();
    // Copies, so that a later `add` never writes into the caller's lists.
    index.ids = [...state.ids];
    index.names = [...state.names];
    index.typeOf = Array.from(state.typeOf);
    // `byName` is left empty: exact names are found through the labels (see `exactMatches`), which
    // saves a million one-element lists; `unpackLabels` fills it if entries are added.
    state.types.forEach((type, i) => {
      index.types.push(type);
      index.typeIndex.set(type, i);
    });
    state.aliasKeys.forEach((key, i) => {
      index.byAlias.set(key, Array.from(slice(state.aliasStart, state.aliasNodes, i)));
    });
    index.labels = [...state.labels];
    index.labels.forEach((label, i) => {
      index.labelIndex.set(label, i);
    });
    index.savedLabels = state;
    if (state.grams) {
      const { keys, start, labels, labelGramTotal } = state.grams;
      keys.forEach((key, i) => {
        index.postings.set(key, slice(start, labels, i));
      });
      index.labelGramTotal = Array.from(labelGramTotal);
      index.indexedLabels = state.labels.length;
    }
    return index;
  }

  lookup(name: string, options: NameLookupOptions): NameMatch[] {
    if (name.trim().length === 0) return [];
    const allowed = options.nodeTypes
      ? new Set(options.nodeTypes.map((t) => this.typeIndex.get(t)).filter((t) => t !== undefined))
      : undefined;
    const ok = (node: number) => !allowed || allowed.has(this.typeOf[node]!);
    const best = new Map<number, NameMatch>();
    const offer = (node: number, match: NameMatch['match'], score: number, matched: string) => {
      if (!ok(node)) return false;
      const current = best.get(node);
      if (!current || current.score < score) {
        best.set(node, {
          id: this.ids[node]!,
          type: this.types[this.typeOf[node]!]!,
          name: this.names[node]!,
          match,
          score,
          matched,
        });
      }
      // Whether this is a node not offered before (the fuzzy search counts distinct matches).
      return !current;
    };
    for (const node of this.exactMatches(name)) offer(node, 'exact', 1, name);
    for (const node of this.byAlias.get(name) ?? []) offer(node, 'alias', 0.95, name);
    const label = this.labelIndex.get(name.toLowerCase());
    if (label !== undefined) {
      const nodes = this.nodesOf(label);
      for (let i = 0; i < nodes.length; i++)
        offer(nodes[i]!, 'case-insensitive', 0.9, this.spellingOf(label, i));
    }
    if (best.size === 0 && options.fuzzy) this.fuzzy(name, offer, options.limit);
    return [...best.values()]
      .sort((a, b) => b.score - a.score || compare(a.id, b.id))
      .slice(0, options.limit);
  }

  /** Extends the trigram postings to the labels added since the last fuzzy lookup. */
  indexGrams(): void {
    for (; this.indexedLabels < this.labels.length; this.indexedLabels++) {
      const counts = trigrams(this.labels[this.indexedLabels]!);
      this.labelGramTotal.push(trigramCount(counts));
      for (const gram of counts.keys()) push(this.postings, gram, this.indexedLabels);
    }
  }

  private fuzzy(
    name: string,
    offer: (node: number, match: NameMatch['match'], score: number, matched: string) => boolean,
    limit: number,
  ): void {
    this.indexGrams();
    const query = trigrams(name);
    const queryTotal = trigramCount(query);
    if (this.scores.length < this.labels.length) this.scores = new Float64Array(this.labels.length);
    const scores = this.scores;
    const touched: number[] = [];
    // Grams carried by more labels than this (`"  a"`, `"ing"`) would make every lookup touch a
    // large share of a big graph (33 ms a name at 1M nodes); they generate no candidates, and are
    // assumed shared in the upper bound, so pruning stays safe. A label sharing only common grams
    // with the query is then missed — approximate by design, and only on large graphs.
    const cap = Math.max(commonGramFloor, Math.ceil(this.labels.length * commonGramShare));
    const lists = [...query].map(([gram, count]) => ({ count, labels: this.postings.get(gram) ?? [] }));
    let rare = lists.filter((list) => list.labels.length <= cap);
    if (rare.length === 0 && lists.length > 0)
      rare = [lists.reduce((a, b) => (b.labels.length < a.labels.length ? b : a))];
    let assumed = 0;
    for (const list of lists) if (!rare.includes(list)) assumed += list.count;
    // Upper bound of the shared trigram count per label: the query's count of every gram it shares.
    for (const { count, labels } of rare) {
      for (const label of labels) {
        if (scores[label] === 0) touched.push(label);
        scores[label]! += count;
      }
    }
    const candidates: { label: number; bound: number }[] = [];
    for (const label of touched) {
      const bound = (2 * (scores[label]! + assumed)) / (queryTotal + this.labelGramTotal[label]!);
      scores[label] = 0;
      if (bound >= minSimilarity) candidates.push({ label, bound });
    }
    // Exact similarity in decreasing order of its upper bound, stopping once `limit` matches
    // beat every remaining bound: on big graphs most candidates are never scored.
    candidates.sort((a, b) => b.bound - a.bound);
    const kept: number[] = [];
    for (const { label, bound } of candidates) {
      if (kept.length >= limit && bound < kept[limit - 1]!) break;
      const similarity = trigramSimilarity(name, this.labels[label]!);
      if (similarity < minSimilarity) continue;
      const nodes = this.nodesOf(label);
      for (let i = 0; i < nodes.length; i++) {
        if (offer(nodes[i]!, 'fuzzy', 0.8 * similarity, this.spellingOf(label, i))) {
          kept.push(similarity);
          kept.sort((a, b) => b - a);
          if (kept.length > limit) kept.length = limit;
        }
      }
    }
  }
}

function push<K>(map: Map<K, number[] | Uint32Array>, key: K, value: number): void {
  const list = map.get(key);
  if (list instanceof Uint32Array) map.set(key, [...list, value]);
  else if (list) list.push(value);
  else map.set(key, [value]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

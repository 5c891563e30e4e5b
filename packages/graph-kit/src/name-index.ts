import { trigramCount, trigrams, trigramSimilarity } from '@weft/kit';
import type { NameMatch } from '@weft/spec';
import { decodeDeltas, type PackedStrings, type PackedStringTable } from './packed-strings.ts';

export interface NameIndexEntry {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  readonly aliases: readonly string[];
}

/**
 * Everything a `NameIndex` holds, as flat lists (what `name-index-file.ts` packs into its file; it
 * reads the file back as a `PackedNameIndex`). Lists of
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

function decodePostings(grams: NonNullable<PackedNameIndex['grams']>, key: number): Uint32Array {
  return decodeDeltas(grams.postings, grams.start[key]!, grams.start[key + 1]!, grams.counts[key]!);
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
/**
 * A name index read from a file (see `name-index-file.ts`): every list is packed strings or typed
 * arrays over the file's bytes, and the three string → index maps (aliases, labels, trigrams) are
 * hash tables inside the file, so reading it makes no per-entry object.
 */
export interface PackedNameIndex {
  readonly ids: PackedStrings;
  readonly names: PackedStrings;
  readonly typeOf: Uint32Array;
  readonly types: readonly string[];
  readonly aliasKeys: PackedStringTable;
  readonly aliasStart: Uint32Array;
  readonly aliasNodes: Uint32Array;
  readonly labels: PackedStringTable;
  readonly labelStart: Uint32Array;
  readonly labelNodeList: Uint32Array;
  readonly labelSpellings: PackedStrings;
  /**
   * The trigram postings: of gram `i`, `counts[i]` labels, coded by `encodeDeltas` in
   * `postings[start[i]…start[i+1]]` (decoded when a fuzzy look-up needs that gram's list).
   */
  readonly grams?: {
    readonly keys: PackedStringTable;
    readonly counts: Uint32Array;
    readonly start: Uint32Array;
    readonly postings: Uint8Array;
    readonly labelGramTotal: Uint32Array;
  };
}

/**
 * In-process name/alias maps for entity linking, built from one scan of the graph: exact names,
 * exact aliases, lower-cased labels, and a trigram inverted index over distinct lower-cased labels
 * for the fuzzy fallback (candidates from posting lists, an upper bound prunes, exact Dice ranks).
 * Grams and similarity are `@weft/core`'s `trigrams`/`trigramSimilarity`, which the reference store
 * uses too, so both agree on fuzzy matches.
 * Scores match the reference store: 1 exact name, 0.95 alias, 0.9 case-insensitive, 0.8 × similarity fuzzy.
 *
 * An index read from a file (`fromPacked`) answers from the packed lists as they are; the first
 * `add` turns it into the in-memory form (seconds at 10^6 nodes; the store never adds to a read index).
 */
export class NameIndex {
  private ids: string[] = [];
  private names: string[] = [];
  private typeOf: number[] = [];
  private readonly types: string[] = [];
  private readonly typeIndex = new Map<string, number>();
  private readonly byName = new Map<string, number[]>();
  private readonly byAlias = new Map<string, number[] | Uint32Array>();
  /** Distinct lower-cased labels, the nodes carrying each, and its original spelling per node. */
  private labels: string[] = [];
  private readonly labelNodes: (number[] | Uint32Array)[] = [];
  private readonly labelSpelling: string[][] = [];
  private readonly labelIndex = new Map<string, number>();
  /** The index read from a file, while nothing was added to it. */
  private packed: PackedNameIndex | undefined;
  /** Trigram postings over the labels, built on the first fuzzy lookup: exact look-ups (nearly all
   * of them) never pay for them, and a one-shot `weft query` starts ~1 s sooner on WordNet. */
  private labelGramTotal: number[] = [];
  private postings = new Map<string, number[] | Uint32Array>();
  private indexedLabels = 0;
  private scores = new Float64Array(0);

  add(entry: NameIndexEntry): void {
    if (this.packed) this.unpack();
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
      this.labelNodes[index] = appended(this.labelNodes[index], node);
      this.labelSpelling[index]!.push(label);
    }
  }

  get size(): number {
    return this.packed ? this.packed.ids.length : this.ids.length;
  }

  /** Turns a read index into the in-memory form, so that entries can be added. */
  private unpack(): void {
    const state = this.toState();
    this.packed = undefined;
    this.load(state);
  }

  private load(state: NameIndexState): void {
    // Copies, so that a later `add` never writes into the caller's lists.
    this.ids = [...state.ids];
    this.names = [...state.names];
    this.typeOf = Array.from(state.typeOf);
    this.names.forEach((name, node) => {
      push(this.byName, name, node);
    });
    state.aliasKeys.forEach((key, i) => {
      this.byAlias.set(key, slice(state.aliasStart, state.aliasNodes, i));
    });
    this.labels = [...state.labels];
    this.labels.forEach((label, i) => {
      this.labelIndex.set(label, i);
      const from = state.labelStart[i]!;
      const to = state.labelStart[i + 1]!;
      this.labelNodes.push(state.labelNodeList.subarray(from, to));
      this.labelSpelling.push(state.labelSpellings.slice(from, to));
    });
    if (state.grams) {
      const { keys, start, labels, labelGramTotal } = state.grams;
      keys.forEach((key, i) => {
        this.postings.set(key, slice(start, labels, i));
      });
      this.labelGramTotal = Array.from(labelGramTotal);
      this.indexedLabels = state.labels.length;
    }
  }

  private idOf(node: number): string {
    return this.packed ? this.packed.ids.get(node) : this.ids[node]!;
  }

  private nameOf(node: number): string {
    return this.packed ? this.packed.names.get(node) : this.names[node]!;
  }

  private typeCodeOf(node: number): number {
    return this.packed ? this.packed.typeOf[node]! : this.typeOf[node]!;
  }

  private get labelCount(): number {
    return this.packed ? this.packed.labels.length : this.labels.length;
  }

  private labelText(label: number): string {
    return this.packed ? this.packed.labels.get(label) : this.labels[label]!;
  }

  private findLabel(lower: string): number | undefined {
    if (!this.packed) return this.labelIndex.get(lower);
    const label = this.packed.labels.find(lower);
    return label < 0 ? undefined : label;
  }

  private aliasNodesOf(alias: string): ArrayLike<number> {
    if (!this.packed) return this.byAlias.get(alias) ?? [];
    const { aliasKeys, aliasStart, aliasNodes } = this.packed;
    const key = aliasKeys.find(alias);
    return key < 0 ? [] : slice(aliasStart, aliasNodes, key);
  }

  /** How many labels carry `gram`. */
  private postingCount(gram: string): number {
    const grams = this.packed?.grams;
    if (!grams) return this.postings.get(gram)?.length ?? 0;
    const key = grams.keys.find(gram);
    return key < 0 ? 0 : grams.counts[key]!;
  }

  private postingsOf(gram: string): ArrayLike<number> {
    const grams = this.packed?.grams;
    if (!grams) return this.postings.get(gram) ?? [];
    const key = grams.keys.find(gram);
    return key < 0 ? [] : decodePostings(grams, key);
  }

  private gramTotalOf(label: number): number {
    const grams = this.packed?.grams;
    return grams ? grams.labelGramTotal[label]! : this.labelGramTotal[label]!;
  }

  /**
   * The nodes named exactly `name`, in the order they were added. A read index finds them among the
   * nodes of `name`'s lower-cased label (every non-blank name is a label of its node).
   */
  private exactMatches(name: string): ArrayLike<number> {
    if (!this.packed) return this.byName.get(name) ?? [];
    const label = this.findLabel(name.toLowerCase());
    if (label === undefined) return [];
    return Array.from(this.nodesOf(label)).filter((node) => this.nameOf(node) === name);
  }

  private nodesOf(label: number): ArrayLike<number> {
    const packed = this.packed;
    return packed ? slice(packed.labelStart, packed.labelNodeList, label) : this.labelNodes[label]!;
  }

  /** The spelling of the `i`-th node of `label`. */
  private spellingOf(label: number, i: number): string {
    const packed = this.packed;
    return packed ? packed.labelSpellings.get(packed.labelStart[label]! + i) : this.labelSpelling[label]![i]!;
  }

  /** Whether the trigram postings of every label are built (after a fuzzy look-up, or `indexGrams`). */
  get gramsBuilt(): boolean {
    return this.indexedLabels === this.labelCount;
  }

  toState(): NameIndexState {
    const packed = this.packed;
    if (packed) {
      let grams: NameIndexState['grams'];
      if (packed.grams) {
        const { keys, counts, labelGramTotal } = packed.grams;
        const start = new Uint32Array(counts.length + 1);
        for (let i = 0; i < counts.length; i++) start[i + 1] = start[i]! + counts[i]!;
        const labels = new Uint32Array(start[counts.length]!);
        for (let i = 0; i < counts.length; i++) labels.set(decodePostings(packed.grams, i), start[i]!);
        grams = { keys: keys.strings.toArray(), start, labels, labelGramTotal };
      } else if (this.gramsBuilt) grams = this.builtGrams();
      return {
        ids: packed.ids.toArray(),
        names: packed.names.toArray(),
        typeOf: packed.typeOf,
        types: packed.types,
        aliasKeys: packed.aliasKeys.strings.toArray(),
        aliasStart: packed.aliasStart,
        aliasNodes: packed.aliasNodes,
        labels: packed.labels.strings.toArray(),
        labelStart: packed.labelStart,
        labelNodeList: packed.labelNodeList,
        labelSpellings: packed.labelSpellings.toArray(),
        ...(grams ? { grams } : {}),
      };
    }
    const aliasKeys = [...this.byAlias.keys()];
    const aliases = flatten(aliasKeys.map((key) => this.byAlias.get(key)!));
    const labelNodes = flatten(this.labelNodes);
    const grams = this.gramsBuilt ? this.builtGrams() : undefined;
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
      labelSpellings: this.labelSpelling.flat(),
      ...(grams ? { grams } : {}),
    };
  }

  private builtGrams(): NonNullable<NameIndexState['grams']> {
    const keys = [...this.postings.keys()];
    const postings = flatten(keys.map((key) => this.postings.get(key)!));
    return {
      keys,
      start: postings.start,
      labels: postings.items,
      labelGramTotal: Uint32Array.from(this.labelGramTotal),
    };
  }

  /** A name index from `toState`, in the in-memory form: the maps are rebuilt from the lists, nothing is re-analysed. */
  static fromState(state: NameIndexState): NameIndex {
    const index = new NameIndex();
    index.setTypes(state.types);
    index.load(state);
    return index;
  }

  /** A name index over packed lists (a file's, see `name-index-file.ts`), answering from them as they are. */
  static fromPacked(packed: PackedNameIndex): NameIndex {
    const index = new NameIndex();
    index.setTypes(packed.types);
    index.packed = packed;
    if (packed.grams) index.indexedLabels = packed.labels.length;
    return index;
  }

  private setTypes(types: readonly string[]): void {
    types.forEach((type, i) => {
      this.types.push(type);
      this.typeIndex.set(type, i);
    });
  }

  lookup(name: string, options: NameLookupOptions): NameMatch[] {
    if (name.trim().length === 0) return [];
    const allowed = options.nodeTypes
      ? new Set(options.nodeTypes.map((t) => this.typeIndex.get(t)).filter((t) => t !== undefined))
      : undefined;
    const ok = (node: number) => !allowed || allowed.has(this.typeCodeOf(node));
    const best = new Map<number, NameMatch>();
    const offer = (node: number, match: NameMatch['match'], score: number, matched: string) => {
      if (!ok(node)) return false;
      const current = best.get(node);
      if (!current || current.score < score) {
        best.set(node, {
          id: this.idOf(node),
          type: this.types[this.typeCodeOf(node)]!,
          name: this.nameOf(node),
          match,
          score,
          matched,
        });
      }
      // Whether this is a node not offered before (the fuzzy search counts distinct matches).
      return !current;
    };
    const exact = this.exactMatches(name);
    for (let i = 0; i < exact.length; i++) offer(exact[i]!, 'exact', 1, name);
    const aliased = this.aliasNodesOf(name);
    for (let i = 0; i < aliased.length; i++) offer(aliased[i]!, 'alias', 0.95, name);
    const label = this.findLabel(name.toLowerCase());
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
    for (const count = this.labelCount; this.indexedLabels < count; this.indexedLabels++) {
      const counts = trigrams(this.labelText(this.indexedLabels));
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
    const labelCount = this.labelCount;
    if (this.scores.length < labelCount) this.scores = new Float64Array(labelCount);
    const scores = this.scores;
    const touched: number[] = [];
    // Grams carried by more labels than this (`"  a"`, `"ing"`) would make every lookup touch a
    // large share of a big graph (33 ms a name at 1M nodes); they generate no candidates, and are
    // assumed shared in the upper bound, so pruning stays safe. A label sharing only common grams
    // with the query is then missed — approximate by design, and only on large graphs.
    const cap = Math.max(commonGramFloor, Math.ceil(labelCount * commonGramShare));
    const lists = [...query].map(([gram, count]) => ({ gram, count, size: this.postingCount(gram) }));
    let rare = lists.filter((list) => list.size <= cap);
    if (rare.length === 0 && lists.length > 0) rare = [lists.reduce((a, b) => (b.size < a.size ? b : a))];
    let assumed = 0;
    for (const list of lists) if (!rare.includes(list)) assumed += list.count;
    // Upper bound of the shared trigram count per label: the query's count of every gram it shares.
    for (const { gram, count } of rare) {
      const labels = this.postingsOf(gram);
      for (let i = 0; i < labels.length; i++) {
        const label = labels[i]!;
        if (scores[label] === 0) touched.push(label);
        scores[label]! += count;
      }
    }
    const candidates: { label: number; bound: number }[] = [];
    for (const label of touched) {
      const bound = (2 * (scores[label]! + assumed)) / (queryTotal + this.gramTotalOf(label));
      scores[label] = 0;
      if (bound >= minSimilarity) candidates.push({ label, bound });
    }
    // Exact similarity in decreasing order of its upper bound, stopping once `limit` matches
    // beat every remaining bound: on big graphs most candidates are never scored.
    candidates.sort((a, b) => b.bound - a.bound);
    const kept: number[] = [];
    for (const { label, bound } of candidates) {
      if (kept.length >= limit && bound < kept[limit - 1]!) break;
      const similarity = trigramSimilarity(name, this.labelText(label));
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

/** `list` with `value` appended: a list read from a file (a typed array) is copied once into a plain one. */
function appended(list: number[] | Uint32Array | undefined, value: number): number[] {
  if (list instanceof Uint32Array) return [...list, value];
  if (!list) return [value];
  list.push(value);
  return list;
}

function push<K>(map: Map<K, number[] | Uint32Array>, key: K, value: number): void {
  const list = map.get(key);
  const next = appended(list, value);
  if (next !== list) map.set(key, next);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

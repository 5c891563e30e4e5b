import { NameIndex, type PackedNameIndex } from './name-index.ts';
import { encodeDeltas, PackedStrings, PackedStringTable } from './packed-strings.ts';
import { readSectionedFile, type SectionedFile, writeSectionedFile } from './sectioned-file.ts';

/**
 * A `NameIndex` saved to one file, so that a later process reads it instead of scanning every
 * name through the graph engine and, when they were built, re-deriving the trigram postings (7 and
 * 7 s at 10^6 nodes). A sectioned file (see `sectioned-file.ts`): lists of strings as packed UTF-8
 * (bytes and start offsets), number lists as 32-bit integers, and open-addressing hash tables for the
 * aliases, the lower-cased labels and the trigrams, all read back as typed arrays over the file's
 * bytes and used as they are (`NameIndex.fromPacked`): opening builds no `Map` and no per-entry string
 * (the first format, `WEFTNAM1`, rebuilt ~2 × 10^6 map entries at load: ~1.7 s at 10^6 nodes; such a
 * file is not read, and the store rebuilds and re-saves it). `stamp` names the graph it was made from:
 * a file of another stamp is not used.
 */
const magic = 'WEFTNAM2';

interface Fields {
  readonly stamp: string;
  readonly types: readonly string[];
}

/** Writes `index` to `path` through a temporary file and a rename. Returns true once written. */
export async function writeNameIndexFile(path: string, index: NameIndex, stamp: string): Promise<boolean> {
  const state = index.toState();
  const sections: Record<string, Uint8Array | Uint32Array> = {};
  const strings = (name: string, list: readonly string[], table = false) => {
    const packed = PackedStrings.from(list);
    sections[`${name}.bytes`] = packed.bytes;
    sections[`${name}.start`] = packed.start;
    if (table) sections[`${name}.slots`] = PackedStringTable.build(packed).slots;
  };
  strings('ids', state.ids);
  strings('names', state.names);
  sections.typeOf = state.typeOf;
  strings('aliasKeys', state.aliasKeys, true);
  sections.aliasStart = state.aliasStart;
  sections.aliasNodes = state.aliasNodes;
  strings('labels', state.labels, true);
  sections.labelStart = state.labelStart;
  sections.labelNodeList = state.labelNodeList;
  strings('labelSpellings', state.labelSpellings);
  if (state.grams) {
    strings('gramKeys', state.grams.keys, true);
    const { start, labels } = state.grams;
    const counts = new Uint32Array(start.length - 1);
    for (let i = 0; i < counts.length; i++) counts[i] = start[i + 1]! - start[i]!;
    const coded = encodeDeltas(start, labels);
    sections.gramCounts = counts;
    sections.gramStart = coded.start;
    sections.gramPostings = coded.bytes;
    sections.labelGramTotal = state.grams.labelGramTotal;
  }
  await writeSectionedFile(path, magic, { stamp, types: state.types } satisfies Fields, sections);
  return true;
}

/** Reads a file of `writeNameIndexFile`; undefined when there is none, or it is of another stamp or format, or malformed. */
export async function readNameIndexFile(path: string, stamp: string): Promise<NameIndex | undefined> {
  const file = await readSectionedFile<Fields>(path, magic);
  if (!file) return undefined;
  const { header } = file;
  if (header.stamp !== stamp || !Array.isArray(header.types)) return undefined;
  try {
    return NameIndex.fromPacked(packedIndex(file, header.types));
  } catch {
    return undefined;
  }
}

function malformed(): never {
  throw new RangeError('malformed name index file');
}

/** The file's lists, checked for the invariants a look-up relies on (throws when one fails). */
function packedIndex(file: SectionedFile<Fields>, types: readonly string[]): PackedNameIndex {
  const strings = (name: string) => {
    const bytes = file.section(`${name}.bytes`, 1);
    const start = file.section(`${name}.start`, 4);
    if (!PackedStrings.valid(bytes, start)) malformed();
    return new PackedStrings(bytes, start);
  };
  const table = (name: string) => {
    const list = strings(name);
    const slots = file.section(`${name}.slots`, 4);
    if (!PackedStringTable.valid(slots, list.length)) malformed();
    return new PackedStringTable(list, slots);
  };
  const numbers = (name: string) => file.section(name, 4);
  /** `start` of `count` lists over `items`, every item below `bound`. */
  const lists = (count: number, start: Uint32Array, items: Uint32Array, bound?: number) => {
    if (start.length !== count + 1 || start[0] !== 0 || start[count] !== items.length) malformed();
    for (let i = 0; i < count; i++) if (start[i]! > start[i + 1]!) malformed();
    if (bound !== undefined) for (let i = 0; i < items.length; i++) if (items[i]! >= bound) malformed();
  };
  const ids = strings('ids');
  const names = strings('names');
  const typeOf = numbers('typeOf');
  const size = ids.length;
  if (names.length !== size || typeOf.length !== size) malformed();
  for (let i = 0; i < size; i++) if (typeOf[i]! >= types.length) malformed();
  const aliasKeys = table('aliasKeys');
  const aliasStart = numbers('aliasStart');
  const aliasNodes = numbers('aliasNodes');
  lists(aliasKeys.length, aliasStart, aliasNodes, size);
  const labels = table('labels');
  const labelStart = numbers('labelStart');
  const labelNodeList = numbers('labelNodeList');
  lists(labels.length, labelStart, labelNodeList, size);
  const labelSpellings = strings('labelSpellings');
  if (labelSpellings.length !== labelNodeList.length) malformed();
  let grams: PackedNameIndex['grams'];
  if (file.has('gramKeys.bytes')) {
    const keys = table('gramKeys');
    const counts = numbers('gramCounts');
    const start = numbers('gramStart');
    const postings = file.section('gramPostings', 1);
    const labelGramTotal = numbers('labelGramTotal');
    // The coded postings are not checked one by one (~3 × 10^7 items at 10^6 nodes): a malformed
    // code decodes to labels out of range, which read `undefined` and score nothing.
    if (counts.length !== keys.length || !PackedStrings.valid(postings, start)) malformed();
    if (labelGramTotal.length !== labels.length) malformed();
    grams = { keys, counts, start, postings, labelGramTotal };
  }
  return {
    ids,
    names,
    typeOf,
    types,
    aliasKeys,
    aliasStart,
    aliasNodes,
    labels,
    labelStart,
    labelNodeList,
    labelSpellings,
    ...(grams ? { grams } : {}),
  };
}

import { CsrAdjacency, type SmallIntArray } from './csr-adjacency.ts';
import { PackedStrings, PackedStringTable } from './packed-strings.ts';
import { readSectionedFile, writeSectionedFile } from './sectioned-file.ts';

/**
 * A `CsrAdjacency` saved to one file, so that a later process reads it in a fraction of a second
 * instead of scanning every edge through the graph engine (seconds at 10^7 edges). A sectioned file
 * (see `sectioned-file.ts`): the CSR arrays, the ids as packed UTF-8 strings (an unused offset is
 * empty) and an open-addressing hash table id → offset over them, all read back as typed arrays over
 * the file's bytes, so opening builds no per-node object (a `Map` of 10^6 ids took ~1 s). `stamp`
 * names the graph the file was made from (e.g. the database file's size and mtime): a file of another
 * stamp, or of the first format (`WEFTCSR1`, ids joined by NUL and the map rebuilt at load), is not
 * used, and the store rebuilds and re-saves it.
 */
const magic = 'WEFTCSR2';

interface Fields {
  readonly stamp: string;
  readonly nodeTypeNames: readonly string[];
  readonly edgeTypeNames: readonly string[];
  readonly nodeCount: number;
}

/** Writes `adjacency` to `path` (through a temporary file and a rename). Returns true once written. */
export async function writeAdjacencyFile(
  path: string,
  adjacency: CsrAdjacency,
  stamp: string,
): Promise<boolean> {
  const parts = adjacency.toParts();
  const ids = PackedStringTable.build(PackedStrings.from(parts.ids));
  const fields: Fields = {
    stamp,
    nodeTypeNames: parts.nodeTypeNames,
    edgeTypeNames: parts.edgeTypeNames,
    nodeCount: adjacency.nodeCount,
  };
  await writeSectionedFile(
    path,
    magic,
    { ...fields },
    {
      nodeType: parts.nodeType,
      outStart: parts.out[0],
      outTarget: parts.out[1],
      outType: parts.out[2],
      inStart: parts.in[0],
      inTarget: parts.in[1],
      inType: parts.in[2],
      idBytes: ids.strings.bytes,
      idStart: ids.strings.start,
      idSlots: ids.slots,
    },
  );
  return true;
}

/** Reads a file of `writeAdjacencyFile`; undefined when there is none, or it is of another stamp or format, or malformed. */
export async function readAdjacencyFile(path: string, stamp: string): Promise<CsrAdjacency | undefined> {
  const file = await readSectionedFile<Fields>(path, magic);
  if (!file) return undefined;
  const { header } = file;
  if (
    header.stamp !== stamp ||
    !Array.isArray(header.nodeTypeNames) ||
    !Array.isArray(header.edgeTypeNames) ||
    !Number.isSafeInteger(header.nodeCount)
  )
    return undefined;
  try {
    const small = (name: string, distinct: number) => {
      const array = file.section(name, distinct <= 256 ? 1 : 2);
      return (
        array instanceof Uint8Array ? new Uint8Array(array.buffer, array.byteOffset, array.length) : array
      ) as SmallIntArray;
    };
    const nodeType = small('nodeType', header.nodeTypeNames.length);
    const size = nodeType.length;
    const direction = (prefix: 'out' | 'in'): [Uint32Array, Uint32Array, SmallIntArray] => {
      const start = file.section(`${prefix}Start`, 4);
      const target = file.section(`${prefix}Target`, 4);
      const type = small(`${prefix}Type`, header.edgeTypeNames.length);
      if (start.length !== size + 1 || type.length !== target.length || start[size] !== target.length)
        throw new RangeError('malformed adjacency');
      for (let i = 0; i < size; i++)
        if (start[i]! > start[i + 1]!) throw new RangeError('malformed adjacency');
      return [start, target, type];
    };
    const out = direction('out');
    const into = direction('in');
    const idBytes = file.section('idBytes', 1);
    const idStart = file.section('idStart', 4);
    const idSlots = file.section('idSlots', 4);
    if (idStart.length !== size + 1 || !PackedStrings.valid(idBytes, idStart)) return undefined;
    if (!PackedStringTable.valid(idSlots, size)) return undefined;
    const ids = new PackedStringTable(new PackedStrings(idBytes, idStart), idSlots);
    return CsrAdjacency.fromPackedIds(
      {
        nodeType,
        nodeTypeNames: header.nodeTypeNames,
        edgeTypeNames: header.edgeTypeNames,
        out,
        in: into,
      },
      ids,
      header.nodeCount,
    );
  } catch {
    return undefined;
  }
}

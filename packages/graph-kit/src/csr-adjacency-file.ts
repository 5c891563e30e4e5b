import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { CsrAdjacency, type CsrAdjacencyParts, type SmallIntArray } from './csr-adjacency.ts';

/**
 * A `CsrAdjacency` saved to one file, so that a later process reads it in a fraction of a second
 * instead of scanning every edge through the graph engine (seconds at 10^7 edges). Layout: the magic,
 * a JSON header (its length first), then each array's bytes at a 4-byte-aligned position, and the
 * ids as one UTF-8 string joined by NUL (unused offsets are empty). `stamp` names the graph the file
 * was made from (e.g. the database file's size and mtime): a file of another stamp is not used.
 */
const magic = Buffer.from('WEFTCSR1');

interface Header {
  readonly stamp: string;
  readonly nodeTypeNames: readonly string[];
  readonly edgeTypeNames: readonly string[];
  /** [byte offset, element count, bytes per element] of each array, in `arrayNames` order. */
  readonly arrays: readonly (readonly [number, number, number])[];
  readonly idsAt: readonly [number, number];
}

const arrayNames = ['nodeType', 'outStart', 'outTarget', 'outType', 'inStart', 'inTarget', 'inType'] as const;

function arraysOf(parts: CsrAdjacencyParts): (Uint32Array | SmallIntArray)[] {
  return [parts.nodeType, ...parts.out, ...parts.in];
}

/**
 * Writes `adjacency` to `path` (through a temporary file and a rename, so a reader never sees half
 * a file). Returns false, writing nothing, when an id holds a NUL (the separator).
 */
export async function writeAdjacencyFile(
  path: string,
  adjacency: CsrAdjacency,
  stamp: string,
): Promise<boolean> {
  const parts = adjacency.toParts();
  if (parts.ids.some((id) => id?.includes('\0'))) return false;
  const ids = Buffer.from(parts.ids.map((id) => id ?? '').join('\0'));
  const arrays = arraysOf(parts);
  // Positions are relative to the end of the header block, which is padded to 8 bytes.
  let at = 0;
  const placed = arrays.map((array) => {
    const place = [at, array.length, array.BYTES_PER_ELEMENT] as const;
    at += Math.ceil(array.byteLength / 4) * 4;
    return place;
  });
  const header: Header = {
    stamp,
    nodeTypeNames: parts.nodeTypeNames,
    edgeTypeNames: parts.edgeTypeNames,
    arrays: placed,
    idsAt: [at, ids.length],
  };
  const json = Buffer.from(JSON.stringify(header));
  const headerBlock = Buffer.alloc(Math.ceil((magic.length + 4 + json.length) / 8) * 8);
  magic.copy(headerBlock, 0);
  headerBlock.writeUInt32LE(json.length, magic.length);
  json.copy(headerBlock, magic.length + 4);
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.write(headerBlock);
    for (const array of arrays) {
      await file.write(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      const padding = Math.ceil(array.byteLength / 4) * 4 - array.byteLength;
      if (padding > 0) await file.write(Buffer.alloc(padding));
    }
    await file.write(ids);
    await file.close();
    await rename(temporary, path);
    return true;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads a file of `writeAdjacencyFile`; undefined when there is none, or it is of another stamp or malformed. */
export async function readAdjacencyFile(path: string, stamp: string): Promise<CsrAdjacency | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  if (bytes.length < magic.length + 4 || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  const length = bytes.readUInt32LE(magic.length);
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', magic.length + 4, magic.length + 4 + length)) as Header;
  } catch {
    return undefined;
  }
  if (header.stamp !== stamp || header.arrays.length !== arrayNames.length) return undefined;
  const base = Math.ceil((magic.length + 4 + length) / 8) * 8;
  // Typed arrays need aligned offsets: a buffer that does not start at a multiple of 4 is copied once.
  const data = (bytes.byteOffset + base) % 4 === 0 ? bytes : Buffer.from(bytes);
  const view = (at: number, count: number, width: number): Uint32Array | SmallIntArray => {
    const offset = data.byteOffset + base + at;
    if (base + at + count * width > data.length) throw new RangeError('truncated adjacency file');
    if (width === 4) return new Uint32Array(data.buffer, offset, count);
    if (width === 2) return new Uint16Array(data.buffer, offset, count);
    return new Uint8Array(data.buffer, offset, count);
  };
  try {
    const [nodeType, outStart, outTarget, outType, inStart, inTarget, inType] = header.arrays.map(
      ([at, count, width]) => view(at, count, width),
    );
    const [idsAt, idsLength] = header.idsAt;
    if (base + idsAt + idsLength > data.length) return undefined;
    const ids =
      nodeType!.length === 0
        ? []
        : data
            .toString('utf8', base + idsAt, base + idsAt + idsLength)
            .split('\0')
            .map((id) => (id === '' ? undefined : id));
    if (ids.length !== nodeType!.length) return undefined;
    return CsrAdjacency.fromParts({
      ids,
      nodeType: nodeType as SmallIntArray,
      nodeTypeNames: header.nodeTypeNames,
      edgeTypeNames: header.edgeTypeNames,
      out: [outStart as Uint32Array, outTarget as Uint32Array, outType as SmallIntArray],
      in: [inStart as Uint32Array, inTarget as Uint32Array, inType as SmallIntArray],
    });
  } catch {
    return undefined;
  }
}

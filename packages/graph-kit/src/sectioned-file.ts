import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';

/**
 * One file of named typed arrays, read back as views over the file's bytes (no copy, no per-element
 * object): the adjacency and the name index files. Layout: an 8-byte magic (its last character is the
 * format version: a file of another version is not read), the JSON header's byte length (u32 LE),
 * the JSON header, zero padding to 8 bytes, then each section at an 8-byte-aligned place. The header
 * holds the caller's fields, the file's total length (a truncated or extended file is refused) and,
 * per section, `[byte offset after the header block, element count, bytes per element]`.
 */
export type SectionArray = Uint8Array | Uint16Array | Uint32Array;

interface FileHeader {
  readonly length: number;
  readonly sections: Readonly<Record<string, readonly [number, number, number]>>;
}

const align = (n: number) => Math.ceil(n / 8) * 8;

/** Writes the file through a temporary one and a rename, so that a reader never sees half a file. */
export async function writeSectionedFile(
  path: string,
  magic: string,
  fields: Record<string, unknown>,
  sections: Readonly<Record<string, SectionArray>>,
): Promise<void> {
  const magicBytes = Buffer.from(magic);
  if (magicBytes.length !== 8) throw new Error('the magic is 8 bytes');
  const placed: Record<string, [number, number, number]> = {};
  let at = 0;
  for (const [name, array] of Object.entries(sections)) {
    placed[name] = [at, array.length, array.BYTES_PER_ELEMENT];
    at += align(array.byteLength);
  }
  // The total length depends on the header's own length: settle it in a few rounds.
  let json = Buffer.alloc(0);
  let total = 0;
  for (let round = 0; round < 4; round++) {
    const headerBlock = align(8 + 4 + json.length);
    const next = headerBlock + at;
    if (next === total) break;
    total = next;
    json = Buffer.from(JSON.stringify({ ...fields, length: total, sections: placed }));
  }
  const headerBlock = Buffer.alloc(align(8 + 4 + json.length));
  if (headerBlock.length + at !== total) throw new Error('the header length did not settle');
  magicBytes.copy(headerBlock, 0);
  headerBlock.writeUInt32LE(json.length, 8);
  json.copy(headerBlock, 12);
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.write(headerBlock);
    for (const array of Object.values(sections)) {
      await file.write(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      const padding = align(array.byteLength) - array.byteLength;
      if (padding > 0) await file.write(Buffer.alloc(padding));
    }
    await file.close();
    await rename(temporary, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

export interface SectionedFile<Fields> {
  readonly header: Fields;
  /** The named section with `width`-byte elements; throws (the file is malformed) when absent or of another width. */
  section(name: string, width: 4): Uint32Array;
  section(name: string, width: 1): Buffer;
  section(name: string, width: 1 | 2): Uint8Array | Uint16Array;
  has(name: string): boolean;
}

/**
 * Reads a file of `writeSectionedFile`: undefined when there is none, or its magic (format version)
 * is another, or its header or length are wrong.
 */
export async function readSectionedFile<Fields>(
  path: string,
  magic: string,
): Promise<SectionedFile<Fields> | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== magic) return undefined;
  const jsonLength = bytes.readUInt32LE(8);
  if (12 + jsonLength > bytes.length) return undefined;
  let header: Fields & FileHeader;
  try {
    header = JSON.parse(bytes.toString('utf8', 12, 12 + jsonLength)) as Fields & FileHeader;
  } catch {
    return undefined;
  }
  if (header?.length !== bytes.length || typeof header.sections !== 'object') return undefined;
  const base = align(12 + jsonLength);
  // Typed arrays need aligned offsets: a buffer that does not start at a multiple of 8 is copied once.
  const data = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(new Uint8Array(bytes).buffer);
  function section(name: string, width: number): Uint8Array | Uint16Array | Uint32Array {
    const place = Object.hasOwn(header.sections, name) ? header.sections[name] : undefined;
    if (!place) throw new RangeError(`no section ${name}`);
    const [at, count, size] = place;
    if (size !== width || !Number.isSafeInteger(at) || !Number.isSafeInteger(count) || at < 0 || count < 0)
      throw new RangeError(`malformed section ${name}`);
    if (at % 8 !== 0 || base + at + count * width > data.length)
      throw new RangeError(`truncated section ${name}`);
    const offset = data.byteOffset + base + at;
    if (width === 4) return new Uint32Array(data.buffer, offset, count);
    if (width === 2) return new Uint16Array(data.buffer, offset, count);
    return data.subarray(base + at, base + at + count);
  }
  return {
    header,
    section: section as SectionedFile<Fields>['section'],
    has: (name) => Object.hasOwn(header.sections, name),
  };
}

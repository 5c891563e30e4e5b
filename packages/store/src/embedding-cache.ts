import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

/** The folder of a store directory that holds its embedding cache (`weft ingest`, `weft update`). */
export const embeddingCacheFolder = 'embedding-cache';

const magic = Buffer.from('WEFTEMB1', 'latin1');
/** Segment header: magic, then the vectors' dimensions (u32 LE). */
const headerBytes = magic.length + 4;
/** Frame header: entry count (u32 LE), CRC-32 of the frame's body (u32 LE). */
const frameHeaderBytes = 8;
const keyBytes = 32;
/** Packs a segment number and a byte offset into one safe integer (offset < 2^40 = 1 TiB). */
const offsetRange = 2 ** 40;
const maxSegments = 8192;

/** A cache key: SHA-256 of the embedder's identity and the text. */
export function embeddingCacheKey(namespace: string, text: string): Buffer {
  // The namespace's length first, so no (namespace, text) pair reads as another.
  return createHash('sha256')
    .update(`weft-embedding/1 ${Buffer.byteLength(namespace)}:`)
    .update(namespace)
    .update(text)
    .digest();
}

interface Segment {
  readonly path: string;
  readonly dimensions: number;
  fd: number;
  /** Where the next frame goes (this process's own segments only). */
  end: number;
}

const littleEndian = endianness() === 'LE';

/**
 * A content-addressed store of embeddings: key = SHA-256 of (embedder identity, text), value = the
 * vector, in append-only segment files in one folder. Each process that writes appends to segment
 * files of its own (`<time>-<pid>-<random>.seg`, one per vector size), a frame per `put`: entry
 * count, CRC-32 of the body, then per entry the key and the vector as little-endian float32. On open
 * every segment is scanned and its keys indexed (the vectors stay on disk, read by offset); a frame
 * that is cut short or fails its checksum — the tail of a process killed while writing — ends that
 * segment's reading, and since no one appends to another process's segment, what comes after it is
 * never lost. Several processes may share a folder (`--embedding-cache`): each sees what the others
 * had written when it opened.
 */
export class EmbeddingCache {
  readonly directory: string;
  private readonly segments: Segment[] = [];
  /** key (latin1 string of the 32 bytes) → segment × 2^40 + byte offset of the entry. */
  private readonly index = new Map<string, number>();
  /** This process's segment per vector size, created at the first `put` of that size. */
  private readonly writers = new Map<number, number>();
  /** Bytes ignored at open: torn or corrupt tails of segments. */
  readonly ignoredBytes: number;

  private constructor(directory: string, ignoredBytes: number) {
    this.directory = directory;
    this.ignoredBytes = ignoredBytes;
  }

  /** Opens (creating it when missing) the cache in `directory` and indexes its segments. */
  static async open(directory: string): Promise<EmbeddingCache> {
    await mkdir(directory, { recursive: true });
    const files = readdirSync(directory)
      .filter((name) => name.endsWith('.seg'))
      .sort();
    let ignored = 0;
    const cache = new EmbeddingCache(directory, 0);
    for (const name of files) ignored += cache.load(join(directory, name));
    (cache as { ignoredBytes: number }).ignoredBytes = ignored;
    return cache;
  }

  /** Entries indexed (distinct keys). */
  get size(): number {
    return this.index.size;
  }

  has(key: Buffer): boolean {
    return this.index.has(key.toString('latin1'));
  }

  /** The cached vector of `key`, when there is one of `dimensions` (any size when not given). */
  get(key: Buffer, dimensions?: number): Float32Array | undefined {
    const location = this.index.get(key.toString('latin1'));
    if (location === undefined) return undefined;
    const segment = this.segments[Math.floor(location / offsetRange)]!;
    if (dimensions !== undefined && segment.dimensions !== dimensions) return undefined;
    const offset = location % offsetRange;
    if (segment.fd < 0) segment.fd = openSync(segment.path, 'r');
    const vector = new Float32Array(segment.dimensions);
    const bytes = littleEndian ? new Uint8Array(vector.buffer) : Buffer.allocUnsafe(vector.length * 4);
    const read = readSync(segment.fd, bytes, 0, bytes.length, offset + keyBytes);
    if (read !== bytes.length) return undefined;
    if (!littleEndian)
      for (let i = 0; i < vector.length; i++) vector[i] = (bytes as Buffer).readFloatLE(i * 4);
    return vector;
  }

  /**
   * Appends `entries` (all of one size) as one frame, with one write: a process killed during it
   * leaves a torn frame that the next open ignores.
   */
  put(entries: readonly { readonly key: Buffer; readonly vector: ArrayLike<number> }[]): void {
    if (entries.length === 0) return;
    const dimensions = entries[0]!.vector.length;
    if (dimensions === 0 || entries.some((entry) => entry.vector.length !== dimensions))
      throw new Error('EmbeddingCache.put: the vectors of one frame must have one non-zero size');
    const segmentNumber = this.writer(dimensions);
    const segment = this.segments[segmentNumber]!;
    const entryBytes = keyBytes + dimensions * 4;
    const frame = Buffer.allocUnsafe(frameHeaderBytes + entries.length * entryBytes);
    entries.forEach((entry, i) => {
      const at = frameHeaderBytes + i * entryBytes;
      entry.key.copy(frame, at, 0, keyBytes);
      for (let d = 0; d < dimensions; d++) frame.writeFloatLE(entry.vector[d]!, at + keyBytes + d * 4);
    });
    frame.writeUInt32LE(entries.length, 0);
    frame.writeUInt32LE(crc32(frame.subarray(frameHeaderBytes)), 4);
    const start = segment.end;
    let written = 0;
    while (written < frame.length)
      written += writeSync(segment.fd, frame, written, frame.length - written, start + written);
    segment.end = start + frame.length;
    entries.forEach((entry, i) => {
      this.index.set(
        entry.key.toString('latin1'),
        segmentNumber * offsetRange + start + frameHeaderBytes + i * entryBytes,
      );
    });
  }

  close(): void {
    for (const segment of this.segments) {
      if (segment.fd >= 0) closeSync(segment.fd);
      segment.fd = -1;
    }
    this.writers.clear();
  }

  private writer(dimensions: number): number {
    const existing = this.writers.get(dimensions);
    if (existing !== undefined) return existing;
    if (this.segments.length >= maxSegments) throw new Error(`${this.directory}: too many segments`);
    const name = `${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${randomBytes(4).toString('hex')}-d${dimensions}.seg`;
    const path = join(this.directory, name);
    const header = Buffer.alloc(headerBytes);
    magic.copy(header, 0);
    header.writeUInt32LE(dimensions, magic.length);
    const fd = openSync(path, 'wx+');
    writeSync(fd, header, 0, header.length, 0);
    this.segments.push({ path, dimensions, fd, end: headerBytes });
    const number = this.segments.length - 1;
    this.writers.set(dimensions, number);
    return number;
  }

  /** Indexes one segment file; returns the bytes of it that were ignored (a torn or corrupt tail). */
  private load(path: string): number {
    if (!existsSync(path)) return 0;
    const fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const header = Buffer.alloc(headerBytes);
    if (
      size < headerBytes ||
      readSync(fd, header, 0, headerBytes, 0) < headerBytes ||
      !header.subarray(0, magic.length).equals(magic)
    ) {
      closeSync(fd);
      return size;
    }
    const dimensions = header.readUInt32LE(magic.length);
    if (dimensions === 0 || this.segments.length >= maxSegments) {
      closeSync(fd);
      return size;
    }
    const segmentNumber = this.segments.length;
    this.segments.push({ path, dimensions, fd, end: -1 });
    const entryBytes = keyBytes + dimensions * 4;
    const frameHeader = Buffer.alloc(frameHeaderBytes);
    let at = headerBytes;
    while (at + frameHeaderBytes <= size) {
      readSync(fd, frameHeader, 0, frameHeaderBytes, at);
      const count = frameHeader.readUInt32LE(0);
      const bodyBytes = count * entryBytes;
      if (count === 0 || at + frameHeaderBytes + bodyBytes > size) break;
      const body = Buffer.allocUnsafe(bodyBytes);
      if (readSync(fd, body, 0, bodyBytes, at + frameHeaderBytes) < bodyBytes) break;
      if (crc32(body) !== frameHeader.readUInt32LE(4)) break;
      for (let i = 0; i < count; i++) {
        const entry = at + frameHeaderBytes + i * entryBytes;
        const key = body.toString('latin1', i * entryBytes, i * entryBytes + keyBytes);
        this.index.set(key, segmentNumber * offsetRange + entry);
      }
      at += frameHeaderBytes + bodyBytes;
    }
    return size - at;
  }
}

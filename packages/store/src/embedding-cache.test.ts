import { appendFileSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddingCache, embeddingCacheKey } from './embedding-cache.ts';

const vector = (seed: number, dimensions = 4) =>
  Float32Array.from({ length: dimensions }, (_, i) => seed + i / 8);
const entries = (from: number, to: number, dimensions = 4) =>
  Array.from({ length: to - from }, (_, i) => ({
    key: embeddingCacheKey('ns', `text ${from + i}`),
    vector: vector(from + i, dimensions),
  }));

describe('EmbeddingCache', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'weft-embedding-cache-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keys by namespace and text', () => {
    expect(embeddingCacheKey('a', 'x').equals(embeddingCacheKey('a', 'x'))).toBe(true);
    expect(embeddingCacheKey('a', 'x').equals(embeddingCacheKey('b', 'x'))).toBe(false);
    expect(embeddingCacheKey('a', 'x\u0000y').equals(embeddingCacheKey('a\u0000x', 'y'))).toBe(false);
  });

  it('returns what was put, in this process and after reopening', async () => {
    const cache = await EmbeddingCache.open(directory);
    cache.put(entries(0, 10));
    cache.put(entries(10, 12));
    expect(Array.from(cache.get(embeddingCacheKey('ns', 'text 11'))!)).toEqual(Array.from(vector(11)));
    expect(cache.get(embeddingCacheKey('other', 'text 11'))).toBeUndefined();
    cache.close();
    const reopened = await EmbeddingCache.open(directory);
    expect(reopened.size).toBe(12);
    expect(reopened.ignoredBytes).toBe(0);
    for (let i = 0; i < 12; i++)
      expect(Array.from(reopened.get(embeddingCacheKey('ns', `text ${i}`))!)).toEqual(Array.from(vector(i)));
    // Asked for another size, a vector is not returned.
    expect(reopened.get(embeddingCacheKey('ns', 'text 3'), 8)).toBeUndefined();
    expect(reopened.get(embeddingCacheKey('ns', 'text 3'), 4)).toBeDefined();
    reopened.close();
  });

  it('ignores a torn or corrupt tail and keeps every whole frame before it', async () => {
    const cache = await EmbeddingCache.open(directory);
    cache.put(entries(0, 5));
    cache.put(entries(5, 9));
    cache.close();
    const [segment] = readdirSync(directory);
    const path = join(directory, segment!);
    const whole = readFileSync(path);
    const frameBytes = 8 + 4 * (32 + 16);
    // Cut in the middle of the second frame: the first stays.
    for (const cut of [whole.length - 1, whole.length - frameBytes + 3, whole.length - frameBytes + 8 + 50]) {
      writeFileSync(path, whole.subarray(0, cut));
      const torn = await EmbeddingCache.open(directory);
      expect(torn.size).toBe(5);
      expect(torn.ignoredBytes).toBe(cut - (whole.length - frameBytes));
      expect(torn.has(embeddingCacheKey('ns', 'text 4'))).toBe(true);
      expect(torn.has(embeddingCacheKey('ns', 'text 5'))).toBe(false);
      // Writing after a torn tail goes to a new segment: both stay readable.
      torn.put(entries(5, 9));
      torn.close();
      const again = await EmbeddingCache.open(directory);
      expect(again.size).toBe(9);
      expect(Array.from(again.get(embeddingCacheKey('ns', 'text 8'))!)).toEqual(Array.from(vector(8)));
      again.close();
      for (const name of readdirSync(directory)) if (name !== segment) await rm(join(directory, name));
    }
    // A flipped byte in the second frame's body: its checksum fails, the first frame stays.
    const corrupt = Buffer.from(whole);
    corrupt[corrupt.length - 3]! ^= 0xff;
    writeFileSync(path, corrupt);
    const checked = await EmbeddingCache.open(directory);
    expect(checked.size).toBe(5);
    expect(checked.ignoredBytes).toBe(frameBytes);
    checked.close();
    // A file cut inside its header, or not a segment at all, is ignored whole.
    truncateSync(path, 5);
    appendFileSync(join(directory, 'junk.seg'), 'not a segment at all');
    const empty = await EmbeddingCache.open(directory);
    expect(empty.size).toBe(0);
    empty.close();
  });

  it('lets two writers share a folder, each in segments of its own', async () => {
    const a = await EmbeddingCache.open(directory);
    const b = await EmbeddingCache.open(directory);
    a.put(entries(0, 3));
    b.put(entries(3, 6));
    a.put(entries(6, 7, 8));
    b.put(entries(7, 8));
    a.close();
    b.close();
    expect(readdirSync(directory)).toHaveLength(3);
    const both = await EmbeddingCache.open(directory);
    expect(both.size).toBe(8);
    expect(both.get(embeddingCacheKey('ns', 'text 6'))!.length).toBe(8);
    expect(Array.from(both.get(embeddingCacheKey('ns', 'text 4'))!)).toEqual(Array.from(vector(4)));
    both.close();
  });

  it('refuses a frame of mixed or empty vectors', async () => {
    const cache = await EmbeddingCache.open(directory);
    expect(() => cache.put([...entries(0, 1), ...entries(1, 2, 8)])).toThrow(/one non-zero size/);
    expect(() => cache.put([{ key: embeddingCacheKey('ns', 'x'), vector: [] }])).toThrow(/one non-zero size/);
    cache.close();
  });
});

/**
 * Strings kept as one UTF-8 buffer and the byte offset where each starts (`count + 1` offsets), so
 * that a list of a million strings read from a file is two typed arrays and no JS object per string:
 * a string is decoded only when it is read. `PackedStringTable` adds an open-addressing hash table
 * (linear probing over a power-of-two `slots` array of `index + 1`, 0 = empty) to find a string's
 * index without a `Map`. Both are what `sectioned-file.ts` files save and read back as they are.
 */
export class PackedStrings {
  readonly bytes: Buffer;
  readonly start: Uint32Array;
  constructor(bytes: Buffer, start: Uint32Array) {
    this.bytes = bytes;
    this.start = start;
  }

  get length(): number {
    return this.start.length - 1;
  }

  get(i: number): string {
    return this.bytes.toString('utf8', this.start[i]!, this.start[i + 1]!);
  }

  isEmpty(i: number): boolean {
    return this.start[i] === this.start[i + 1];
  }

  toArray(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.get(i);
    return out;
  }

  /** Packs `strings`; `undefined` is packed as the empty string. */
  static from(strings: readonly (string | undefined)[]): PackedStrings {
    const start = new Uint32Array(strings.length + 1);
    let size = 0;
    for (let i = 0; i < strings.length; i++) {
      size += Buffer.byteLength(strings[i] ?? '', 'utf8');
      start[i + 1] = size;
    }
    if (size > 0xffff_ffff) throw new RangeError('strings too long to pack (4 GiB at most)');
    const bytes = Buffer.allocUnsafe(size);
    for (let i = 0; i < strings.length; i++) {
      const text = strings[i];
      if (text) bytes.write(text, start[i]!, 'utf8');
    }
    return new PackedStrings(bytes, start);
  }

  /**
   * Whether `start` is a valid offset list over `bytes` (from 0, non-decreasing, ending at its length):
   * what a reader checks before it trusts a file.
   */
  static valid(bytes: Uint8Array, start: Uint32Array): boolean {
    if (start.length === 0 || start[0] !== 0 || start[start.length - 1] !== bytes.length) return false;
    for (let i = 1; i < start.length; i++) if (start[i]! < start[i - 1]!) return false;
    return true;
  }
}

/** FNV-1a over bytes `from…to`. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

export class PackedStringTable {
  readonly strings: PackedStrings;
  readonly slots: Uint32Array;
  constructor(strings: PackedStrings, slots: Uint32Array) {
    this.strings = strings;
    this.slots = slots;
  }

  get length(): number {
    return this.strings.length;
  }

  get(i: number): string {
    return this.strings.get(i);
  }

  /** The index of `key`, or -1. */
  find(key: string): number {
    const { bytes, start } = this.strings;
    const wanted = Buffer.from(key, 'utf8');
    const mask = this.slots.length - 1;
    for (let slot = hashBytes(wanted, 0, wanted.length) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const from = start[entry - 1]!;
      const to = start[entry]!;
      if (to - from !== wanted.length) continue;
      let i = 0;
      while (i < wanted.length && bytes[from + i] === wanted[i]) i++;
      if (i === wanted.length) return entry - 1;
    }
  }

  /** The table over `strings` (distinct, except empty ones, which are left out: they are never found). */
  static build(strings: PackedStrings): PackedStringTable {
    const { bytes, start } = strings;
    let capacity = 8;
    while (capacity < strings.length * 2) capacity *= 2;
    const slots = new Uint32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < strings.length; i++) {
      const from = start[i]!;
      const to = start[i + 1]!;
      if (from === to) continue;
      let slot = hashBytes(bytes, from, to) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    }
    return new PackedStringTable(strings, slots);
  }

  /**
   * Whether `slots` can be a table over `count` strings: a power-of-two length with an empty slot
   * left (so that every probe ends), and entries no greater than `count`. Membership is not checked.
   */
  static valid(slots: Uint32Array, count: number): boolean {
    const capacity = slots.length;
    if (capacity < 8 || (capacity & (capacity - 1)) !== 0 || count >= capacity) return false;
    let used = 0;
    for (let i = 0; i < capacity; i++) {
      const entry = slots[i]!;
      if (entry > count) return false;
      if (entry !== 0) used++;
    }
    return used < capacity;
  }
}

/**
 * Lists of integers (`items[start[i]…start[i+1]]`) as variable-length byte codes of the
 * differences between neighbours (zigzag, 7 bits a byte, so any order is kept): ascending posting
 * lists take ~1 byte an item instead of 4. `start` of the result holds byte offsets.
 */
export function encodeDeltas(
  start: Uint32Array,
  items: Uint32Array,
): { start: Uint32Array; bytes: Uint8Array } {
  const lists = start.length - 1;
  const offsets = new Uint32Array(start.length);
  const zigzag = (i: number, previous: number) => {
    const delta = items[i]! - previous;
    return delta >= 0 ? delta * 2 : -delta * 2 - 1;
  };
  let size = 0;
  for (let list = 0; list < lists; list++) {
    let previous = 0;
    for (let i = start[list]!; i < start[list + 1]!; i++) {
      let z = zigzag(i, previous);
      previous = items[i]!;
      do {
        size++;
        z = Math.floor(z / 128);
      } while (z > 0);
    }
    offsets[list + 1] = size;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (let list = 0; list < lists; list++) {
    let previous = 0;
    for (let i = start[list]!; i < start[list + 1]!; i++) {
      let z = zigzag(i, previous);
      previous = items[i]!;
      while (z >= 128) {
        bytes[at++] = (z % 128) | 128;
        z = Math.floor(z / 128);
      }
      bytes[at++] = z;
    }
  }
  return { start: offsets, bytes };
}

/** The `count` integers coded in `bytes[from…to]` by `encodeDeltas` (a malformed code yields garbage, never a throw). */
export function decodeDeltas(bytes: Uint8Array, from: number, to: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let at = from;
  let previous = 0;
  for (let i = 0; i < count && at < to; i++) {
    let z = 0;
    let scale = 1;
    let byte: number;
    do {
      byte = bytes[at++]!;
      z += (byte & 127) * scale;
      scale *= 128;
    } while (byte >= 128 && at < to && scale < 2 ** 35);
    previous += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    out[i] = previous;
  }
  return out;
}

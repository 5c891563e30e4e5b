/** A binary min-heap of (key, value) pairs: the event queue of the growth phase. */
export class MinHeap {
  private readonly keys: number[] = [];
  private readonly values: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, value: number): void {
    const keys = this.keys;
    const values = this.values;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      values[i] = values[parent]!;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** The smallest key, or `Infinity` when empty. */
  peekKey(): number {
    return this.keys.length > 0 ? this.keys[0]! : Number.POSITIVE_INFINITY;
  }

  /** Removes the smallest pair and returns its value (the key is `peekKey()` before the call). */
  pop(): number {
    const keys = this.keys;
    const values = this.values;
    const top = values[0]!;
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const n = keys.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && keys[right]! < keys[left]! ? right : left;
      if (keys[child]! >= lastKey) break;
      keys[i] = keys[child]!;
      values[i] = values[child]!;
      i = child;
    }
    keys[i] = lastKey;
    values[i] = lastValue;
    return top;
  }
}

import type { SkbNode } from '@weft/spec';

/** A least-recently-used map of nodes (a `Map` keeps insertion order: re-inserting marks a hit). */
export class NodeCache {
  private readonly capacity: number;
  private readonly nodes = new Map<string, SkbNode>();

  constructor(capacity: number) {
    this.capacity = Math.max(0, capacity);
  }

  get(id: string): SkbNode | undefined {
    const node = this.nodes.get(id);
    if (node) {
      this.nodes.delete(id);
      this.nodes.set(id, node);
    }
    return node;
  }

  set(id: string, node: SkbNode): void {
    if (this.capacity === 0) return;
    this.nodes.delete(id);
    this.nodes.set(id, node);
    if (this.nodes.size > this.capacity) this.nodes.delete(this.nodes.keys().next().value!);
  }

  get size(): number {
    return this.nodes.size;
  }

  clear(): void {
    this.nodes.clear();
  }
}

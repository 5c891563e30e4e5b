import type { SkbQuery } from '@weft/spec';
import type { SkbBundle } from './open-bundle.ts';

export interface SynthesizeTextQueriesOptions {
  /** Queries to make (default 200). */
  readonly count?: number;
  /** Share of them in the `val` split, the rest `train` (default 0.25). */
  readonly valShare?: number;
  /** Share of the description's words kept, so a query is a partial paraphrase (default 0.7). */
  readonly keep?: number;
  /** Fewest words a query keeps; shorter descriptions are skipped (default 4). */
  readonly minWords?: number;
  readonly seed?: number;
}

/** FNV-1a, 32 bits: a stable hash for seeded, order-independent sampling. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const wordsOf = (text: string) => text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];

/**
 * STaRK-style text-only queries from a bundle's own documents: a node's description (its first
 * clause), with the node's own names taken out and some words dropped, answered by that node. They
 * have no relational part, so a stack trained on them alongside relational query sets learns when
 * the text alone should decide. Nodes are sampled by a seeded hash of their id (bottom-k), so the
 * result does not depend on file order; only the schema's target types are used.
 */
export async function synthesizeTextQueries(
  bundle: SkbBundle,
  options: SynthesizeTextQueriesOptions = {},
): Promise<SkbQuery[]> {
  const count = options.count ?? 200;
  const seed = options.seed ?? 7;
  const keep = options.keep ?? 0.7;
  const minWords = options.minWords ?? 4;
  const targets = bundle.schema.targetTypes ? new Set(bundle.schema.targetTypes) : undefined;
  // Bottom-k by hash: the `count` nodes with the smallest hashes among those that yield a query.
  const kept: { h: number; id: string; query: string }[] = [];
  for await (const node of bundle.nodes()) {
    if (targets && !targets.has(node.type)) continue;
    const h = hash(node.id, seed);
    if (kept.length >= count && h >= kept[kept.length - 1]!.h) continue;
    const clause = node.text.split(/;|\.\s|["“]/)[0] ?? '';
    const names = new Set([node.name, ...(node.aliases ?? [])].flatMap((n) => wordsOf(n.toLowerCase())));
    const words = wordsOf(clause).filter(
      (w) => !names.has(w.toLowerCase()) && hash(`${node.id}|${w}`, seed) % 1000 < keep * 1000,
    );
    if (words.length < minWords) continue;
    kept.push({ h, id: node.id, query: words.join(' ') });
    kept.sort((a, b) => a.h - b.h);
    if (kept.length > count) kept.pop();
  }
  const val = Math.round(kept.length * (options.valShare ?? 0.25));
  return kept.map((k, i) => ({
    id: `synth-text-${String(i + 1).padStart(4, '0')}`,
    query: k.query,
    answers: [k.id],
    split: i < kept.length - val ? 'train' : 'val',
    meta: { source: 'synthesizeTextQueries', node: k.id },
  }));
}

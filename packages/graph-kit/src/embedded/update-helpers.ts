import type { SkbEdge, SkbNode } from '@weft/spec';
import { aliasSeparator } from './mapping.ts';

/** An edge's identity (source, type, target), for a row the engine returned or one of a change set. */
export const edgeKey = (edge: Readonly<Record<string, unknown>> | SkbEdge): string =>
  `${String(edge.src)}\u0000${String(edge.type)}\u0000${String(edge.dst)}`;

/** Seconds per named phase: `lap(name)` closes the phase that ran since the last lap (or the start). */
export function phaseTimer(): { readonly timings: Record<string, number>; lap(name: string): void } {
  const timings: Record<string, number> = {};
  let started = performance.now();
  return {
    timings,
    lap(name) {
      const now = performance.now();
      timings[name] = Math.round(now - started) / 1000;
      started = now;
    },
  };
}

/** A node as the columns an update writes: aliases joined, props as JSON or ''. */
export function nodeRow(
  node: SkbNode,
): Record<'id' | 'type' | 'name' | 'text' | 'aliases' | 'props', string> {
  return {
    id: node.id,
    type: node.type,
    name: node.name,
    text: node.text,
    aliases: (node.aliases ?? []).join(aliasSeparator),
    props: node.props && Object.keys(node.props).length > 0 ? JSON.stringify(node.props) : '',
  };
}

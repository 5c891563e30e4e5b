import type { SkbEdge } from '@weft/spec';

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

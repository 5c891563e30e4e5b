import { fitLogistic } from '@weft/core';
import type { GroundedCandidate, GroundingModels } from './ground-question.ts';
import { groundingRow } from './ground-question.ts';
import { groundingFeatures } from './grounding-weights.ts';

/** One candidate of a training question: whether the question builds on it, and how much it counts. */
export interface GroundingExample {
  readonly candidate: GroundedCandidate;
  readonly anchor: boolean;
  readonly weight?: number;
}

/**
 * Fits the two readings' models on a KB's own questions (`GroundQuestionOptions.models`): unbalanced
 * logistic regressions, so the output stays a probability. A reading with no positive or no negative
 * example gets no model (the fixed weights stay).
 */
export function fitGroundingModels(examples: readonly GroundingExample[]): GroundingModels {
  const fit = (named: boolean) => {
    const rows = examples
      .filter((e) => e.candidate.features.nameWhole > 0 === named)
      .map((e) => ({
        x: groundingRow(e.candidate.features),
        y: (e.anchor ? 1 : 0) as 0 | 1,
        weight: e.weight ?? 1,
      }));
    if (!rows.some((r) => r.y === 1) || !rows.some((r) => r.y === 0)) return undefined;
    return fitLogistic(groundingFeatures, rows, { l2: 0.05, epochs: 500, balanced: false });
  };
  const named = fit(true);
  const described = fit(false);
  return { ...(named ? { named } : {}), ...(described ? { described } : {}) };
}

import { relationLabel } from '@weft/kit';
import { defaultUnsureThreshold } from '@weft/llm';
import type { Plan } from '@weft/spec';
import type { LlmPathPlannerModel, PathPlanExample } from './path-planner-artifact.ts';
import { toPathPlanOutput } from './to-path-plan-output.ts';

/** One val query as the offline stack saw it: the planner's confidence and whether it answered right. */
export interface ThresholdExample {
  readonly confidence: number;
  /** The offline stack ranked a gold answer first. */
  readonly correct: boolean;
}

/** One train query whose offline plan may serve as a worked example. */
export interface FewShotCandidate {
  readonly query: string;
  readonly plan: Plan;
  /** The offline plan's paths reached a gold answer and the stack ranked it first. */
  readonly correct: boolean;
}

/**
 * The confidence threshold of `unsure`: the one that best separates the queries the offline stack
 * gets wrong (which the model should see) from those it gets right (which need no call), by Youden's
 * J (share of failures sent minus share of successes sent); ties go to the threshold that calls
 * less. Without failures or without successes on val, nothing separates them and the default stays.
 */
export function fitUnsureThreshold(val: readonly ThresholdExample[]): {
  readonly threshold: number;
  readonly callRate: number;
  readonly failuresCaught: number;
} {
  const failures = val.filter((e) => !e.correct).length;
  const successes = val.length - failures;
  const rate = (threshold: number) => {
    const called = val.filter((e) => e.confidence < threshold);
    return {
      threshold,
      callRate: val.length ? called.length / val.length : 0,
      failuresCaught: called.filter((e) => !e.correct).length,
      falseCalls: called.filter((e) => e.correct).length,
    };
  };
  if (failures === 0 || successes === 0) {
    const kept = rate(defaultUnsureThreshold);
    return { threshold: kept.threshold, callRate: kept.callRate, failuresCaught: kept.failuresCaught };
  }
  // Candidate thresholds: just above each observed confidence (so that query is called), and 0.
  const candidates = [0, ...new Set(val.map((e) => Math.min(1, e.confidence + 1e-9)))].sort((a, b) => a - b);
  let best = rate(0);
  let bestJ = Number.NEGATIVE_INFINITY;
  for (const threshold of candidates) {
    const r = rate(threshold);
    const j = r.failuresCaught / failures - r.falseCalls / successes;
    if (j > bestJ + 1e-12 || (Math.abs(j - bestJ) <= 1e-12 && r.callRate < best.callRate)) {
      best = r;
      bestJ = j;
    }
  }
  return { threshold: best.threshold, callRate: best.callRate, failuresCaught: best.failuresCaught };
}

/** A plan's shape, to keep examples of different kinds: the edge sequence of its best path. */
const shape = (plan: Plan) =>
  plan.paths[0]?.hops.map((h) => relationLabel(h.edgeType, h.direction, 'metapath')).join('>') ?? '';

/**
 * Worked examples for the prompt: train queries the offline plan got right, one per plan shape
 * (different relations teach more than the same one twice), in the order given, at most `max`.
 */
export function pickFewShotExamples(candidates: readonly FewShotCandidate[], max = 3): PathPlanExample[] {
  const picked: PathPlanExample[] = [];
  const shapes = new Set<string>();
  for (const candidate of candidates) {
    if (picked.length >= max) break;
    if (!candidate.correct || candidate.plan.paths.length === 0) continue;
    const key = shape(candidate.plan);
    if (shapes.has(key)) continue;
    shapes.add(key);
    picked.push({ query: candidate.query, plan: toPathPlanOutput(candidate.plan) });
  }
  return picked;
}

/** Fits what `LlmPathPlanner` reads from its artifact: the `unsure` threshold and few-shot examples. */
export function fitLlmPathPlanner(options: {
  readonly val: readonly ThresholdExample[];
  readonly train: readonly FewShotCandidate[];
  readonly maxExamples?: number;
}): LlmPathPlannerModel {
  const fitted = fitUnsureThreshold(options.val);
  return {
    threshold: fitted.threshold,
    examples: pickFewShotExamples(options.train, options.maxExamples ?? 3),
    val: {
      queries: options.val.length,
      offlineFailures: options.val.filter((e) => !e.correct).length,
      callRate: fitted.callRate,
      failuresCaught: fitted.failuresCaught,
    },
  };
}

import { defineArtifact } from '@weft/kit';
import type { Plan } from '@weft/spec';
import type { RouteChoice } from './route-state.ts';

/** One relation of an example or of the model's answer, as the prompt writes it. */
export interface RouterRelation {
  readonly edge: string;
  readonly direction: 'in' | 'out';
  /** A second step (radius 2). */
  readonly next?: { readonly edge: string; readonly direction: 'in' | 'out' };
}

/** The router's answer for a question, as the LLM router's prompt shows it. */
export interface RouterAction {
  readonly module: 'text' | 'hybrid' | 'graph';
  readonly entities: readonly { readonly mention: string; readonly relations: readonly RouterRelation[] }[];
}

/** A few-shot example: a train question and the action that answered it. */
export interface RouterExample {
  readonly query: string;
  readonly action: RouterAction;
}

/** How the few-shot examples are stored. */
export const routerExamplesArtifact = defineArtifact<RouterExample[]>({
  kind: 'planner-hybgrag-examples',
  version: 1,
});

/** A route choice over its base plan as the prompt's action (mentions and relations by name). */
export function routerAction(base: Plan, choice: RouteChoice): RouterAction {
  return {
    module: choice.module,
    entities: choice.entities.map((e) => ({
      mention: base.anchors[e.anchor]?.mention ?? '',
      relations: e.paths.map((steps) => ({
        edge: steps[0]!.edgeType,
        direction: steps[0]!.direction,
        ...(steps[1] ? { next: { edge: steps[1].edgeType, direction: steps[1].direction } } : {}),
      })),
    })),
  };
}

/** A train question the offline route answered right, as it will be scored. */
export interface ExampleCandidate {
  readonly query: string;
  readonly action: RouterAction;
  /** The route put a gold answer first. */
  readonly correct: boolean;
}

/**
 * Few-shot examples from train questions the offline route answered right: at most `perModule` of
 * each module, in the order given (spread them over the train split beforehand), so that the model
 * sees both when the graph helps and when it does not.
 */
export function fitRouterExamples(candidates: readonly ExampleCandidate[], perModule = 3): RouterExample[] {
  const out: RouterExample[] = [];
  const counts = new Map<string, number>();
  for (const c of candidates) {
    if (!c.correct) continue;
    const module = c.action.module;
    if ((counts.get(module) ?? 0) >= perModule) continue;
    counts.set(module, (counts.get(module) ?? 0) + 1);
    out.push({ query: c.query, action: c.action });
  }
  return out;
}

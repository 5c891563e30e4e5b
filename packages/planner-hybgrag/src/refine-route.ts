import type { CriticFeedback, Plan, SkbSchema } from '@weft/spec';
import { offlineRoute, type OfflineRouteOptions } from './offline-route.ts';
import { distinctAnchors, entityConfidence, firstReachableEntity, routeEntity } from './route-entities.ts';
import { choiceKey, feedbackSeverity, type RouteChoice, type RouteEntity } from './route-state.ts';

export interface RefineOptions extends OfflineRouteOptions {
  /** An unused mention at least this sure may be added on `missing-entity` (default 0.3). */
  readonly minAddedConfidence?: number;
  /**
   * Try every relation the schema allows from an entity after a wrong entity or intersection
   * (default false: on WordNet's val queries such ego-graphs were mostly noise).
   */
  readonly widen?: boolean;
}

interface Alternative {
  readonly choice: RouteChoice;
  readonly reason: string;
}

const text: RouteChoice = { module: 'text', entities: [] };

/** The entity a feedback item is about: by node id or mention, else the least confident one. */
function targetEntity(base: Plan, choice: RouteChoice, feedback: CriticFeedback): number {
  const { entities } = choice;
  if (feedback.entity !== undefined) {
    const wanted = feedback.entity.toLowerCase();
    const found = entities.findIndex((e) => {
      const anchor = base.anchors[e.anchor];
      const node = anchor?.candidates[e.candidate];
      return node?.id.toLowerCase() === wanted || anchor?.mention.toLowerCase() === wanted;
    });
    if (found >= 0) return found;
  }
  let weakest = 0;
  entities.forEach((e, i) => {
    if (entityConfidence(base, e) < entityConfidence(base, entities[weakest]!)) weakest = i;
  });
  return weakest;
}

function without(choice: RouteChoice, index: number): RouteChoice {
  const entities = choice.entities.filter((_, i) => i !== index);
  return entities.length === 0 ? text : { ...choice, entities };
}

function replaced(choice: RouteChoice, index: number, entity: RouteEntity): RouteChoice {
  return { ...choice, entities: choice.entities.map((e, i) => (i === index ? entity : e)) };
}

/** What to try for one feedback item, most promising first. */
function alternatives(
  base: Plan,
  schema: SkbSchema,
  choice: RouteChoice,
  feedback: CriticFeedback,
  options: RefineOptions,
): Alternative[] {
  const out: Alternative[] = [];
  const structural = options.structuralModule ?? 'hybrid';
  switch (feedback.kind) {
    case 'no-entity':
      out.push({ choice: text, reason: 'no usable entity: text module' });
      break;
    case 'wrong-module': {
      if (choice.module === 'text') {
        // The critic says the graph matters: route on the linked mentions even below the usual bar.
        const hybrid = offlineRoute(base, schema, { ...options, minPlanConfidence: 0 });
        if (hybrid.choice.module !== 'text')
          out.push({ choice: hybrid.choice, reason: `${structural} module instead of text` });
      } else out.push({ choice: text, reason: 'text module instead of the ego-graphs' });
      break;
    }
    case 'no-intersection':
    case 'incorrect-intersection': {
      if (choice.entities.length > 1) {
        const index = targetEntity(base, choice, { ...feedback, entity: undefined } as CriticFeedback);
        const mention = base.anchors[choice.entities[index]!.anchor]?.mention;
        out.push({ choice: without(choice, index), reason: `dropped the least sure entity "${mention}"` });
      }
      if (options.widen === true) {
        // Wider relations can make the ego-graphs meet.
        const widened = choice.entities.map(
          (e) => routeEntity(base, schema, e.anchor, e.candidate, true, options) ?? e,
        );
        out.push({ choice: { ...choice, entities: widened }, reason: 'every relation of the entities' });
      }
      if (choice.entities.length <= 1) out.push({ choice: text, reason: 'text module' });
      break;
    }
    case 'incorrect-entity': {
      const index = targetEntity(base, choice, feedback);
      const entity = choice.entities[index];
      if (!entity) {
        out.push({ choice: text, reason: 'text module' });
        break;
      }
      const mention = base.anchors[entity.anchor]?.mention;
      const next = firstReachableEntity(base, schema, entity.anchor, entity.candidate + 1, options);
      if (next) out.push({ choice: replaced(choice, index, next), reason: `next namesake of "${mention}"` });
      out.push({ choice: without(choice, index), reason: `dropped "${mention}"` });
      // Every relation of the entity comes last: an ego-graph along all of them is mostly noise.
      if (!entity.widened && options.widen === true) {
        const wide = routeEntity(base, schema, entity.anchor, entity.candidate, true, options);
        if (wide)
          out.push({ choice: replaced(choice, index, wide), reason: `every relation of "${mention}"` });
      }
      break;
    }
    case 'missing-entity': {
      const used = new Set(choice.entities.map((e) => e.anchor));
      for (const anchor of distinctAnchors(base, options.minAddedConfidence ?? 0.3)) {
        if (used.has(anchor)) continue;
        const entity = firstReachableEntity(base, schema, anchor, 0, options);
        if (!entity) continue;
        out.push({
          choice: {
            module: choice.module === 'text' ? structural : choice.module,
            entities: [...choice.entities, entity],
          },
          reason: `added "${base.anchors[anchor]!.mention}"`,
        });
        break;
      }
      break;
    }
  }
  return out;
}

/**
 * The next action after the critic's feedback on `choice`: the alternatives each feedback item
 * suggests, the most severe item first, and the first one not tried before (`tried` holds
 * `choiceKey`s). Undefined when every alternative was tried.
 */
export function refineRoute(
  base: Plan,
  schema: SkbSchema,
  choice: RouteChoice,
  feedback: readonly CriticFeedback[],
  tried: ReadonlySet<string>,
  options: RefineOptions = {},
): Alternative | undefined {
  const ordered = [...feedback].sort(
    (a, b) => (feedbackSeverity[b.kind] ?? 0) - (feedbackSeverity[a.kind] ?? 0),
  );
  for (const item of ordered) {
    for (const alternative of alternatives(base, schema, choice, item, options)) {
      if (!tried.has(choiceKey(alternative.choice)))
        return { ...alternative, reason: `after ${item.kind}: ${alternative.reason}` };
    }
  }
  return undefined;
}

// The example of README.md, run as it is written there (the README test below keeps them equal).
import { runPlannerSuite } from '@weft/conformance';
import { emptyPlan } from '@weft/kit';
import type { PlannerV1 } from '@weft/spec';

/** The smallest planner: no entities, no paths; the whole query restricts the target types. */
const typesOnly: PlannerV1 = {
  specificationVersion: 'v1',
  name: 'types-only',
  async doPlan({ query, context }) {
    context.abortSignal?.throwIfAborted();
    return emptyPlan(query, context.schema);
  },
};

// It links no entities: switch that case off.
runPlannerSuite({ name: 'types-only', linksEntities: false, create: async () => typesOnly });

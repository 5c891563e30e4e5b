import { linkingPlanner, runPlannerSuite } from '@weft/conformance';
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import { CypherPlanner } from './cypher-planner.ts';
import { validCypher } from './testing/cypher-cases.ts';

// The model answers the Nikon query to every question; where it does not fit (other queries, the
// second store's other type names) the grounded plan must still fit the store, or the offline
// plan stands.
runPlannerSuite({
  name: 'CypherPlanner (mock model)',
  prepareContext: (context) => ({
    ...context,
    languageModel: new MockLanguageModelV4({ doGenerate: textResult(validCypher) }),
  }),
  create: async () => new CypherPlanner({ fallback: linkingPlanner({ confidence: 0.1 }) }),
});

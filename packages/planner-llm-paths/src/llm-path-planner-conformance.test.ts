import { linkingPlanner, runPlannerSuite } from '@weft/conformance';
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import { LlmPathPlanner } from './llm-path-planner.ts';
import { validAnswer } from './testing/failure-cases.ts';

// The model is asked on every query and always answers the Nikon plan: on queries without Nikon,
// and on the second store (other type names), the answer cannot be grounded and the offline plan
// stands, which must fit the store as well.
runPlannerSuite({
  name: 'LlmPathPlanner (always asks a mock model)',
  prepareContext: (context) => ({
    ...context,
    languageModel: new MockLanguageModelV4({ doGenerate: textResult(validAnswer) }),
  }),
  create: async () => new LlmPathPlanner({ fallback: linkingPlanner({ confidence: 0.1 }), when: 'always' }),
});

runPlannerSuite({
  name: 'LlmPathPlanner (no model: offline)',
  create: async () => new LlmPathPlanner({ fallback: linkingPlanner({ confidence: 0.1 }) }),
});

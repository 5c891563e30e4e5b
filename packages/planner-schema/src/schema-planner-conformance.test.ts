import { runPlannerSuite } from '@weft/conformance';
import type { ArtifactStore } from '@weft/spec';
import { SchemaPlanner } from './schema-planner.ts';

/** An empty artifact store per context: each store of the suite is one that was never trained. */
function emptyArtifacts(): ArtifactStore {
  const stored = new Map<string, unknown>();
  return {
    async get<T>(name: string) {
      return stored.get(name) as T | undefined;
    },
    async put(name: string, value: unknown) {
      stored.set(name, value);
    },
  };
}

// Hand-set weights (no fitted model in the store), as on a store that was never trained.
runPlannerSuite({
  name: 'SchemaPlanner',
  prepareContext: (context) => ({ ...context, artifacts: emptyArtifacts() }),
  create: async () => new SchemaPlanner({ artifact: 'conformance.planner-schema' }),
});

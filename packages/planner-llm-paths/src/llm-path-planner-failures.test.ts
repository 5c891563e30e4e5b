import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkingPlanner, storeContext } from '@weft/conformance';
import { toySkb } from '@weft/core/test';
import { cassetteModel } from '@weft/llm';
import type { RetrievalContext } from '@weft/spec';
import { describe, it } from 'vitest';
import { LlmPathPlanner } from './llm-path-planner.ts';
import { type FailureCase, failureCases, type PlanOutcome } from './testing/failure-cases.ts';

// WEFT_RECORD_CASSETTES=1 re-records src/fixtures/*.jsonl from the mocks (after a prompt change
// the replays below fail with a cassette miss that says so).
const recording = process.env.WEFT_RECORD_CASSETTES === '1';
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const cassetteOf = (c: FailureCase) =>
  path.join(fixtures, `path-planner-${c.name.replace(/\W+/g, '-')}.jsonl`);

type LanguageModel = NonNullable<RetrievalContext['languageModel']>;

async function planWith(c: FailureCase, model: LanguageModel, timeoutMs = c.timeoutMs): Promise<PlanOutcome> {
  const warnings: string[] = [];
  const fallback = linkingPlanner({ confidence: 0.2 });
  const context = { ...storeContext(toySkb()), languageModel: model, warn: (m: string) => warnings.push(m) };
  const planner = new LlmPathPlanner({ fallback, when: 'always', ...(timeoutMs ? { timeoutMs } : {}) });
  const plan = await planner.doPlan({ query: c.query, feedback: [], context });
  const offline = await fallback.doPlan({ query: c.query, feedback: [], context: storeContext(toySkb()) });
  return { plan, offline, warnings };
}

describe('LlmPathPlanner on every failure mode', () => {
  for (const c of failureCases) {
    it(`${c.name}, with an AI SDK mock`, async () => {
      c.check(await planWith(c, c.model()));
    });

    it(`${c.name}, replayed from a recorded cassette without a network`, async () => {
      const cassette = cassetteOf(c);
      if (recording) {
        const recorder = cassetteModel({ model: c.model(), cassette, mode: 'record' });
        await planWith(c, recorder, c.recordTimeoutMs ?? c.timeoutMs);
      }
      c.check(await planWith(c, cassetteModel({ cassette, mode: 'replay', latency: 'recorded' })));
    });
  }
});

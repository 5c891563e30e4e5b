// The README's example (README.md shows this file from its second line on); readme.test.ts runs it.
import {
  callStructured,
  cassetteModel,
  LlmMeter,
  meterLanguageModel,
  relevanceVerdictSchema,
} from '@weft/llm';

// A recorded run, replayed: no network, no key. Record your own with
// cassetteModel({ model: await createLanguageModel('openai:gpt-4o-mini'), cassette, mode: 'record' }).
const cassette = new URL('./fixtures/readme.jsonl', import.meta.url).pathname;
const meter = new LlmMeter(3); // at most 3 calls
export const verdict = await callStructured({
  model: meterLanguageModel(cassetteModel({ cassette, mode: 'replay' }), [meter]),
  purpose: 'judge relevance',
  instructions: 'Answer with one JSON object: {"score": <0 to 10>}.',
  prompt: 'Question: "telephoto lens for birds"\nCandidate: "AF-S Nikkor 200-500mm: telephoto zoom lens"',
  schema: relevanceVerdictSchema,
  // Bad output, a timeout or an unreachable provider never throws: it is reported here.
  warn: (message) => console.warn(message),
  fallback: 'the offline order is kept',
});
console.log(verdict.ok ? verdict.value : verdict.failure, meter.snapshot());

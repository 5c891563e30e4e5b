import { emptyPlan } from '@weft/kit';
import { toySkb } from '@weft/core/test';
import type { Candidate, CriticV1, CriticVerdict, Plan, RetrievalContext } from '@weft/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchLimitedContext, expectNoOversizedBatches } from './batch-limited-context.ts';
import { checkStageAbort } from './check-stage-abort.ts';
import { criticFeedbackKinds } from './critic-feedback-kinds.ts';
import { storeContext } from './store-context.ts';
import { toyNikonPlan } from './traverser-suite.ts';

export interface CriticSuiteOptions {
  /** Shown in test names. */
  readonly name: string;
  /** Builds the critic; it will judge rounds over `context` (reference stores over the toy SKB). */
  create(context: RetrievalContext): Promise<CriticV1>;
  /** Adds what the critic needs to every context the suite builds: a language model, artifacts. */
  readonly prepareContext?: (context: RetrievalContext) => RetrievalContext;
}

const knownKinds: ReadonlySet<string> = new Set(criticFeedbackKinds);

/**
 * What is wrong with a verdict, one line per problem (empty when nothing): it accepts, or it rejects
 * with at least one feedback of a known kind, each with a message.
 */
export function verdictProblems(verdict: CriticVerdict): string[] {
  if (verdict === null || typeof verdict !== 'object') return [`the verdict is ${JSON.stringify(verdict)}`];
  if (verdict.accept === true) return [];
  if (verdict.accept !== false)
    return [`accept is ${JSON.stringify((verdict as { accept?: unknown }).accept)}, not a boolean`];
  if (!Array.isArray(verdict.feedback)) return ['a rejection without a feedback list'];
  if (verdict.feedback.length === 0) return ['a rejection must say why: at least one feedback'];
  const problems: string[] = [];
  verdict.feedback.forEach((f, i) => {
    if (!knownKinds.has(f.kind)) problems.push(`feedback[${i}]: unknown kind ${JSON.stringify(f.kind)}`);
    if (typeof f.message !== 'string' || f.message.trim() === '') problems.push(`feedback[${i}]: no message`);
    if (f.entity !== undefined && (typeof f.entity !== 'string' || f.entity === ''))
      problems.push(`feedback[${i}]: entity ${JSON.stringify(f.entity)} is not a non-empty string`);
  });
  return problems;
}

function candidate(id: string, type: string, score: number, via: 'structure' | 'text'): Candidate {
  const hops =
    via === 'structure'
      ? [
          { node: 'b:nikon', nodeType: 'brand', via: 'anchor' as const },
          { node: id, nodeType: type, edgeType: 'made_by', direction: 'in' as const, via },
        ]
      : [{ node: id, nodeType: type, textScore: score, via }];
  return {
    id,
    type,
    score,
    scores: { bm25: score },
    trajectories: [{ hops, path: 0 }],
    source: 'conformance',
  };
}

/** Rounds to judge: a plausible answer, answers of the wrong type, an off-topic one, nothing. */
function rounds(): {
  readonly label: string;
  readonly query: string;
  readonly plan: Plan;
  readonly candidates: Candidate[];
}[] {
  const query = 'Nikon gear for wildlife';
  const schema = toySkb().schema;
  return [
    {
      label: 'answers the plan reaches',
      query,
      plan: toyNikonPlan(),
      candidates: [
        candidate('p:d850', 'product', 3, 'structure'),
        candidate('p:nikkor', 'product', 2, 'structure'),
      ],
    },
    {
      label: 'answers of a type nobody asked for',
      query,
      plan: toyNikonPlan(),
      candidates: [candidate('b:nikon', 'brand', 2, 'text'), candidate('c:lenses', 'category', 1, 'text')],
    },
    {
      label: 'an off-topic answer and no plan',
      query: 'café street photography',
      plan: emptyPlan('café street photography', schema),
      candidates: [candidate('p:trailcam', 'product', 1, 'text')],
    },
    { label: 'no candidates', query, plan: toyNikonPlan(), candidates: [] },
  ];
}

/**
 * The `CriticV1` contract: a verdict of the known shape (accept, or reject with at least one typed
 * feedback), the same verdict for the same round, no mutation of its input, no candidates handled,
 * the abort contract, text searches within the index's batch size.
 */
export function runCriticSuite(options: CriticSuiteOptions): void {
  const prepare = options.prepareContext ?? ((context: RetrievalContext) => context);
  describe(`Critic conformance: ${options.name}`, () => {
    const context = prepare(storeContext(toySkb()));
    let critic: CriticV1;
    beforeAll(async () => {
      critic = await options.create(context);
    });
    const judge = (round: ReturnType<typeof rounds>[number], on: RetrievalContext = context, index = 0) =>
      critic.doCritique({
        query: round.query,
        plan: round.plan,
        candidates: round.candidates,
        round: index,
        context: on,
      });

    it('declares the v1 specification and a name', () => {
      expect(critic.specificationVersion).toBe('v1');
      expect(typeof critic.name).toBe('string');
      expect(critic.name.length).toBeGreaterThan(0);
    });

    it.each(rounds().map((r) => [r.label, r] as const))(
      'judges a round with %s: accept, or typed feedback',
      async (_label, round) => {
        for (const index of [0, 1]) expect(verdictProblems(await judge(round, context, index))).toEqual([]);
      },
    );

    it('gives the same verdict for the same round, without changing its input', async () => {
      for (const round of rounds()) {
        const snapshot = JSON.stringify(round);
        const first = await judge(round);
        const second = await judge(round);
        expect(second, round.label).toEqual(first);
        expect(JSON.stringify(round), `${round.label}: the input was changed`).toBe(snapshot);
      }
    });

    it.each(['before', 'during'] as const)(
      'settles when the signal aborts %s its first store call, making no LLM call after it',
      async (moment) => {
        await checkStageAbort({
          base: context,
          moment,
          run: (on) => judge(rounds()[0]!, on),
          check: (verdict) => expect(verdictProblems(verdict)).toEqual([]),
        });
      },
    );

    it('never sends the text index more queries per call than it accepts', async () => {
      const { context: limited, recording } = batchLimitedContext(context, 1);
      for (const round of rounds()) await judge(round, limited);
      expectNoOversizedBatches(recording);
    });
  });
}

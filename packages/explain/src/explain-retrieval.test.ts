import type { RetrievalResult, StageTrace } from '@weft/spec';
import { describe, expect, it } from 'vitest';
import { renderExplanation, renderModelCalls } from './explain-retrieval.ts';

const stage = (extra: Partial<StageTrace>): StageTrace => ({
  kind: 'planner',
  name: 'cypher',
  round: 0,
  startedAtMs: 0,
  durationMs: 5,
  llmCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  ...extra,
});

const result: RetrievalResult = {
  ranking: [],
  trace: {
    stack: 'focused',
    query: 'cameras made by Nikon',
    stages: [
      stage({
        llmCalls: 1,
        inputTokens: 412,
        outputTokens: 96,
        warnings: [
          "write cypher: the model's query was rejected before anything ran: CREATE is not allowed: CREATE writes; the offline plan is used",
        ],
        modelCalls: [
          {
            kind: 'language',
            purpose: 'write cypher',
            model: 'openai-compatible.chat:x',
            outcome: 'ok',
            inputTokens: 412,
            outputTokens: 96,
            durationMs: 803.21,
          },
        ],
      }),
      stage({
        kind: 'traverser',
        name: 'focused',
        modelCalls: [
          {
            kind: 'embedding',
            purpose: 'embed 1 text',
            model: 'local:tfidf',
            outcome: 'ok',
            inputTokens: 0,
            outputTokens: 0,
            durationMs: 1,
          },
        ],
      }),
      stage({
        kind: 'reranker',
        name: 'llm-listwise',
        warnings: [
          'rank candidates: the model is unreachable at http://127.0.0.1:9/v1/chat/completions (ECONNREFUSED); the offline ranking is kept for what was not ranked yet',
        ],
        modelCalls: [
          {
            kind: 'language',
            purpose: 'rank candidates',
            model: 'openai-compatible.chat:x',
            outcome: 'error',
            message: 'Cannot connect to API',
            inputTokens: 0,
            outputTokens: 0,
            durationMs: 2,
          },
          {
            kind: 'language',
            purpose: 'rank candidates',
            model: 'openai-compatible.chat:x',
            outcome: 'budget-exceeded',
            message: 'LLM-call budget of 2 per query exhausted',
            inputTokens: 0,
            outputTokens: 0,
            durationMs: 0,
          },
        ],
      }),
    ],
    plan: {
      query: 'cameras made by Nikon',
      targetTypes: [],
      anchors: [],
      paths: [],
      variables: [],
      triplets: [],
      restriction: 'cameras',
      confidence: 0.7,
      cypher: 'MATCH (p:product) RETURN p',
      raw: '```cypher\nMATCH (p:product) RETURN p\n```',
    },
    rounds: 1,
    feedback: [],
    llmCalls: 1,
    inputTokens: 412,
    outputTokens: 96,
    durationMs: 900,
  },
};

describe('explaining model calls', () => {
  it('lists each call with its stage, purpose, outcome, tokens, time and model', () => {
    expect(renderModelCalls(result)).toEqual([
      "planner cypher: write cypher → reply unusable: the model's query was rejected before anything ran: CREATE is not allowed: CREATE writes; the offline plan is used (412 + 96 tokens, 803.2 ms, openai-compatible.chat:x)",
      'traverser focused: 1 embedding call (ok, local:tfidf)',
      'reranker llm-listwise: rank candidates → error: Cannot connect to API (0 + 0 tokens, 2 ms, openai-compatible.chat:x)',
      'reranker llm-listwise: rank candidates → budget-exceeded: LLM-call budget of 2 per query exhausted (0 ms, openai-compatible.chat:x)',
    ]);
  });

  it('puts them, the per-stage tokens, the Cypher and the fallbacks into the explanation', () => {
    const text = renderExplanation(result, new Map());
    expect(text).toContain('Stages (1 round, 900 ms, 1 LLM call (412 + 96 tokens)):');
    expect(text).toContain('  planner cypher: 5 ms, 1 LLM call (412 + 96 tokens)');
    expect(text).toContain('LLM calls:\n  planner cypher: write cypher → reply unusable: ');
    expect(text).not.toContain('write cypher → ok');
    expect(text).toContain(
      '  cypher: MATCH (p:product) RETURN p\n  raw: ```cypher MATCH (p:product) RETURN p ```',
    );
    expect(text).toMatch(/Warnings:\n {2}planner cypher: write cypher: .*rejected before anything ran/);
  });

  it('says "ok" only for replies the stage used: a repaired plan is ok, a fallback is not', () => {
    const call = {
      kind: 'language' as const,
      purpose: 'plan paths',
      model: 'm',
      outcome: 'ok' as const,
      inputTokens: 1,
      outputTokens: 2,
      durationMs: 3,
    };
    const calls = (warnings: string[], modelCalls = [call]): RetrievalResult => ({
      ...result,
      trace: { ...result.trace, stages: [stage({ name: 'llm-paths', warnings, modelCalls })] },
    });
    expect(renderModelCalls(calls(["plan paths: the model's plan was repaired: x renamed"]))).toEqual([
      'planner llm-paths: plan paths → ok (1 + 2 tokens, 3 ms, m)',
    ]);
    expect(
      renderModelCalls(calls(['plan paths: the answer is not JSON (xq7 ##); the offline plan is used'])),
    ).toEqual([
      'planner llm-paths: plan paths → reply unusable: the answer is not JSON (xq7 ##); the offline plan is used (1 + 2 tokens, 3 ms, m)',
    ]);
    const judged = renderModelCalls(
      calls(['plan paths: 1 answers unusable (not a number); those keep their order'], [call, call]),
    );
    expect(judged).toHaveLength(2);
    expect(judged[0]).toContain('plan paths → replied, some replies unusable: 1 answers unusable');
  });

  it('shows no LLM section for a retrieval without language-model calls', () => {
    const offline: RetrievalResult = {
      ...result,
      trace: { ...result.trace, stages: [result.trace.stages[1]!], llmCalls: 0 },
    };
    expect(renderExplanation(offline, new Map())).not.toContain('LLM calls:');
  });
});

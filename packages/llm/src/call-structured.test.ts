import { LlmMeter, meterLanguageModel } from '@weft/core';
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callStructured } from './call-structured.ts';

const schema = z.object({ types: z.array(z.string()).min(1) });
const answering = (text: string) => new MockLanguageModelV4({ doGenerate: textResult(text) });
const failing = (error: unknown) =>
  new MockLanguageModelV4({
    doGenerate: async () => {
      throw error;
    },
  });

async function ask(
  model: MockLanguageModelV4 | ReturnType<typeof meterLanguageModel> | undefined,
  extra = {},
) {
  const warnings: string[] = [];
  const result = await callStructured({
    model,
    purpose: 'pick types',
    prompt: 'Which types?',
    schema,
    warn: (message) => warnings.push(message),
    fallback: 'the offline plan is used',
    ...extra,
  });
  return { result, warnings };
}

describe('callStructured', () => {
  it('returns the validated value, with the repairs it took', async () => {
    const { result, warnings } = await ask(answering('Sure!\n```json\n{"types": ["product"]}\n```'));
    expect(result).toMatchObject({
      ok: true,
      value: { types: ['product'] },
      repairs: ['code fence removed'],
    });
    expect(warnings).toEqual([]);
  });

  it('applies the stage’s repair before the schema check', async () => {
    const { result } = await ask(answering('{"plan": {"types": "product"}}'), {
      repair: (value: { plan?: { types?: unknown } }) => ({
        value: { types: [value.plan?.types].flat() },
        repairs: ['unwrapped plan'],
      }),
    });
    expect(result).toMatchObject({ ok: true, value: { types: ['product'] }, repairs: ['unwrapped plan'] });
  });

  // Every failure comes back as a reason, is reported with the fallback, and is never thrown.
  it.each([
    ['invalid JSON', () => answering('{"types": [product}'), 'invalid-json', /not valid JSON/],
    ['prose only', () => answering('Follow made_by from the brand.'), 'invalid-json', /no JSON object/],
    ['wrong shape', () => answering('{"types": []}'), 'invalid-output', /types: .*>=1|types: Too small/],
    ['a refusal in words', () => answering("I'm sorry, I can't help with that."), 'refusal', /refused/],
    [
      'a content filter',
      () =>
        new MockLanguageModelV4({
          doGenerate: async () => ({
            ...textResult(''),
            finishReason: { unified: 'content-filter', raw: 'content_filter' },
          }),
        }),
      'refusal',
      /content filter/,
    ],
    ['an empty answer', () => answering('  '), 'empty', /answered nothing/],
    [
      'a provider error',
      () => failing(Object.assign(new Error('Internal Server Error'), { statusCode: 500 })),
      'provider-error',
      /HTTP 500/,
    ],
    [
      'an unreachable provider',
      () =>
        failing(
          Object.assign(new Error('Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9'), {
            url: 'http://127.0.0.1:9/v1/chat/completions',
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
          }),
        ),
      'unreachable',
      /unreachable at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions \(ECONNREFUSED\)/,
    ],
    ['no model', () => undefined, 'no-model', /no language model/],
  ])('%s → %s', async (_label, model, reason, message) => {
    const { result, warnings } = await ask(model());
    expect(result).toMatchObject({ ok: false, failure: { reason, message: expect.stringMatching(message) } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^pick types: .+; the offline plan is used$/);
  });

  it('honours the time limit even when the model ignores the abort signal', async () => {
    let release: () => void = () => {};
    const slow = new MockLanguageModelV4({
      doGenerate: () =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(textResult('{"types": ["product"]}')), 60_000);
          release = () => {
            clearTimeout(timer);
            resolve(textResult('{}'));
          };
        }),
    });
    // Were the limit not enforced, the call would wait a minute and the test time out.
    const { result } = await ask(slow, { timeoutMs: 50 });
    release();
    expect(result).toMatchObject({ ok: false, failure: { reason: 'timeout', message: /within 50 ms/ } });
  });

  it('makes no call once the signal has aborted', async () => {
    const model = answering('{"types": ["product"]}');
    const { result } = await ask(model, { abortSignal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'aborted' } });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('reports a spent budget as such, without calling the model', async () => {
    const inner = answering('{"types": ["product"]}');
    const { result } = await ask(meterLanguageModel(inner, [new LlmMeter(0)]));
    expect(result).toMatchObject({ ok: false, failure: { reason: 'budget' } });
    expect(inner.doGenerateCalls).toHaveLength(0);
  });

  it('asks with the purpose in providerOptions and temperature 0', async () => {
    const model = answering('{"types": ["product"]}');
    await ask(model, { instructions: 'Be brief.' });
    const call = model.doGenerateCalls[0]!;
    expect(call.providerOptions).toMatchObject({ weft: { purpose: 'pick types' } });
    expect(call.temperature).toBe(0);
    expect(call.prompt[0]).toMatchObject({ role: 'system', content: 'Be brief.' });
  });
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MockLanguageModelV4, textResult } from '@weft/core/test';
import { generateText, simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callText } from './call-text.ts';
import { readCassette } from './cassette.ts';
import { recordReplayMiddleware, replayLanguageModel } from './record-replay-middleware.ts';

let folder = '';
let cassette = '';
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'weft-cassette-'));
  cassette = path.join(folder, 'calls.jsonl');
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const recording = (model: MockLanguageModelV4, mode: 'record' | 'auto' = 'record') =>
  wrapLanguageModel({ model, middleware: recordReplayMiddleware({ cassette, mode }) });

describe('recordReplayMiddleware', () => {
  it('records request and response as JSONL and replays them with no model behind', async () => {
    const model = new MockLanguageModelV4({ doGenerate: textResult('{"a": 1}', { input: 12, output: 3 }) });
    const recorded = await generateText({
      model: recording(model),
      prompt: 'first',
      providerOptions: { weft: { purpose: 'plan paths' } },
    });
    await generateText({ model: recording(model, 'auto'), prompt: 'second' });
    const entries = await readCassette(cassette);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      model: 'mock-provider:mock-model-id',
      purpose: 'plan paths',
      request: { prompt: [{ role: 'user', content: [{ type: 'text', text: 'first' }] }] },
      response: { kind: 'generate' },
    });

    const replay = replayLanguageModel(cassette);
    const replayed = await generateText({
      model: replay,
      prompt: 'first',
      providerOptions: { weft: { purpose: 'plan paths' } },
    });
    expect(replayed.text).toBe(recorded.text);
    expect(replayed.usage.inputTokens).toBe(12);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('fails a replay of an unrecorded request with a cassette miss that says what to do', async () => {
    await writeFile(cassette, '');
    const replay = replayLanguageModel(cassette);
    await expect(
      generateText({
        model: replay,
        prompt: 'never recorded',
        maxRetries: 0,
        providerOptions: { weft: { purpose: 'rerank' } },
      }),
    ).rejects.toMatchObject({
      code: 'WEFT_NOT_FOUND',
      message: expect.stringMatching(
        /^cassette miss: .*calls\.jsonl has no recorded answer for this "rerank" request .*prompt "never recorded".*record it with mode "record" or "auto"$/,
      ),
    });
  });

  it('records provider failures and replays them as the same kind of failure', async () => {
    const refused = Object.assign(new Error('Cannot connect to API: connect ECONNREFUSED'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw refused;
      },
    });
    const live = await callText({ model: recording(model), purpose: 'plan', prompt: 'q' });
    const replayed = await callText({ model: replayLanguageModel(cassette), purpose: 'plan', prompt: 'q' });
    expect(live).toMatchObject({ ok: false, failure: { reason: 'unreachable' } });
    expect(replayed).toEqual(live);
  });

  it('does not record a timeout: the model never answered', async () => {
    const slow = new MockLanguageModelV4({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal!.reason));
        }),
    });
    const result = await callText({ model: recording(slow), purpose: 'plan', prompt: 'q', timeoutMs: 20 });
    expect(result).toMatchObject({ ok: false, failure: { reason: 'timeout' } });
    expect(await readCassette(cassette)).toEqual([]);
  });

  it('records streams and replays them part by part', async () => {
    const usage = textResult('').usage;
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'response-metadata', id: 'r1', timestamp: new Date(0), modelId: 'm' },
            { type: 'text-start', id: '1' },
            { type: 'text-delta', id: '1', delta: 'MATCH (n) ' },
            { type: 'text-delta', id: '1', delta: 'RETURN n' },
            { type: 'text-end', id: '1' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      }),
    });
    const live = streamText({ model: recording(model), prompt: 'cypher please' });
    expect(await live.text).toBe('MATCH (n) RETURN n');
    const replayed = streamText({ model: replayLanguageModel(cassette), prompt: 'cypher please' });
    expect(await replayed.text).toBe('MATCH (n) RETURN n');
    const line = JSON.parse((await readFile(cassette, 'utf8')).trim());
    expect(line.response.kind).toBe('stream');
  });

  it('starts a fresh cassette in record mode and answers repeated requests in recorded order', async () => {
    await writeFile(cassette, '{"key":"old","response":{"kind":"generate","result":{}}}\n');
    const model = recording(new MockLanguageModelV4({ doGenerate: [textResult('one'), textResult('two')] }));
    await generateText({ model, prompt: 'same' });
    await generateText({ model, prompt: 'same' });
    const entries = await readCassette(cassette);
    expect(entries.map((e) => e.key).includes('old')).toBe(false);
    const replay = replayLanguageModel(cassette);
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await generateText({ model: replay, prompt: 'same' })).text);
    expect(texts).toEqual(['one', 'two', 'two']);
  });

  it('names the line of a malformed cassette', async () => {
    await writeFile(cassette, '{"key":"a","response":{"kind":"generate","result":{}}}\nnot json\n');
    await expect(readCassette(cassette)).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('line 2'),
    });
  });
});

describe('replaying latency', () => {
  it('takes as long as the recorded call with latency "recorded", so a stage time limit replays', async () => {
    const slow = new MockLanguageModelV4({
      doGenerate: () => new Promise((resolve) => setTimeout(() => resolve(textResult('late')), 600)),
    });
    const live = await callText({ model: recording(slow), purpose: 'plan', prompt: 'q', timeoutMs: 10_000 });
    expect(live).toMatchObject({ ok: true, text: 'late' });
    expect((await readCassette(cassette))[0]!.durationMs).toBeGreaterThan(0);
    // Replayed at once by default; with the recorded latency, a limit shorter than it expires.
    const fast = await callText({
      model: replayLanguageModel(cassette),
      purpose: 'plan',
      prompt: 'q',
      timeoutMs: 10_000,
    });
    expect(fast).toMatchObject({ ok: true, text: 'late' });
    const timed = await callText({
      model: replayLanguageModel(cassette, { latency: 'recorded' }),
      purpose: 'plan',
      prompt: 'q',
      timeoutMs: 100,
    });
    expect(timed).toMatchObject({ ok: false, failure: { reason: 'timeout' } });
  });
});

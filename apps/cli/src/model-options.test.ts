import { MockLanguageModelV4 } from '@weft/core/test';
import { describe, expect, it } from 'vitest';
import { UsageError } from './command.ts';
import {
  hasModel,
  llmStackNames,
  modelOptionDetails,
  parseModelOptions,
  stackCreateOptions,
  withCallTimeout,
} from './model-options.ts';

const args = (values: Record<string, string>) => ({ positionals: [], values });

describe('model options', () => {
  it('reads --model, falling back on WEFT_MODEL, and resolves cassette paths against the working folder', () => {
    expect(parseModelOptions(args({}), { cwd: '/w', env: { WEFT_MODEL: 'ollama:llama3.1' } })).toEqual({
      spec: 'ollama:llama3.1',
    });
    expect(
      parseModelOptions(
        args({ model: 'openai:gpt-4o-mini', 'llm-when': 'always', 'llm-budget': '3', record: 'c.jsonl' }),
        {
          cwd: '/w',
          env: { WEFT_MODEL: 'ollama:x' },
        },
      ),
    ).toEqual({ spec: 'openai:gpt-4o-mini', llmWhen: 'always', llmBudget: 3, record: '/w/c.jsonl' });
    expect(hasModel(parseModelOptions(args({}), { cwd: '/w', env: {} }))).toBe(false);
    expect(hasModel(parseModelOptions(args({ replay: 'c.jsonl' }), { cwd: '/w', env: {} }))).toBe(true);
  });

  it.each([
    [{ 'llm-when': 'sometimes' }, /--llm-when must be unsure, always, never/],
    [{ 'llm-budget': '-1' }, /--llm-budget must be an integer ≥ 0/],
    [{ record: 'a.jsonl' }, /--record needs a model/],
    [{ model: 'openai:x', record: 'a', replay: 'b' }, /exclude each other/],
    [{ 'model-timeout': '0' }, /--model-timeout must be an integer from 1 to 600,000, got "0"/],
    [{ 'model-timeout': '1e9' }, /--model-timeout must be an integer from 1 to 600,000/],
    [{ 'model-timeout': 'soon' }, /--model-timeout must be an integer/],
  ])('refuses %j as bad usage', (values, message) => {
    expect(() => parseModelOptions(args(values as Record<string, string>), { cwd: '/w', env: {} })).toThrow(
      UsageError,
    );
    expect(() => parseModelOptions(args(values as Record<string, string>), { cwd: '/w', env: {} })).toThrow(
      message,
    );
  });

  it('makes the model the spec names, and refuses one without its key once, up front', async () => {
    const made = await stackCreateOptions({
      spec: 'openai-compatible:http://127.0.0.1:9/v1:tiny',
      llmWhen: 'never',
    });
    expect(made.languageModel?.modelId).toBe('tiny');
    expect(made.llmWhen).toBe('never');
    expect(await stackCreateOptions({})).toEqual({});
    // --model-timeout reaches the LLM stages too (their own limit was a fixed 30 s).
    expect(await stackCreateOptions({ timeoutMs: 90_000 })).toEqual({ modelTimeoutMs: 90_000 });
    await expect(
      stackCreateOptions({ spec: 'anthropic:claude-haiku-4-5' }, { env: {} }),
    ).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
  });

  it('--help names every stack and command that uses --model, and --model-timeout', () => {
    const help = modelOptionDetails.join('\n');
    for (const stack of [...llmStackNames, 'ask', 'query', 'eval', 'demo', 'serve', 'mcp'])
      expect(help).toContain(stack);
    expect([...llmStackNames].sort()).toEqual(['focused', 'hybgrag', 'kar', 'mixrag', 'mor']);
    expect(help).not.toContain('(mor, focused)');
    expect(help).toContain('--model-timeout MS');
  });

  it('--model-timeout: read in ms, and a call past it ends with a TimeoutError even if the provider never answers', async () => {
    expect(parseModelOptions(args({ 'model-timeout': '120000' }), { cwd: '/w', env: {} })).toEqual({
      timeoutMs: 120_000,
    });
    // A provider that never settles and ignores the abort signal.
    const stuck = new MockLanguageModelV4({ doGenerate: () => new Promise(() => {}) });
    const limited = withCallTimeout(stuck, 1);
    await expect(limited.doGenerate({ prompt: [] })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(stuck.doGenerateCalls[0]!.abortSignal).toBeInstanceOf(AbortSignal);
    // An abort from the caller still passes through.
    const caller = new AbortController();
    caller.abort(new Error('stopped by the caller'));
    await expect(limited.doGenerate({ prompt: [], abortSignal: caller.signal })).rejects.toThrow(
      'stopped by the caller',
    );
    expect(limited.modelId).toBe(stuck.modelId);
  });
});

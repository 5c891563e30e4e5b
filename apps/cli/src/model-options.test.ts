import { describe, expect, it } from 'vitest';
import { UsageError } from './command.ts';
import { hasModel, parseModelOptions, stackCreateOptions } from './model-options.ts';

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
    await expect(
      stackCreateOptions({ spec: 'anthropic:claude-haiku-4-5' }, { env: {} }),
    ).rejects.toMatchObject({
      code: 'WEFT_BAD_INPUT',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
  });
});

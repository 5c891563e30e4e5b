import path from 'node:path';
import {
  cassetteModel,
  createLanguageModel,
  isLlmWhen,
  limitModelCalls,
  type LlmWhen,
  llmWhenValues,
  modelSpecSyntax,
} from '@weft/llm';
import type { RetrievalContext } from '@weft/spec';
import type { StackCreateOptions } from '@weft/stacks';
import { builtinStacks } from '@weft/stacks/registry';
import { type CommandOptions, integerOption, type ParsedArgs, stringOption, UsageError } from './command.ts';

/**
 * The language-model options every command that retrieves takes (`query`, `eval`, `demo`), parsed
 * in one place so that they read the same everywhere.
 */
export const modelOptions: CommandOptions = {
  model: { type: 'string' },
  'llm-when': { type: 'string' },
  'llm-budget': { type: 'string' },
  record: { type: 'string' },
  replay: { type: 'string' },
  'model-timeout': { type: 'string' },
};

/**
 * Built-in stacks whose stages ask the language model of `--model` (each also runs offline without
 * one), from the listing of `@weft/stacks`.
 */
export const llmStackNames: readonly string[] = builtinStacks()
  .filter((stack) => stack.llm)
  .map((stack) => stack.name);

/** Default and largest `--model-timeout`, in milliseconds. */
export const defaultModelTimeoutMs = 30_000;
const maxModelTimeoutMs = 600_000;

/** Their `--help` lines. */
export const modelOptionDetails: readonly string[] = [
  `--model SPEC      language model (default $WEFT_MODEL) of the LLM stacks ${llmStackNames.join(', ')},`,
  "                  and of weft ask's answer (ask, query, eval, demo, serve, mcp take it):",
  `                  ${modelSpecSyntax}`,
  '                  (keys from OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_API_KEY)',
  `--llm-when W      when LLM planners ask the model: ${llmWhenValues.join(', ')} (default: mor unsure,`,
  '                  focused always); unsure asks only below the confidence threshold learned on val',
  "--llm-budget N    LLM calls allowed per query (default: the stack's: mor 1, focused 2)",
  '--record FILE     record every model call into a JSONL cassette (needs --model)',
  '--replay FILE     answer every model call from a cassette: no network, no --model needed',
  `--model-timeout MS  give up on one model call after MS ms (default ${defaultModelTimeoutMs}, at most ${maxModelTimeoutMs});`,
  '                  the stage then falls back as when the model fails (every LLM stage and weft ask)',
];

/** What the options say, before any model is made. */
export interface ModelSettings {
  readonly spec?: string;
  readonly llmWhen?: LlmWhen;
  readonly llmBudget?: number;
  readonly record?: string;
  readonly replay?: string;
  /** Milliseconds one model call may take (`--model-timeout`, default 30 000). */
  readonly timeoutMs?: number;
}

/** Reads the options (and `WEFT_MODEL`); bad values are usage errors (exit 2). */
export function parseModelOptions(
  args: ParsedArgs,
  options: { readonly cwd: string; readonly env?: Readonly<Record<string, string | undefined>> },
): ModelSettings {
  const env = options.env ?? process.env;
  const spec = stringOption(args, 'model') ?? (env.WEFT_MODEL?.trim() || undefined);
  const when = stringOption(args, 'llm-when');
  if (when !== undefined && !isLlmWhen(when))
    throw new UsageError(`--llm-when must be ${llmWhenValues.join(', ')}, got "${when}"`);
  const budget =
    stringOption(args, 'llm-budget') === undefined ? undefined : integerOption(args, 'llm-budget', 0, 0);
  const record = stringOption(args, 'record');
  const replay = stringOption(args, 'replay');
  if (record && replay) throw new UsageError('--record and --replay exclude each other');
  if (record && !spec) throw new UsageError('--record needs a model to record (--model or WEFT_MODEL)');
  const timeout =
    stringOption(args, 'model-timeout') === undefined
      ? undefined
      : integerOption(args, 'model-timeout', defaultModelTimeoutMs, 1, maxModelTimeoutMs);
  return {
    ...(spec ? { spec } : {}),
    ...(when ? { llmWhen: when } : {}),
    ...(budget === undefined ? {} : { llmBudget: budget }),
    ...(record ? { record: path.resolve(options.cwd, record) } : {}),
    ...(replay ? { replay: path.resolve(options.cwd, replay) } : {}),
    ...(timeout === undefined ? {} : { timeoutMs: timeout }),
  };
}

/** Whether the settings give the LLM stages a model at all. */
export function hasModel(settings: ModelSettings): boolean {
  return settings.spec !== undefined || settings.replay !== undefined;
}

/**
 * What `createStack` gets: the model the settings name (recorded into or replayed from a cassette
 * when asked), the LLM budget, and `llmWhen` (read by the LLM stacks). Making a model opens no
 * connection; a spec that cannot be used (unknown provider, missing API key) fails here, once.
 */
export async function stackCreateOptions(
  settings: ModelSettings,
  options: { readonly env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<StackCreateOptions & { readonly llmWhen?: LlmWhen }> {
  let languageModel: RetrievalContext['languageModel'];
  if (settings.replay) languageModel = cassetteModel({ cassette: settings.replay, mode: 'replay' });
  else if (settings.spec) {
    const model = withCallTimeout(
      await createLanguageModel(settings.spec, options.env ? { env: options.env } : {}),
      settings.timeoutMs ?? defaultModelTimeoutMs,
    );
    languageModel = settings.record
      ? cassetteModel({ model, cassette: settings.record, mode: 'record' })
      : model;
  }
  return {
    ...(languageModel ? { languageModel } : {}),
    ...(settings.llmBudget === undefined ? {} : { llmBudget: settings.llmBudget }),
    ...(settings.llmWhen ? { llmWhen: settings.llmWhen } : {}),
    // The stages' own limit too, so a longer --model-timeout is not cut at their 30 s default.
    ...(settings.timeoutMs === undefined ? {} : { modelTimeoutMs: settings.timeoutMs }),
  };
}

type LanguageModel = NonNullable<RetrievalContext['languageModel']>;

/**
 * The model with a time limit on every call (`--model-timeout`): the call's abort signal also fires
 * after `timeoutMs` (a `TimeoutError`, which the trace records as outcome `timeout`), and a provider
 * that ignores the signal is not waited for. A stream (weft ask's answer) gets the limit as a whole.
 */
export function withCallTimeout(model: LanguageModel, timeoutMs: number): LanguageModel {
  return limitModelCalls(model, (signal) => {
    const timer = AbortSignal.timeout(timeoutMs);
    return signal ? AbortSignal.any([signal, timer]) : timer;
  });
}

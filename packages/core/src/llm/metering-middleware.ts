import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type { ModelCallOutcome, ModelCallTrace } from '@weft/spec';
import { wrapLanguageModel } from 'ai';
import type { LlmMeter } from './llm-meter.ts';
import { activeMeters, unchargedMeters, whileCharging } from './meter-scope.ts';

/**
 * `providerOptions` that tell the metering (and the trace) what a call is for, e.g.
 * `generateText({ model, prompt, providerOptions: purposeOptions('plan paths') })`. Providers read
 * only their own key, so the `weft` key never reaches a request.
 */
export function purposeOptions(purpose: string): SharedV4ProviderOptions {
  return { weft: { purpose } };
}

function purposeOf(params: LanguageModelV4CallOptions): string | undefined {
  const purpose = params.providerOptions?.weft?.purpose;
  return typeof purpose === 'string' ? purpose : undefined;
}

/** Why a model call ended without an answer, in the terms of the trace. */
export function callFailure(
  error: unknown,
  signal?: AbortSignal,
): { readonly outcome: ModelCallOutcome; readonly message: string } {
  const named = (value: unknown, name: string) =>
    typeof value === 'object' && value !== null && (value as { name?: unknown }).name === name;
  const message = error instanceof Error ? error.message : String(error);
  if (named(error, 'TimeoutError') || (signal?.aborted && named(signal.reason, 'TimeoutError')))
    return { outcome: 'timeout', message };
  if (named(error, 'AbortError') || signal?.aborted) return { outcome: 'aborted', message };
  return { outcome: 'error', message };
}

function finished(finishReason: LanguageModelV4FinishReason | undefined): {
  outcome: ModelCallOutcome;
  message?: string;
} {
  if (finishReason?.unified === 'content-filter')
    return { outcome: 'refused', message: `finish reason ${finishReason.raw ?? 'content-filter'}` };
  if (finishReason && finishReason.unified !== 'stop')
    return { outcome: 'ok', message: `finish reason ${finishReason.raw ?? finishReason.unified}` };
  return { outcome: 'ok' };
}

export interface MeteringMiddlewareOptions {
  /**
   * The meters to charge. Default: those of the pipeline stage the call is made in (see
   * `withMeters`), so a model a stage brings itself is counted against the stack's budget too.
   */
  readonly meters?: readonly LlmMeter[];
}

/**
 * AI SDK middleware that charges every language-model call to meters before it is made (throwing
 * `WEFT_LLM_BUDGET_EXCEEDED` when a budget is spent), then records its tokens, latency, purpose and
 * outcome. A call already being charged by an enclosing metered model is not charged twice.
 */
export function meteringMiddleware(options: MeteringMiddlewareOptions = {}): LanguageModelV4Middleware {
  const begin = (params: LanguageModelV4CallOptions, model: LanguageModelV4) => {
    const meters = unchargedMeters(options.meters ?? activeMeters());
    const base = {
      kind: 'language' as const,
      ...(purposeOf(params) ? { purpose: purposeOf(params)! } : {}),
      model: `${model.provider}:${model.modelId}`,
    };
    const log = (entry: Omit<ModelCallTrace, 'kind' | 'model' | 'purpose'>) => {
      for (const meter of meters) meter.logCall({ ...base, ...entry });
    };
    try {
      for (const [i, meter] of meters.entries()) {
        try {
          meter.charge();
        } catch (error) {
          // Meters charged before the one that refused give their call back: none was made.
          for (const charged of meters.slice(0, i)) charged.calls -= 1;
          throw error;
        }
      }
    } catch (error) {
      log({
        outcome: 'budget-exceeded',
        inputTokens: 0,
        outputTokens: 0,
        durationMs: 0,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    const started = performance.now();
    const usage = (value: LanguageModelV4Usage | undefined) => {
      for (const meter of meters) meter.record(value);
    };
    return {
      meters,
      succeed(
        value: LanguageModelV4Usage | undefined,
        finishReason: LanguageModelV4FinishReason | undefined,
      ) {
        usage(value);
        log({
          ...finished(finishReason),
          inputTokens: value?.inputTokens.total ?? 0,
          outputTokens: value?.outputTokens.total ?? 0,
          durationMs: performance.now() - started,
        });
      },
      fail(error: unknown) {
        log({
          ...callFailure(error, params.abortSignal),
          inputTokens: 0,
          outputTokens: 0,
          durationMs: performance.now() - started,
        });
      },
    };
  };

  return {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate, params, model }) {
      const call = begin(params, model);
      try {
        const result = await whileCharging(call.meters, doGenerate);
        call.succeed(result.usage, result.finishReason);
        return result;
      } catch (error) {
        call.fail(error);
        throw error;
      }
    },
    async wrapStream({ doStream, params, model }) {
      const call = begin(params, model);
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await whileCharging(call.meters, doStream);
      } catch (error) {
        call.fail(error);
        throw error;
      }
      let settled = false;
      const counted = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (!settled && part.type === 'finish') {
              settled = true;
              call.succeed(part.usage, part.finishReason);
            } else if (!settled && part.type === 'error') {
              settled = true;
              call.fail(part.error);
            }
            controller.enqueue(part);
          },
          flush() {
            if (!settled) call.succeed(undefined, undefined);
          },
        }),
      );
      return { ...result, stream: counted };
    },
  };
}

/**
 * A language model that charges every call to `meters` before delegating (`meteringMiddleware`
 * through `wrapLanguageModel`). Stages receive this instead of the configured model, so a new stage is
 * metered and budgeted without doing anything.
 */
export function meterLanguageModel(model: LanguageModelV4, meters: readonly LlmMeter[]): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: meteringMiddleware({ meters }) });
}

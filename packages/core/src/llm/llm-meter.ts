import type { LanguageModelV4, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { WeftError } from '../errors/weft-error.ts';

/** Counts LLM calls and tokens of one retrieval and enforces the stack's call budget. */
export class LlmMeter {
  readonly budget: number;
  calls = 0;
  inputTokens = 0;
  outputTokens = 0;

  constructor(budget: number = Number.POSITIVE_INFINITY) {
    this.budget = budget;
  }

  /** Called before each LLM call; throws once the budget is spent. */
  charge(): void {
    if (this.calls >= this.budget) {
      throw new WeftError({
        code: 'WEFT_LLM_BUDGET_EXCEEDED',
        message: `LLM-call budget of ${this.budget} per query exhausted`,
        details: { budget: this.budget },
      });
    }
    this.calls += 1;
  }

  record(usage: LanguageModelV4Usage | undefined): void {
    this.inputTokens += usage?.inputTokens.total ?? 0;
    this.outputTokens += usage?.outputTokens.total ?? 0;
  }

  snapshot(): { calls: number; inputTokens: number; outputTokens: number } {
    return { calls: this.calls, inputTokens: this.inputTokens, outputTokens: this.outputTokens };
  }
}

/**
 * A language model that charges every call to `meters` (the stack's and the stage's) before
 * delegating. Stages receive this instead of the configured model, so a new stage is metered and
 * budgeted without doing anything.
 */
export function meterLanguageModel(model: LanguageModelV4, meters: readonly LlmMeter[]): LanguageModelV4 {
  const charge = () => {
    for (const meter of meters) meter.charge();
  };
  const record = (usage: LanguageModelV4Usage | undefined) => {
    for (const meter of meters) meter.record(usage);
  };
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      charge();
      const result = await model.doGenerate(options);
      record(result.usage);
      return result;
    },
    async doStream(options) {
      charge();
      const result = await model.doStream(options);
      const counted = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === 'finish') record(part.usage);
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream: counted };
    },
  };
}

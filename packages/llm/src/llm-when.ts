/**
 * When an LLM stage calls its model (`--llm-when` of the CLI):
 * - `unsure` (default): only when the offline planner's confidence is below a threshold learned on
 *   val (`defaultUnsureThreshold` before training), or a critic sent feedback;
 * - `always`: on every query;
 * - `never`: never (the offline plan, as if no model were given).
 */
export type LlmWhen = 'unsure' | 'always' | 'never';

export const llmWhenValues: readonly LlmWhen[] = ['unsure', 'always', 'never'];

/**
 * The confidence below which `unsure` calls the model when no threshold was learned: the offline
 * planner's confidence is a calibrated probability that its best path is right, so below 0.5 the
 * model is more likely to be needed than not.
 */
export const defaultUnsureThreshold = 0.5;

export function isLlmWhen(value: unknown): value is LlmWhen {
  return typeof value === 'string' && (llmWhenValues as readonly string[]).includes(value);
}

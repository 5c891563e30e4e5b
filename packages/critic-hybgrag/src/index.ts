export { LlmCritic, type LlmCriticOptions } from './llm-critic.ts';
export { reasoningPaths } from './reasoning-paths.ts';
export { type CriticRule, type HybgragVerdict, RuleCritic, type RuleCriticOptions } from './rule-critic.ts';

export { type ComposeOptions, composeExpansion } from './compose-expansion.ts';
export {
  type GatherOptions,
  gatherKnowledge,
  type KarEntity,
  type KarKnowledge,
  type KarNeighbour,
} from './gather-knowledge.ts';
export { KarExpander, type KarExpanderOptions } from './kar-expander.ts';
export type { KarExpansions } from './kar-prompt.ts';
export { LlmKarExpander, type LlmKarExpanderOptions } from './llm-kar-expander.ts';

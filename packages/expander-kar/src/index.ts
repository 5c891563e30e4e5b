export { bestSentence, type ComposeOptions, composeExpansion } from './compose-expansion.ts';
export {
  type GatherOptions,
  gatherKnowledge,
  type KarEntity,
  type KarKnowledge,
  type KarNeighbour,
  relationPhrase,
} from './gather-knowledge.ts';
export { KarExpander, type KarExpanderOptions } from './kar-expander.ts';
export {
  documentTriples,
  type KarExpansions,
  karExpansionsSchema,
  karInstructions,
  karPrompt,
  repairExpansions,
} from './kar-prompt.ts';
export { LlmKarExpander, type LlmKarExpanderOptions } from './llm-kar-expander.ts';

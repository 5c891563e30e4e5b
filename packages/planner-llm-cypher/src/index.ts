export type { CypherExample } from './cypher-prompt.ts';
export { CypherPlanner, type CypherPlannerOptions } from './cypher-planner.ts';
export { CypherSyntaxError, type CypherToken } from './cypher-tokens.ts';
export { type ExtractedCypher, extractCypher } from './extract-cypher.ts';
export { type GroundedCypher, groundCypher } from './ground-cypher.ts';
export {
  type CypherCondition,
  type CypherLiteral,
  type CypherNode,
  type CypherRelationship,
  type ParsedCypher,
  parseCypher,
} from './parse-cypher.ts';

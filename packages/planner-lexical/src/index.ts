export {
  LexicalPlanner,
  lexicalPlannerArtifact,
  type LexicalPlannerModel,
  type LexicalPlannerOptions,
  noRelation,
  relationLabel,
} from './lexical-planner.ts';
export {
  type PlannerExample,
  type TrainLexicalPlannerOptions,
  trainLexicalPlanner,
} from './train-lexical-planner.ts';

export {
  LexicalPlanner,
  lexicalPlannerArtifact,
  type LexicalPlannerModel,
  type LexicalPlannerOptions,
  relationLabel,
} from './lexical-planner.ts';
export {
  type PlannerExample,
  type TrainLexicalPlannerOptions,
  trainLexicalPlanner,
} from './train-lexical-planner.ts';

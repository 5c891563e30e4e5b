export {
  type GoldAnnotation,
  goldAnnotations,
  type GoldHop,
  type GoldNode,
  type GoldPath,
  type GoldPlan,
  requirementWords,
  resolveGoldPlans,
} from './gold-plans.ts';
export {
  type RelationalConstraint,
  type RelationalPartData,
  type RelationPath,
  readAnnotations,
  relationPaths,
} from './relational-part.ts';
export {
  type Corruption,
  corruptPlans,
  judgedTasks,
  noisyStages,
  type WrongStages,
  type OracleModel,
  type OracleModelOptions,
  type OracleStats,
  type OracleTask,
  oracleLanguageModel,
} from './oracle-model.ts';

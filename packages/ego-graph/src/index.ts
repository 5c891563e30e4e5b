export {
  type ActionChoice,
  type BankAction,
  type BankModule,
  describeAction,
  type EntityChoice,
  maxRadius,
  readBankAction,
  type RelationStep,
  type TopicEntity,
  writeBankAction,
} from './bank-action.ts';
export {
  type EgoGraph,
  type EgoGraphOptions,
  type EgoStep,
  egoGraphs,
  intersectEgoGraphs,
} from './ego-graphs.ts';
export { reachesFrom, schemaRelations } from './schema-relations.ts';

export { englishAnalyzer } from './english-analyzer.ts';
export {
  combinedColumn,
  type DocumentTermCounts,
  defaultNodeTable,
  documentColumn,
  type LanceNodeRecord,
  nodeDocument,
  openLanceVectorTable,
  relationsColumn,
  type TextFieldName,
  textFieldColumns,
  textFieldDescriptions,
  type VectorColumn,
  vectorTableName,
  type WriteLanceNodesOptions,
  type WriteLanceNodesResult,
  writeLanceNodes,
} from './lance-node-table.ts';
export { type LanceIndexOpenOptions, LanceTextIndex } from './lance-text-index.ts';
export {
  defaultEf,
  defaultFilterProbeFactor,
  defaultNprobes,
  filteredMaxNprobes,
  LanceVectorIndex,
  type LanceVectorIndexOpenOptions,
} from './lance-vector-index.ts';
export {
  readLanceNodes,
  type UpdateLanceNodesOptions,
  type UpdateLanceNodesResult,
  updateLanceNodes,
  textMergeRows,
  vectorMergeRows,
} from './update-lance-nodes.ts';
export { flatSearchMaxRows, rqBits, type VectorIndexChoice } from './vector-index-choice.ts';
export { isObjectStoreUri, lanceIndexBackend, lanceStorePath } from './lance-index-backend.ts';

export type { BundleFiles } from './bundle-files.ts';
export { type BundleContents, BundleWriter, type BundleWriterOptions, writeBundle } from './bundle-writer.ts';
export {
  type ChangeSetReport,
  type ChangeSetTarget,
  type ReadChangeSetOptions,
  readChangeSet,
} from './read-change-set.ts';
export { readCsvRecords } from './csv-records.ts';
export { type JsonlLine, readJsonlLines } from './jsonl-reader.ts';
export { openBundle, readSchema, type SkbBundle } from './open-bundle.ts';
export { type SynthesizeTextQueriesOptions, synthesizeTextQueries } from './synthesize-text-queries.ts';
export { type SyntheticBundleOptions, syntheticSchema, writeSyntheticBundle } from './synthetic-bundle.ts';
export { EdgeTypeRules, parseEdge, parseNode, parseQuery, parseSchema } from './parse-records.ts';
export { formatSkbIssue, type SkbIssue, type SkbIssueCode, skbIssueCodes } from './skb-issue.ts';
export {
  type ImportStarkQaOptions,
  importStarkQa,
  type StarkExportOptions,
  type StarkImport,
  type StarkResult,
  starkResultsCsv,
} from './stark-qa.ts';
export {
  type BundleSummary,
  type ValidateBundleOptions,
  type ValidationReport,
  validateBundle,
} from './validate-bundle.ts';

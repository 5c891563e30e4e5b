/** Every kind of problem the validator reports; one code per class of error. */
export const skbIssueCodes = [
  'BAD_FILE',
  'BAD_JSON',
  'BAD_SCHEMA',
  'MISSING_FIELD',
  'BAD_FIELD',
  'DUPLICATE_NODE',
  'UNDECLARED_NODE_TYPE',
  'UNDECLARED_EDGE_TYPE',
  'EDGE_TYPE_MISMATCH',
  'DANGLING_EDGE',
  'DUPLICATE_QUERY',
  'QUERY_ID_IS_NODE_ID',
  'MISSING_ANSWERS',
  'UNKNOWN_ANSWER',
  'ANSWER_NOT_TARGET',
  // Change sets only (readChangeSet).
  'SCHEMA_CHANGE',
  'DUPLICATE_CHANGE',
  'NODE_TYPE_CHANGE',
] as const;

export type SkbIssueCode = (typeof skbIssueCodes)[number];

/** One problem in a bundle, located precisely enough to fix by hand. */
export interface SkbIssue {
  readonly code: SkbIssueCode;
  /** Path relative to the bundle (or change set), e.g. `nodes.jsonl.gz`, `queries/test.jsonl`. */
  readonly file: string;
  /** 1-based line; absent for whole-file problems (schema.json is reported by JSON path in `field`). */
  readonly line?: number;
  readonly field?: string;
  /** What was wrong and what was expected. */
  readonly message: string;
}

/** `file:line: message` — how a person reads an issue. */
export function formatSkbIssue(issue: SkbIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  const field = issue.field ? ` [${issue.field}]` : '';
  return `${where}:${field} ${issue.message} (${issue.code})`;
}

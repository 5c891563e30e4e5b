import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { SkbSchema } from '@weft/spec';
import { locateBundleFiles } from './bundle-files.ts';
import { edgeProblem } from './edge-problem.ts';
import { abbreviate, parsedLines, StopReading } from './parsed-lines.ts';
import { EdgeTypeRules, parseEdge, parseNode, parseQuery, parseSchema } from './parse-records.ts';
import type { SkbIssue, SkbIssueCode } from './skb-issue.ts';

export interface ValidateBundleOptions {
  /** Stop at the first problem (default false: read everything and count every problem). */
  readonly strict?: boolean;
  /** Keep at most this many example issues per code; every issue is still counted (default 20). */
  readonly maxIssuesPerCode?: number;
  /** Called every few thousand records with the phase (`nodes`, `edges`, `queries/<set>`) and records read. */
  readonly onProgress?: (phase: string, done: number) => void;
}

export interface BundleSummary {
  readonly nodes: number;
  readonly edges: number;
  readonly nodesByType: Record<string, number>;
  readonly edgesByType: Record<string, number>;
  /** Query set → number of queries. */
  readonly queries: Record<string, number>;
}

export interface ValidationReport {
  /** True when no problem was found. */
  readonly ok: boolean;
  /** Example issues, in file order, at most `maxIssuesPerCode` per code. */
  readonly issues: SkbIssue[];
  /** Every issue counted by code. */
  readonly counts: Partial<Record<SkbIssueCode, number>>;
  readonly totalIssues: number;
  /** True when `strict` stopped the validation at the first problem. */
  readonly stopped: boolean;
  readonly schema: SkbSchema | undefined;
  /** Records read (valid ones, by declared type). */
  readonly summary: BundleSummary;
}

/**
 * Checks a whole bundle in one streaming pass per file. Memory: one map entry per node id (for
 * duplicate, dangling-edge and answer checks), never a whole file.
 */
export async function validateBundle(
  directory: string,
  options: ValidateBundleOptions = {},
): Promise<ValidationReport> {
  const maxPerCode = options.maxIssuesPerCode ?? 20;
  const issues: SkbIssue[] = [];
  const counts: Partial<Record<SkbIssueCode, number>> = {};
  let totalIssues = 0;
  const summary: { -readonly [K in keyof BundleSummary]: BundleSummary[K] } = {
    nodes: 0,
    edges: 0,
    nodesByType: {},
    edgesByType: {},
    queries: {},
  };
  const report = (issue: SkbIssue) => {
    const count = (counts[issue.code] ?? 0) + 1;
    counts[issue.code] = count;
    totalIssues++;
    if (count <= maxPerCode) issues.push(issue);
    if (options.strict) throw new StopReading();
  };
  const files = locateBundleFiles(directory);
  let schema: SkbSchema | undefined;
  let stopped = false;

  try {
    schema = await checkSchema(files.schema, report);
    if (!files.nodes)
      report({ code: 'BAD_FILE', file: 'nodes.jsonl', message: 'missing nodes.jsonl (or nodes.jsonl.gz)' });
    if (!files.edges)
      report({ code: 'BAD_FILE', file: 'edges.jsonl', message: 'missing edges.jsonl (or edges.jsonl.gz)' });
    const nodeTypes = schema ? schema.nodeTypes.map((t) => t.name) : [];
    const typeIndex = new Map(nodeTypes.map((name, index) => [name, index]));
    const targets = new Set((schema?.targetTypes ?? nodeTypes).map((name) => typeIndex.get(name)));
    // id → index of its node type, -1 when the type is undeclared (the id still exists for edges).
    const nodeIds = new Map<string, number>();

    if (files.nodes) {
      const file = relative(directory, files.nodes);
      for await (const { line, value } of parsedLines(files.nodes, file, parseNode, report)) {
        if (nodeIds.has(value.id)) {
          report({
            code: 'DUPLICATE_NODE',
            file,
            line,
            field: 'id',
            message: `node id "${value.id}" appears more than once`,
          });
          continue;
        }
        const type = typeIndex.get(value.type);
        nodeIds.set(value.id, type ?? -1);
        if (schema && type === undefined) {
          report({
            code: 'UNDECLARED_NODE_TYPE',
            file,
            line,
            field: 'type',
            message: `node type "${value.type}" is not declared in schema.json (declared: ${abbreviate(nodeTypes)})`,
          });
          continue;
        }
        summary.nodes++;
        summary.nodesByType[value.type] = (summary.nodesByType[value.type] ?? 0) + 1;
        if (summary.nodes % 50_000 === 0) options.onProgress?.('nodes', summary.nodes);
      }
    }

    if (files.edges) {
      const file = relative(directory, files.edges);
      const rules = schema ? new EdgeTypeRules(schema) : undefined;
      for await (const { line, value } of parsedLines(files.edges, file, parseEdge, report)) {
        const typeOf = (id: string) => {
          const index = nodeIds.get(id);
          return index === undefined ? undefined : index < 0 ? null : nodeTypes[index]!;
        };
        const problem = edgeProblem(value, typeOf(value.src), typeOf(value.dst), rules, schema, {
          missingNode: 'is not a node id of the bundle',
          undeclaredType: 'is not declared in schema.json',
        });
        if (problem) {
          report({ ...problem, file, line });
          continue;
        }
        summary.edges++;
        summary.edgesByType[value.type] = (summary.edgesByType[value.type] ?? 0) + 1;
        if (summary.edges % 100_000 === 0) options.onProgress?.('edges', summary.edges);
      }
    }

    for (const [set, path] of files.queries) {
      const file = relative(directory, path);
      const queryIds = new Set<string>();
      let count = 0;
      for await (const { line, value } of parsedLines(path, file, parseQuery, report)) {
        count++;
        if (queryIds.has(value.id))
          report({
            code: 'DUPLICATE_QUERY',
            file,
            line,
            field: 'id',
            message: `query id "${value.id}" appears more than once in the set`,
          });
        queryIds.add(value.id);
        if (nodeIds.has(value.id))
          report({
            code: 'QUERY_ID_IS_NODE_ID',
            file,
            line,
            field: 'id',
            message: `query id "${value.id}" is also a node id (query ids must carry no hint of the answer)`,
          });
        if (value.answers.length === 0)
          report({
            code: 'MISSING_ANSWERS',
            file,
            line,
            field: 'answers',
            message: 'a query needs at least one answer',
          });
        value.answers.forEach((answer, index) => {
          const type = nodeIds.get(answer);
          if (type === undefined)
            report({
              code: 'UNKNOWN_ANSWER',
              file,
              line,
              field: `answers[${index}]`,
              message: `answer "${answer}" is not a node id of the bundle`,
            });
          else if (type >= 0 && !targets.has(type)) {
            report({
              code: 'ANSWER_NOT_TARGET',
              file,
              line,
              field: `answers[${index}]`,
              message: `answer "${answer}" is of type ${nodeTypes[type]}, not one of the target types`,
            });
          }
        });
      }
      summary.queries[set] = count;
      options.onProgress?.(`queries/${set}`, count);
    }
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
    stopped = true;
  }
  return { ok: totalIssues === 0, issues, counts, totalIssues, stopped, schema, summary };
}

async function checkSchema(path: string, report: (issue: SkbIssue) => void): Promise<SkbSchema | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    report({ code: 'BAD_FILE', file: 'schema.json', message: 'missing or unreadable schema.json' });
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    report({ code: 'BAD_JSON', file: 'schema.json', message: `malformed JSON: ${(error as Error).message}` });
    return undefined;
  }
  const parsed = parseSchema(json);
  if (!parsed.ok) {
    for (const problem of parsed.problems)
      report({ code: 'BAD_SCHEMA', file: 'schema.json', field: problem.field, message: problem.message });
    return undefined;
  }
  return parsed.value;
}

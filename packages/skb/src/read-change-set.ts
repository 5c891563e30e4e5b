import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SkbChangeSet, SkbEdge, SkbNode, SkbSchema } from '@weft/spec';
import { edgeProblem } from './edge-problem.ts';
import { abbreviate, parsedLines, StopReading } from './parsed-lines.ts';
import { EdgeTypeRules, type Parsed, parseEdge, parseNode } from './parse-records.ts';
import type { SkbIssue, SkbIssueCode } from './skb-issue.ts';

/** What a change set is checked against: the store's schema and the types of the nodes it holds. */
export interface ChangeSetTarget {
  readonly schema: SkbSchema;
  /** The type of each id in the store, `undefined` where the store has no such node. */
  nodeTypes(ids: readonly string[]): Promise<readonly (string | undefined)[]>;
}

export interface ReadChangeSetOptions {
  /** Stop at the first problem (default false: report every problem). */
  readonly strict?: boolean;
  /** Keep at most this many example issues per code; every issue is still counted (default 20). */
  readonly maxIssuesPerCode?: number;
}

export interface ChangeSetReport {
  /** True when no problem was found; `changes` is then set. */
  readonly ok: boolean;
  readonly issues: SkbIssue[];
  readonly counts: Partial<Record<SkbIssueCode, number>>;
  readonly totalIssues: number;
  /** True when `strict` stopped at the first problem. */
  readonly stopped: boolean;
  readonly changes: SkbChangeSet | undefined;
}

/** The files of a change set: each optional, each may be gzipped; at least one must exist. */
const changeFiles = ['nodes', 'edges', 'deletions'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `deletions.jsonl` line: `{"node": id}` or `{"edge": {"src", "type", "dst"}}`. */
type Deletion = { readonly node: string } | { readonly edge: SkbEdge };

export function parseDeletion(value: unknown): Parsed<Deletion> {
  const bad = (field: string, message: string): Parsed<Deletion> => ({
    ok: false,
    problems: [{ code: 'BAD_FIELD', field, message }],
  });
  if (!isObject(value) || 'node' in value === 'edge' in value)
    return bad('', 'a deletion must be {"node": "<id>"} or {"edge": {"src", "type", "dst"}}');
  if ('node' in value) {
    if (typeof value.node !== 'string' || value.node.length === 0)
      return bad('node', '"node" must be a non-empty string (a node id)');
    return { ok: true, value: { node: value.node } };
  }
  const edge = parseEdge(value.edge);
  if (!edge.ok)
    return {
      ok: false,
      problems: edge.problems.map((p) => ({ ...p, field: `edge${p.field ? `.${p.field}` : ''}` })),
    };
  return { ok: true, value: { edge: edge.value } };
}

function locate(directory: string, base: string): string | undefined {
  for (const name of [`${base}.jsonl`, `${base}.jsonl.gz`])
    if (existsSync(join(directory, name))) return name;
  return undefined;
}

const edgeKey = (edge: SkbEdge) => `${edge.src}\u0000${edge.type}\u0000${edge.dst}`;

/** Key order and absent optional fields do not make two schemas differ. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => value[key] !== undefined)
        .sort()
        .map((key) => [key, canonical(value[key])]),
    );
  return value;
}

/**
 * Reads and validates a change set (docs/skb-format.md, "Change sets") against a store: every line
 * parsed as a bundle's are, node and edge types declared in the store's schema, every upserted edge
 * between nodes that exist once the change set is applied, no node changing type, no record twice.
 * A `schema.json` in the change set must equal the store's: schema changes are refused (they need
 * a new ingest). Problems are reported as `file:line` like `validateBundle`'s. The change set is
 * held in memory (it is meant to be small next to the store).
 */
export async function readChangeSet(
  directory: string,
  target: ChangeSetTarget,
  options: ReadChangeSetOptions = {},
): Promise<ChangeSetReport> {
  const maxPerCode = options.maxIssuesPerCode ?? 20;
  const issues: SkbIssue[] = [];
  const counts: Partial<Record<SkbIssueCode, number>> = {};
  let totalIssues = 0;
  const report = (issue: SkbIssue) => {
    const count = (counts[issue.code] ?? 0) + 1;
    counts[issue.code] = count;
    totalIssues++;
    if (count <= maxPerCode) issues.push(issue);
    if (options.strict) throw new StopReading();
  };
  const { schema } = target;
  const nodes: { line: number; value: SkbNode }[] = [];
  const edges: { line: number; value: SkbEdge }[] = [];
  const deleteNodes = new Set<string>();
  const deleteEdges = new Map<string, SkbEdge>();
  let stopped = false;
  try {
    const files = Object.fromEntries(changeFiles.map((base) => [base, locate(directory, base)])) as Record<
      (typeof changeFiles)[number],
      string | undefined
    >;
    if (!existsSync(directory))
      report({ code: 'BAD_FILE', file: directory, message: 'no change set folder here' });
    else if (changeFiles.every((base) => files[base] === undefined))
      report({
        code: 'BAD_FILE',
        file: 'nodes.jsonl',
        message:
          'a change set needs nodes.jsonl, edges.jsonl or deletions.jsonl (or their .gz); none is here',
      });
    checkSchema(directory, schema, report);

    const nodeTypes = schema.nodeTypes.map((t) => t.name);
    const declared = new Set(nodeTypes);
    if (files.deletions) {
      for await (const { line, value } of parsedLines(
        join(directory, files.deletions),
        files.deletions,
        parseDeletion,
        report,
      )) {
        const key = 'node' in value ? value.node : edgeKey(value.edge);
        if ('node' in value ? deleteNodes.has(key) : deleteEdges.has(key)) {
          report({
            code: 'DUPLICATE_CHANGE',
            file: files.deletions,
            line,
            message: `this ${'node' in value ? `node "${key}"` : 'edge'} is deleted twice`,
          });
          continue;
        }
        if ('node' in value) deleteNodes.add(value.node);
        else deleteEdges.set(key, value.edge);
      }
    }
    const upserted = new Map<string, SkbNode>();
    if (files.nodes) {
      for await (const { line, value } of parsedLines(
        join(directory, files.nodes),
        files.nodes,
        parseNode,
        report,
      )) {
        if (upserted.has(value.id)) {
          report({
            code: 'DUPLICATE_CHANGE',
            file: files.nodes,
            line,
            field: 'id',
            message: `node "${value.id}" is upserted twice`,
          });
          continue;
        }
        if (!declared.has(value.type)) {
          report({
            code: 'UNDECLARED_NODE_TYPE',
            file: files.nodes,
            line,
            field: 'type',
            message: `node type "${value.type}" is not declared in the store's schema (declared: ${abbreviate(nodeTypes)}); a change set cannot add types — re-ingest the bundle with the new schema`,
          });
          continue;
        }
        upserted.set(value.id, value);
        nodes.push({ line, value });
      }
    }
    const seenEdges = new Set<string>();
    if (files.edges) {
      for await (const { line, value } of parsedLines(
        join(directory, files.edges),
        files.edges,
        parseEdge,
        report,
      )) {
        const key = edgeKey(value);
        if (seenEdges.has(key)) {
          report({
            code: 'DUPLICATE_CHANGE',
            file: files.edges,
            line,
            message: 'this edge is upserted twice',
          });
          continue;
        }
        seenEdges.add(key);
        edges.push({ line, value });
      }
    }

    // The store's view of every id the change set names, asked once.
    const ids = [
      ...new Set([...nodes.map((n) => n.value.id), ...edges.flatMap((e) => [e.value.src, e.value.dst])]),
    ].filter((id) => !deleteNodes.has(id) || !upserted.has(id));
    const storedTypes = new Map<string, string | undefined>();
    const answers = await target.nodeTypes(ids);
    for (const [i, id] of ids.entries()) storedTypes.set(id, answers[i]);

    for (const { line, value } of nodes) {
      const stored = storedTypes.get(value.id);
      if (stored !== undefined && !deleteNodes.has(value.id) && stored !== value.type)
        report({
          code: 'NODE_TYPE_CHANGE',
          file: files.nodes!,
          line,
          field: 'type',
          message: `node "${value.id}" is a ${stored} in the store; an upsert cannot change its type to ${value.type} (delete it in deletions.jsonl and upsert it in the same change set)`,
        });
    }
    // A node's type once the change set is applied, `undefined` when it will not exist.
    const typeAfter = (id: string) =>
      upserted.get(id)?.type ?? (deleteNodes.has(id) ? undefined : storedTypes.get(id));
    const rules = new EdgeTypeRules(schema);
    for (const { line, value } of edges) {
      const file = files.edges!;
      const problem = edgeProblem(value, typeAfter(value.src), typeAfter(value.dst), rules, schema, {
        missingNode: 'is neither a node of the store (kept by this change set) nor upserted by it',
        undeclaredType:
          "is not declared in the store's schema; a change set cannot add types — re-ingest the bundle with the new schema",
      });
      if (problem) report({ ...problem, file, line });
    }
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
    stopped = true;
  }
  const ok = totalIssues === 0;
  return {
    ok,
    issues,
    counts,
    totalIssues,
    stopped,
    changes: ok
      ? {
          nodes: nodes.map((n) => n.value),
          edges: edges.map((e) => e.value),
          deleteNodes: [...deleteNodes],
          deleteEdges: [...deleteEdges.values()],
        }
      : undefined,
  };
}

function checkSchema(directory: string, schema: SkbSchema, report: (issue: SkbIssue) => void): void {
  const path = join(directory, 'schema.json');
  if (!existsSync(path)) return;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    report({ code: 'BAD_JSON', file: 'schema.json', message: `malformed JSON: ${(error as Error).message}` });
    return;
  }
  if (JSON.stringify(canonical(json)) === JSON.stringify(canonical(schema))) return;
  const given = isObject(json) ? json : {};
  const differs = (
    ['name', 'nodeTypes', 'edgeTypes', 'targetTypes', 'description', 'version'] as const
  ).filter((key) => JSON.stringify(canonical(given[key])) !== JSON.stringify(canonical(schema[key])));
  report({
    code: 'SCHEMA_CHANGE',
    file: 'schema.json',
    ...(differs[0] ? { field: differs[0] } : {}),
    message: `the change set's schema differs from the store's (${differs.join(', ') || 'content'}); a change set cannot change the schema — re-ingest the bundle with the new schema (or drop schema.json from the change set)`,
  });
}

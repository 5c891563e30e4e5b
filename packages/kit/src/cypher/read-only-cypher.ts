import { WeftError } from '../errors/weft-error.ts';

/**
 * Clauses and statements that change data, schema, settings, privileges or the attached databases,
 * or read files: the one list for the stores' guard and for the Cypher a model writes.
 */
const writing = new Map<string, string>([
  ['CREATE', 'CREATE writes'],
  ['MERGE', 'MERGE writes'],
  ['SET', 'SET writes'],
  ['DELETE', 'DELETE writes'],
  ['DETACH', 'DETACH DELETE writes'],
  ['REMOVE', 'REMOVE writes'],
  ['DROP', 'DROP changes the schema'],
  ['ALTER', 'ALTER changes the schema'],
  ['COPY', 'COPY writes'],
  ['LOAD', 'LOAD reads files'],
  ['FOREACH', 'FOREACH runs updates'],
  ['INSTALL', 'INSTALL loads extensions'],
  ['UNINSTALL', 'UNINSTALL changes extensions'],
  ['ATTACH', 'ATTACH opens databases'],
  ['USE', 'USE switches databases'],
  ['EXPORT', 'EXPORT writes files'],
  ['IMPORT', 'IMPORT writes'],
  ['CHECKPOINT', 'CHECKPOINT writes'],
  ['BEGIN', 'transactions are not allowed'],
  ['COMMIT', 'transactions are not allowed'],
  ['ROLLBACK', 'transactions are not allowed'],
  ['TRUNCATE', 'TRUNCATE writes'],
  ['UPDATE', 'UPDATE writes'],
  ['INSERT', 'INSERT writes'],
  ['GRANT', 'GRANT changes privileges'],
  ['REVOKE', 'REVOKE changes privileges'],
]);

// `CALL` runs procedures, some of which write (project_graph, create_fts_index, settings such as
// `CALL threads=2`): only these read-only ones are let through.
const readOnlyProcedures = new Set([
  'show_tables',
  'table_info',
  'show_connection',
  'db_version',
  'current_setting',
  'show_functions',
  'show_indexes',
  'show_sequences',
  'show_warnings',
  'show_attached_databases',
  'show_loaded_extensions',
]);

/** The query with string literals, quoted identifiers and comments blanked out, so keywords inside them do not count. */
function code(query: string): string {
  let out = '';
  let i = 0;
  while (i < query.length) {
    const char = query[i]!;
    const next = query[i + 1];
    if (char === '/' && next === '/') {
      const end = query.indexOf('\n', i);
      i = end === -1 ? query.length : end;
      out += ' ';
    } else if (char === '/' && next === '*') {
      const end = query.indexOf('*/', i + 2);
      i = end === -1 ? query.length : end + 2;
      out += ' ';
    } else if (char === "'" || char === '"' || char === '`') {
      let j = i + 1;
      while (j < query.length && query[j] !== char) j += query[j] === '\\' && char !== '`' ? 2 : 1;
      i = j + 1;
      out += char === '`' ? ' _ident_ ' : ' _string_ ';
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

export interface ReadOnlyCypherOptions {
  /**
   * `read-only` (default) lets `CALL` run the engine's read-only procedures (`show_tables`, …), as a
   * store does; `none` rejects every `CALL`, for Cypher that is parsed rather than run (a model's).
   */
  readonly procedures?: 'read-only' | 'none';
}

/**
 * Why `query` is not one read-only statement, or undefined when it is. Conservative: a keyword that
 * could write rejects the query even where it would be harmless (e.g. a variable named `set`);
 * property names (`n.set`), labels (`:Set`) and text inside strings, comments and backtick names are
 * fine.
 */
export function readOnlyCypherProblem(
  query: string,
  options: ReadOnlyCypherOptions = {},
): string | undefined {
  const procedures = options.procedures ?? 'read-only';
  const body = code(query).trim().replace(/;\s*$/, '');
  if (body.includes(';')) return 'several statements (only one is allowed)';
  let previous = '';
  for (const match of body.matchAll(/([.:]\s*)?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const word = match[2]!;
    const upper = word.toUpperCase();
    if (match[1]) {
      previous = upper;
      continue;
    }
    const reason = writing.get(upper);
    if (reason) return `${upper} is not allowed: ${reason}`;
    if (upper === 'CALL' && procedures === 'none') return 'CALL is not allowed: CALL runs procedures';
    if (previous === 'CALL' && !readOnlyProcedures.has(word.toLowerCase()))
      return `CALL ${word} is not a read-only procedure`;
    previous = upper;
  }
  if (previous === 'CALL') return 'CALL without a procedure';
  return undefined;
}

/**
 * Throws `WEFT_WRITE_REJECTED` unless `query` is one read-only statement (`readOnlyCypherProblem`).
 * The stores also open their engines read-only, so a query that slips through still cannot write.
 */
export function assertReadOnlyCypher(query: string, options: ReadOnlyCypherOptions = {}): void {
  const problem = readOnlyCypherProblem(query, options);
  if (problem === undefined) return;
  throw new WeftError({
    code: 'WEFT_WRITE_REJECTED',
    message: `only read-only Cypher is allowed: ${problem}`,
    details: { query: query.slice(0, 200) },
  });
}

import { WeftError } from '@weft/kit';

// Clauses and statements that change data, schema, settings or the attached databases.
const writingKeywords = new Set([
  'CREATE',
  'MERGE',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  'DROP',
  'COPY',
  'ALTER',
  'INSTALL',
  'LOAD',
  'UNINSTALL',
  'UPDATE',
  'ATTACH',
  'USE',
  'EXPORT',
  'IMPORT',
  'CHECKPOINT',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'TRUNCATE',
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

function rejected(query: string, reason: string): WeftError {
  return new WeftError({
    code: 'WEFT_WRITE_REJECTED',
    message: `only read-only Cypher is allowed: ${reason}`,
    details: { query: query.slice(0, 200) },
  });
}

/**
 * Throws `WEFT_WRITE_REJECTED` unless `query` is one read-only statement. Conservative: a keyword
 * that could write rejects the query even where it would be harmless (e.g. a variable named `set`);
 * property names (`n.set`) and text inside strings are fine. The store also opens Kùzu read-only, so
 * a query that slips through still cannot write.
 */
export function assertReadOnlyCypher(query: string): void {
  const stripped = code(query);
  const body = stripped.trim().replace(/;\s*$/, '');
  if (body.includes(';')) throw rejected(query, 'one statement at a time');
  const tokens = body.matchAll(/(\.\s*)?([A-Za-z_][A-Za-z0-9_]*)/g);
  let previous = '';
  for (const match of tokens) {
    const word = match[2]!;
    const upper = word.toUpperCase();
    if (match[1]) {
      previous = upper;
      continue;
    }
    if (writingKeywords.has(upper)) throw rejected(query, `${upper} is not allowed`);
    if (previous === 'CALL' && !readOnlyProcedures.has(word.toLowerCase())) {
      throw rejected(query, `CALL ${word} is not a read-only procedure`);
    }
    previous = upper;
  }
  if (previous === 'CALL') throw rejected(query, 'CALL without a procedure');
}

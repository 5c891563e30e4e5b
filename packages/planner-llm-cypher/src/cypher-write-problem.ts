import { CypherSyntaxError, cypherTokens } from './cypher-tokens.ts';

/** Clauses that change data, schema, settings or the attached databases. */
const writing = new Map<string, string>([
  ['CREATE', 'CREATE writes'],
  ['MERGE', 'MERGE writes'],
  ['SET', 'SET writes'],
  ['DELETE', 'DELETE writes'],
  ['DETACH', 'DETACH DELETE writes'],
  ['REMOVE', 'REMOVE writes'],
  ['DROP', 'DROP changes the schema'],
  ['ALTER', 'ALTER changes the schema'],
  ['LOAD', 'LOAD CSV reads files'],
  ['COPY', 'COPY writes'],
  ['FOREACH', 'FOREACH runs updates'],
  ['CALL', 'CALL runs procedures'],
  ['INSTALL', 'INSTALL loads extensions'],
  ['UNINSTALL', 'UNINSTALL changes extensions'],
  ['ATTACH', 'ATTACH opens databases'],
  ['DETACH_DATABASE', 'DETACH changes databases'],
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

/**
 * Why a query is not one read-only statement, or undefined when it is. Decided on the tokens
 * alone, before anything runs: any writing or procedure keyword (CREATE, MERGE, SET, DELETE,
 * REMOVE, DROP, LOAD CSV, CALL, FOREACH, …) outside strings, comments and backtick names rejects
 * the query, as do several statements. Conservative: a variable named `set` is rejected too;
 * property names (`n.set`) are not keywords.
 */
export function cypherWriteProblem(query: string): string | undefined {
  let tokens: ReturnType<typeof cypherTokens>;
  try {
    tokens = cypherTokens(query);
  } catch (error) {
    return error instanceof CypherSyntaxError ? `not readable Cypher (${error.message})` : String(error);
  }
  const last = tokens.length - (tokens.at(-1)?.text === ';' ? 1 : 0);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === 'punct' && token.text === ';' && i < last)
      return 'several statements (only one is allowed)';
    if (token.kind !== 'word' || token.quoted) continue;
    const previous = tokens[i - 1];
    if (previous?.kind === 'punct' && (previous.text === '.' || previous.text === ':')) continue;
    const reason = writing.get(token.text.toUpperCase());
    if (reason) return `${token.text.toUpperCase()} is not allowed: ${reason}`;
  }
  return undefined;
}

/** One token of a Cypher query. */
export interface CypherToken {
  readonly kind: 'word' | 'string' | 'number' | 'parameter' | 'punct';
  /** The source text (for strings: without quotes, escapes resolved; for quoted names: the name). */
  readonly text: string;
  /** A word written in backticks: a name, never a keyword. */
  readonly quoted?: boolean;
  /** Offset in the query, for messages. */
  readonly at: number;
}

const multi = ['<>', '<=', '>=', '=~', '..'];
const single = new Set([...'()[]{}:,.-<>=*;|+/%^']);

/** A lexing failure: the query is not Cypher we can read. */
export class CypherSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CypherSyntaxError';
  }
}

function unescapeString(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e.startsWith('u') && e.length === 5) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
  });
}

/** Splits a query into tokens; comments are skipped, strings and backtick names kept whole. */
export function cypherTokens(query: string): CypherToken[] {
  const tokens: CypherToken[] = [];
  let i = 0;
  while (i < query.length) {
    const char = query[i]!;
    const next = query[i + 1];
    if (/\s/.test(char)) {
      i++;
    } else if (char === '/' && next === '/') {
      const end = query.indexOf('\n', i);
      i = end === -1 ? query.length : end;
    } else if (char === '/' && next === '*') {
      const end = query.indexOf('*/', i + 2);
      i = end === -1 ? query.length : end + 2;
    } else if (char === "'" || char === '"' || char === '`') {
      let j = i + 1;
      while (j < query.length && query[j] !== char) j += query[j] === '\\' && char !== '`' ? 2 : 1;
      if (j >= query.length)
        throw new CypherSyntaxError(`unterminated ${char === '`' ? 'name' : 'string'} at ${i}`);
      const body = query.slice(i + 1, j);
      tokens.push(
        char === '`'
          ? { kind: 'word', text: body, quoted: true, at: i }
          : { kind: 'string', text: unescapeString(body), at: i },
      );
      i = j + 1;
    } else if (/[A-Za-z_]/.test(char)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(query.slice(i))!;
      tokens.push({ kind: 'word', text: match[0], at: i });
      i += match[0].length;
    } else if (/[0-9]/.test(char)) {
      const match = /^[0-9]+(?:\.[0-9]+(?![.]))?(?:[eE][+-]?[0-9]+)?/.exec(query.slice(i))!;
      tokens.push({ kind: 'number', text: match[0], at: i });
      i += match[0].length;
    } else if (char === '$') {
      const match = /^\$[A-Za-z_0-9]+/.exec(query.slice(i));
      if (!match) throw new CypherSyntaxError(`bad parameter at ${i}`);
      tokens.push({ kind: 'parameter', text: match[0], at: i });
      i += match[0].length;
    } else {
      const two = query.slice(i, i + 2);
      if (multi.includes(two)) {
        tokens.push({ kind: 'punct', text: two, at: i });
        i += 2;
      } else if (single.has(char)) {
        tokens.push({ kind: 'punct', text: char, at: i });
        i++;
      } else throw new CypherSyntaxError(`unexpected character "${char}" at ${i}`);
    }
  }
  return tokens;
}

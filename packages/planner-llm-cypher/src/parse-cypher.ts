import { CypherSyntaxError, type CypherToken, cypherTokens } from './cypher-tokens.ts';

export type CypherLiteral = string | number | boolean | null | readonly CypherLiteral[];

/** A node of a MATCH pattern; anonymous nodes get a name (`_n1`, …). */
export interface CypherNode {
  readonly variable: string;
  readonly labels: readonly string[];
  readonly properties: Readonly<Record<string, CypherLiteral>>;
}

/** `(left)-[:type]->(right)` is `out`, `<-` is `in`, `-[…]-` is `both` (undirected). */
export interface CypherRelationship {
  readonly types: readonly string[];
  readonly direction: 'out' | 'in' | 'both';
  readonly left: string;
  readonly right: string;
  /** `*1..3`: a path of several hops, which a triplet cannot say. */
  readonly variableLength: boolean;
}

/** A WHERE conjunct on one property of one variable, e.g. `x.text CONTAINS 'wildlife'`. */
export interface CypherCondition {
  readonly variable: string;
  readonly property: string;
  readonly operator: 'equals' | 'contains' | 'starts-with' | 'ends-with' | 'regex' | 'in';
  readonly value: CypherLiteral;
  readonly negated: boolean;
}

/** What a read-only query says, as far as constraint grounding can use it. */
export interface ParsedCypher {
  readonly nodes: readonly CypherNode[];
  readonly relationships: readonly CypherRelationship[];
  readonly conditions: readonly CypherCondition[];
  /** Variables of the RETURN clause, in order. */
  readonly returns: readonly string[];
  /** Parts of the query that were read loosely or left out, for the trace. */
  readonly ignored: readonly string[];
}

const clauseWords = new Set([
  'MATCH',
  'OPTIONAL',
  'WITH',
  'RETURN',
  'UNWIND',
  'WHERE',
  'ORDER',
  'SKIP',
  'LIMIT',
  'UNION',
]);

class Reader {
  private readonly tokens: readonly CypherToken[];
  position = 0;

  constructor(tokens: readonly CypherToken[]) {
    this.tokens = tokens;
  }

  peek(offset = 0): CypherToken | undefined {
    return this.tokens[this.position + offset];
  }

  next(): CypherToken {
    const token = this.tokens[this.position];
    if (!token) throw new CypherSyntaxError('the query ends too early');
    this.position++;
    return token;
  }

  isPunct(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'punct' && token.text === text;
  }

  isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'word' && !token.quoted && token.text.toUpperCase() === word;
  }

  accept(text: string): boolean {
    if (this.isPunct(text)) {
      this.position++;
      return true;
    }
    return false;
  }

  acceptKeyword(word: string): boolean {
    if (this.isKeyword(word)) {
      this.position++;
      return true;
    }
    return false;
  }

  expect(text: string): void {
    if (!this.accept(text)) {
      const token = this.peek();
      throw new CypherSyntaxError(
        `expected "${text}" ${token ? `but found "${token.text}" at ${token.at}` : 'at the end'}`,
      );
    }
  }

  name(): string {
    const token = this.next();
    if (token.kind !== 'word')
      throw new CypherSyntaxError(`expected a name but found "${token.text}" at ${token.at}`);
    return token.text;
  }

  get done(): boolean {
    return this.position >= this.tokens.length;
  }
}

function literal(reader: Reader): CypherLiteral {
  const token = reader.peek();
  if (!token) throw new CypherSyntaxError('expected a value at the end');
  if (token.kind === 'string') return reader.next().text;
  if (token.kind === 'number') return Number(reader.next().text);
  if (token.kind === 'punct' && token.text === '-' && reader.peek(1)?.kind === 'number') {
    reader.next();
    return -Number(reader.next().text);
  }
  if (token.kind === 'punct' && token.text === '[') {
    reader.next();
    const items: CypherLiteral[] = [];
    while (!reader.accept(']')) {
      items.push(literal(reader));
      reader.accept(',');
    }
    return items;
  }
  if (token.kind === 'word' && !token.quoted) {
    const upper = token.text.toUpperCase();
    if (upper === 'TRUE' || upper === 'FALSE') {
      reader.next();
      return upper === 'TRUE';
    }
    if (upper === 'NULL') {
      reader.next();
      return null;
    }
    // toLower('Nikon') and the like: the value inside.
    if (reader.isPunct('(', 1)) {
      reader.next();
      reader.next();
      const value = literal(reader);
      reader.expect(')');
      return value;
    }
  }
  throw new CypherSyntaxError(`expected a value but found "${token.text}" at ${token.at}`);
}

function properties(reader: Reader, ignored: string[]): Record<string, CypherLiteral> {
  const out: Record<string, CypherLiteral> = {};
  reader.expect('{');
  while (!reader.accept('}')) {
    const key = reader.name();
    reader.expect(':');
    if (reader.peek()?.kind === 'parameter') {
      ignored.push(`parameter ${reader.next().text} (no value given)`);
    } else out[key] = literal(reader);
    reader.accept(',');
  }
  return out;
}

/** Parses the patterns of one MATCH, appending nodes and relationships. */
function patterns(
  reader: Reader,
  nodes: Map<string, { labels: Set<string>; properties: Record<string, CypherLiteral> }>,
  relationships: CypherRelationship[],
  ignored: string[],
  anonymous: () => string,
): void {
  const node = (): string => {
    reader.expect('(');
    const variable = reader.peek()?.kind === 'word' ? reader.name() : anonymous();
    const labels: string[] = [];
    while (reader.accept(':') || (labels.length > 0 && reader.accept('|'))) labels.push(reader.name());
    const props = reader.isPunct('{') ? properties(reader, ignored) : {};
    reader.expect(')');
    const known = nodes.get(variable) ?? { labels: new Set<string>(), properties: {} };
    for (const label of labels) known.labels.add(label);
    Object.assign(known.properties, props);
    nodes.set(variable, known);
    return variable;
  };
  do {
    // A named path, `p = (…)-…`: the name is not needed.
    if (reader.peek()?.kind === 'word' && reader.isPunct('=', 1)) {
      reader.next();
      reader.next();
    }
    let left = node();
    while (reader.isPunct('-') || (reader.isPunct('<') && reader.isPunct('-', 1))) {
      const leftArrow = reader.accept('<');
      reader.expect('-');
      const types: string[] = [];
      let variableLength = false;
      if (reader.accept('[')) {
        if (reader.peek()?.kind === 'word') reader.name();
        while (reader.accept(':') || (types.length > 0 && reader.accept('|'))) {
          reader.accept(':');
          types.push(reader.name());
        }
        if (reader.accept('*')) {
          variableLength = true;
          while (reader.peek()?.kind === 'number' || reader.isPunct('..')) reader.next();
        }
        if (reader.isPunct('{')) {
          const props = properties(reader, ignored);
          if (Object.keys(props).length > 0) ignored.push('relationship properties');
        }
        reader.expect(']');
      }
      reader.expect('-');
      const rightArrow = reader.accept('>');
      const right = node();
      relationships.push({
        types,
        direction: leftArrow === rightArrow ? 'both' : rightArrow ? 'out' : 'in',
        left,
        right,
        variableLength,
      });
      left = right;
    }
  } while (reader.accept(','));
}

/** The end of a WHERE: the next clause keyword outside parentheses and brackets. */
function whereEnd(reader: Reader): number {
  let depth = 0;
  for (let i = 0; reader.peek(i); i++) {
    const token = reader.peek(i)!;
    if (token.kind === 'punct' && ['(', '[', '{'].includes(token.text)) depth++;
    else if (token.kind === 'punct' && [')', ']', '}'].includes(token.text)) depth--;
    else if (
      depth === 0 &&
      token.kind === 'word' &&
      !token.quoted &&
      clauseWords.has(token.text.toUpperCase())
    ) {
      const word = token.text.toUpperCase();
      const previous = reader.peek(i - 1);
      // STARTS WITH and ENDS WITH are operators, not the WITH clause.
      const operator = word === 'WITH' && previous?.kind === 'word' && /^(STARTS|ENDS)$/i.test(previous.text);
      if (word !== 'WHERE' && !operator) return i;
    }
  }
  return Number.POSITIVE_INFINITY;
}

/** Splits tokens at top-level occurrences of a keyword. */
function splitAt(tokens: readonly CypherToken[], word: string): CypherToken[][] {
  const parts: CypherToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'punct' && ['(', '[', '{'].includes(token.text)) depth++;
    if (token.kind === 'punct' && [')', ']', '}'].includes(token.text)) depth--;
    if (depth === 0 && token.kind === 'word' && !token.quoted && token.text.toUpperCase() === word)
      parts.push([]);
    else parts.at(-1)!.push(token);
  }
  return parts;
}

const text = (tokens: readonly CypherToken[]) =>
  tokens.map((t) => (t.kind === 'string' ? JSON.stringify(t.text) : t.text)).join(' ');

/** One WHERE conjunct: a property condition, a label test (`x:product`), or undefined. */
function conjunct(
  tokens: readonly CypherToken[],
): { condition?: CypherCondition; label?: { variable: string; label: string } } | undefined {
  let body = [...tokens];
  let negated = false;
  while (body.length > 0) {
    const first = body[0]!;
    if (first.kind === 'word' && !first.quoted && first.text.toUpperCase() === 'NOT') {
      negated = !negated;
      body = body.slice(1);
    } else if (first.kind === 'punct' && first.text === '(' && body.at(-1)?.text === ')')
      body = body.slice(1, -1);
    else break;
  }
  if (splitAt(body, 'OR').length > 1) return undefined;
  const reader = new Reader(body);
  try {
    // x:label
    if (body.length === 3 && body[0]!.kind === 'word' && body[1]!.text === ':' && body[2]!.kind === 'word')
      return { label: { variable: body[0]!.text, label: body[2]!.text } };
    const side = (): { variable: string; property: string } | undefined => {
      let wrapped = 0;
      while (reader.peek()?.kind === 'word' && reader.isPunct('(', 1)) {
        reader.next();
        reader.next();
        wrapped++;
      }
      if (reader.peek()?.kind !== 'word' || !reader.isPunct('.', 1)) {
        reader.position -= wrapped * 2;
        return undefined;
      }
      const variable = reader.name();
      reader.expect('.');
      const property = reader.name();
      for (let i = 0; i < wrapped; i++) reader.expect(')');
      return { variable, property };
    };
    const operator = (): CypherCondition['operator'] | undefined => {
      if (reader.accept('=')) return 'equals';
      if (reader.accept('=~')) return 'regex';
      if (reader.acceptKeyword('CONTAINS')) return 'contains';
      if (reader.acceptKeyword('IN')) return 'in';
      if (reader.acceptKeyword('STARTS') && reader.acceptKeyword('WITH')) return 'starts-with';
      if (reader.acceptKeyword('ENDS') && reader.acceptKeyword('WITH')) return 'ends-with';
      return undefined;
    };
    const left = side();
    if (left) {
      const op = operator();
      if (!op) return undefined;
      const value = literal(reader);
      if (!reader.done) return undefined;
      return { condition: { ...left, operator: op, value, negated } };
    }
    const value = literal(reader);
    if (!reader.accept('=')) return undefined;
    const right = side();
    if (!right || !reader.done) return undefined;
    return { condition: { ...right, operator: 'equals', value, negated } };
  } catch {
    return undefined;
  }
}

/** The first variable an expression of the RETURN clause names (`x`, `x.name`, `count(x)`). */
function returnVariable(tokens: readonly CypherToken[], known: ReadonlySet<string>): string | undefined {
  return tokens.find((t) => t.kind === 'word' && known.has(t.text))?.text;
}

/**
 * Reads the subset of Cypher that constraint grounding can use: MATCH patterns (labels, relationship
 * types and directions, `{name: …}` maps, named paths), WHERE conjuncts on properties
 * (`=`, CONTAINS, STARTS/ENDS WITH, `=~`, IN, wrapped in toLower() or not, NOT) and label tests,
 * and the variables of RETURN. OPTIONAL MATCH is read as MATCH; WITH, ORDER BY, SKIP, LIMIT and
 * conditions it cannot use are skipped and listed in `ignored`. Throws `CypherSyntaxError` on text
 * it cannot read at all. Call `readOnlyCypherProblem` of `@weft/kit` first: this parser does not look for writes.
 */
export function parseCypher(query: string): ParsedCypher {
  const reader = new Reader(cypherTokens(query).filter((t) => !(t.kind === 'punct' && t.text === ';')));
  const nodes = new Map<string, { labels: Set<string>; properties: Record<string, CypherLiteral> }>();
  const relationships: CypherRelationship[] = [];
  const conditions: CypherCondition[] = [];
  const returns: string[] = [];
  const ignored: string[] = [];
  let counter = 0;
  const anonymous = () => `_n${++counter}`;
  let matched = false;
  while (!reader.done) {
    if (reader.acceptKeyword('OPTIONAL')) {
      ignored.push('OPTIONAL MATCH (read as MATCH)');
      continue;
    }
    if (reader.acceptKeyword('MATCH')) {
      matched = true;
      patterns(reader, nodes, relationships, ignored, anonymous);
      continue;
    }
    if (reader.acceptKeyword('WHERE')) {
      const end = whereEnd(reader);
      const tokens: CypherToken[] = [];
      while (!reader.done && tokens.length < end) tokens.push(reader.next());
      for (const part of splitAt(tokens, 'AND')) {
        const read = conjunct(part);
        if (read?.condition) conditions.push(read.condition);
        else if (read?.label) {
          const known = nodes.get(read.label.variable) ?? { labels: new Set<string>(), properties: {} };
          known.labels.add(read.label.label);
          nodes.set(read.label.variable, known);
        } else ignored.push(`condition "${text(part)}"`);
      }
      continue;
    }
    if (reader.acceptKeyword('RETURN')) {
      reader.acceptKeyword('DISTINCT');
      const tokens: CypherToken[] = [];
      while (!reader.done && !['ORDER', 'SKIP', 'LIMIT', 'UNION'].some((w) => reader.isKeyword(w)))
        tokens.push(reader.next());
      for (const item of splitAtComma(tokens)) {
        const variable = returnVariable(item, new Set(nodes.keys()));
        if (variable && !returns.includes(variable)) returns.push(variable);
      }
      continue;
    }
    if (reader.isKeyword('UNION')) throw new CypherSyntaxError('UNION: only one query is read');
    if (['WITH', 'ORDER', 'SKIP', 'LIMIT', 'UNWIND'].some((w) => reader.isKeyword(w))) {
      const word = reader.next().text.toUpperCase();
      ignored.push(word === 'ORDER' ? 'ORDER BY' : word);
      while (
        !reader.done &&
        !['MATCH', 'OPTIONAL', 'WHERE', 'RETURN', 'WITH', 'ORDER', 'SKIP', 'LIMIT', 'UNWIND', 'UNION'].some(
          (w) => reader.isKeyword(w),
        )
      )
        reader.next();
      continue;
    }
    const token = reader.peek()!;
    throw new CypherSyntaxError(`unexpected "${token.text}" at ${token.at}`);
  }
  if (!matched) throw new CypherSyntaxError('no MATCH clause');
  return {
    nodes: [...nodes].map(([variable, node]) => ({
      variable,
      labels: [...node.labels],
      properties: node.properties,
    })),
    relationships,
    conditions,
    returns,
    ignored,
  };
}

function splitAtComma(tokens: readonly CypherToken[]): CypherToken[][] {
  const parts: CypherToken[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'punct' && ['(', '[', '{'].includes(token.text)) depth++;
    if (token.kind === 'punct' && [')', ']', '}'].includes(token.text)) depth--;
    if (depth === 0 && token.kind === 'punct' && token.text === ',') parts.push([]);
    else parts.at(-1)!.push(token);
  }
  return parts;
}

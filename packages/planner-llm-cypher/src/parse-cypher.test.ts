import { describe, expect, it } from 'vitest';
import { extractCypher } from './extract-cypher.ts';
import { parseCypher } from './parse-cypher.ts';

describe('parseCypher', () => {
  it('reads nodes, labels, name maps, relationship types and directions, and the returned variable', () => {
    const parsed = parseCypher(
      "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}), (p)<-[:compatible_with]-(l), (p)-[:in_category|subcategory_of]-(:category) RETURN DISTINCT p.name LIMIT 10",
    );
    expect(parsed.nodes).toEqual([
      { variable: 'p', labels: ['product'], properties: {} },
      { variable: 'b', labels: ['brand'], properties: { name: 'Nikon' } },
      { variable: 'l', labels: [], properties: {} },
      { variable: '_n1', labels: ['category'], properties: {} },
    ]);
    expect(parsed.relationships).toEqual([
      { types: ['made_by'], direction: 'out', left: 'p', right: 'b', variableLength: false },
      { types: ['compatible_with'], direction: 'in', left: 'p', right: 'l', variableLength: false },
      {
        types: ['in_category', 'subcategory_of'],
        direction: 'both',
        left: 'p',
        right: '_n1',
        variableLength: false,
      },
    ]);
    expect(parsed.returns).toEqual(['p']);
    expect(parsed.ignored).toEqual(['LIMIT']);
  });

  it('reads WHERE conjuncts: equality, text tests in toLower(), IN, regex, NOT, label tests', () => {
    const parsed = parseCypher(
      "MATCH (p)-[:made_by]->(b) WHERE b.name = 'Nikon' AND toLower(p.text) CONTAINS toLower('Wildlife') AND p.name STARTS WITH 'Nikon' AND p:product AND NOT p.text CONTAINS 'used' AND (p.price < 100 OR p.text = 'x') AND b.name IN ['Nikon', 'Canon'] RETURN p",
    );
    expect(parsed.conditions).toEqual([
      { variable: 'b', property: 'name', operator: 'equals', value: 'Nikon', negated: false },
      { variable: 'p', property: 'text', operator: 'contains', value: 'Wildlife', negated: false },
      { variable: 'p', property: 'name', operator: 'starts-with', value: 'Nikon', negated: false },
      { variable: 'p', property: 'text', operator: 'contains', value: 'used', negated: true },
      { variable: 'b', property: 'name', operator: 'in', value: ['Nikon', 'Canon'], negated: false },
    ]);
    expect(parsed.nodes.find((n) => n.variable === 'p')!.labels).toEqual(['product']);
    expect(parsed.ignored).toEqual(['condition "( p . price < 100 OR p . text = "x" )"']);
  });

  it('reads variable-length relationships, named paths and OPTIONAL MATCH loosely', () => {
    const parsed = parseCypher(
      'path = (c:category)<-[:subcategory_of*1..3]-(d) OPTIONAL MATCH (d)<-[:in_category]-(p) RETURN p'.replace(
        /^/,
        'MATCH ',
      ),
    );
    expect(parsed.relationships[0]).toMatchObject({
      types: ['subcategory_of'],
      direction: 'in',
      variableLength: true,
    });
    expect(parsed.ignored).toContain('OPTIONAL MATCH (read as MATCH)');
    expect(parsed.returns).toEqual(['p']);
  });

  it.each([
    ['RETURN 1', /no MATCH clause/],
    ['MATCH (p:product RETURN p', /expected "\)"/],
    ["MATCH (p) WHERE p.name = 'x RETURN p", /unterminated string/],
    ['MATCH (p) RETURN p UNION MATCH (q) RETURN q', /UNION/],
  ])('throws a syntax error on %j', (query, message) => {
    expect(() => parseCypher(query)).toThrow(message);
  });
});

describe('extractCypher', () => {
  it('takes a cypher fence, or the text from the first MATCH, without a trailing semicolon', () => {
    expect(extractCypher('Here:\n```cypher\nMATCH (n) RETURN n;\n```')).toEqual({
      text: 'MATCH (n) RETURN n',
      repairs: ['code fence removed'],
    });
    expect(extractCypher('The query is MATCH (n) RETURN n')).toEqual({
      text: 'MATCH (n) RETURN n',
      repairs: ['text before the query dropped'],
    });
    expect(extractCypher('I do not know.')).toMatchObject({
      problem: expect.stringMatching(/no MATCH clause/),
    });
    // Without MATCH the fence's content is still what the write check reads.
    expect(extractCypher('```cypher\nCREATE (n)\n```')).toMatchObject({
      text: 'CREATE (n)',
      problem: expect.any(String),
    });
  });
});

import { WeftError } from '../errors/weft-error.ts';
import { describe, expect, it } from 'vitest';
import { assertReadOnlyCypher, readOnlyCypherProblem } from './read-only-cypher.ts';

describe('assertReadOnlyCypher', () => {
  it.each([
    'MATCH (n:Node) RETURN n.id',
    "MATCH (n:Node) WHERE n.name = 'CREATE a SET; DROP' RETURN n.set, n.`delete`",
    'MATCH (n:Node) // SET n.x = 1\nRETURN n',
    'MATCH (n) /* DELETE */ RETURN count(*);',
    'CALL show_tables() RETURN *',
    'CALL table_info("Node") RETURN *',
    'UNWIND [1,2] AS x RETURN x',
  ])('lets read-only queries through: %s', (query) => {
    expect(() => assertReadOnlyCypher(query)).not.toThrow();
  });

  it.each([
    "CREATE (n:Node {id: 'x'})",
    'match (n) detach delete n',
    'MATCH (n) SET n.name = 1',
    'MATCH (n) REMOVE n.name',
    'MERGE (n:Node {id: 1})',
    'DROP TABLE Node',
    "COPY Node FROM 'x.csv'",
    'ALTER TABLE Node ADD x INT64',
    'INSTALL fts',
    "LOAD FROM 'x.csv' RETURN *",
    "CALL project_graph('g', ['Node'], ['Edge'])",
    'CALL threads=2',
    'MATCH (n) RETURN n; MATCH (m) RETURN m',
    "ATTACH 'x' AS y (dbtype kuzu)",
    'BEGIN TRANSACTION',
    "EXPORT DATABASE '/tmp/x'",
    'CHECKPOINT',
  ])('rejects: %s', (query) => {
    expect(() => assertReadOnlyCypher(query)).toThrow(
      expect.objectContaining({ code: 'WEFT_WRITE_REJECTED' }),
    );
    try {
      assertReadOnlyCypher(query);
    } catch (error) {
      expect(WeftError.is(error, 'WEFT_WRITE_REJECTED')).toBe(true);
    }
  });
});

// The Cypher a model writes is parsed, never run: no procedure at all, and the reasons are said.
describe("readOnlyCypherProblem with procedures: 'none'", () => {
  it.each([
    ['CREATE (n:product {name: "x"}) RETURN n', /CREATE is not allowed/],
    ['MATCH (n) MERGE (m:brand {name: "x"}) RETURN n', /MERGE/],
    ['MATCH (n:product) SET n.name = "x" RETURN n', /SET/],
    ['MATCH (n) DELETE n', /DELETE/],
    ['MATCH (n) DETACH DELETE n', /DETACH/],
    ['MATCH (n) REMOVE n.text RETURN n', /REMOVE/],
    ['DROP TABLE product', /DROP/],
    ["LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", /LOAD/],
    ['CALL db.labels() YIELD label RETURN label', /CALL runs procedures/],
    ['CALL show_tables() RETURN *', /CALL runs procedures/],
    ['MATCH (n) CALL { MATCH (m) RETURN m } RETURN n', /CALL/],
    ['MATCH (n) FOREACH (x IN [1] | SET n.a = x) RETURN n', /FOREACH/],
    ['match (n) create (m) return n', /CREATE/],
    ['MATCH (n) RETURN n; MATCH (m) RETURN m', /several statements/],
  ])('rejects %j', (query, reason) => {
    expect(readOnlyCypherProblem(query, { procedures: 'none' })).toMatch(reason);
  });

  it.each([
    "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) WHERE p.text CONTAINS 'CREATE a masterpiece' RETURN p",
    'MATCH (p:product) // we never DELETE anything\nRETURN p;',
    'MATCH (p:`SET`) RETURN p.set, p.create',
    'MATCH (p:product) /* MERGE? no */ RETURN p',
  ])('lets read-only %j through', (query) => {
    expect(readOnlyCypherProblem(query, { procedures: 'none' })).toBeUndefined();
  });

  it('rejects for a store what it rejects for a model, but the read-only procedures', () => {
    for (const query of [
      'MATCH (n) FOREACH (x IN [1] | SET n.a = x) RETURN n',
      'INSERT INTO x VALUES (1)',
      'GRANT ALL TO u',
    ])
      expect(readOnlyCypherProblem(query)).toMatch(/is not allowed/);
  });
});

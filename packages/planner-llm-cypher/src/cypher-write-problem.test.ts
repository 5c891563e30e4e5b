import { describe, expect, it } from 'vitest';
import { cypherWriteProblem } from './cypher-write-problem.ts';

describe('cypherWriteProblem', () => {
  it.each([
    ['CREATE (n:product {name: "x"}) RETURN n', /CREATE is not allowed/],
    ['MATCH (n) MERGE (m:brand {name: "x"}) RETURN n', /MERGE/],
    ['MATCH (n:product) SET n.name = "x" RETURN n', /SET/],
    ['MATCH (n) DELETE n', /DELETE/],
    ['MATCH (n) DETACH DELETE n', /DETACH/],
    ['MATCH (n) REMOVE n.text RETURN n', /REMOVE/],
    ['DROP TABLE product', /DROP/],
    ["LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row", /LOAD CSV/],
    ['CALL db.labels() YIELD label RETURN label', /CALL runs procedures/],
    ['MATCH (n) CALL { MATCH (m) RETURN m } RETURN n', /CALL/],
    ['MATCH (n) FOREACH (x IN [1] | SET n.a = x) RETURN n', /FOREACH/],
    ['match (n) create (m) return n', /CREATE/],
    ['MATCH (n) RETURN n; MATCH (m) RETURN m', /several statements/],
  ])('rejects %j', (query, reason) => {
    expect(cypherWriteProblem(query)).toMatch(reason);
  });

  it.each([
    "MATCH (p:product)-[:made_by]->(b:brand {name: 'Nikon'}) WHERE p.text CONTAINS 'CREATE a masterpiece' RETURN p",
    'MATCH (p:product) // we never DELETE anything\nRETURN p;',
    'MATCH (p:`SET`) RETURN p.set, p.create',
    'MATCH (p:product) /* MERGE? no */ RETURN p',
  ])('lets read-only %j through', (query) => {
    expect(cypherWriteProblem(query)).toBeUndefined();
  });
});

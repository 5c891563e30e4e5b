import { WeftError } from '@weft/kit';
import { describe, expect, it } from 'vitest';
import { assertReadOnlyCypher } from './read-only-cypher.ts';

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

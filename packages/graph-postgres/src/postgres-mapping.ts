/**
 * How an SKB maps onto PostgreSQL, in one schema per graph: `nodes` (a dense `off`set 0…n−1 in the
 * bundle's order, which the in-memory adjacency indexes by, as Kùzu's node offsets), `edges` by
 * offsets, and `meta` holding the bundle schema and counts as JSON. Indexes are created after the
 * bulk load: `nodes(off)` primary key, `nodes(id)` unique, `nodes(type)`, `nodes(lower(name))` and
 * `node_aliases(lower(alias))` for name look-ups, `edges(src, type)` and `edges(dst, type)`.
 */
export function tableDdl(schema: string): string[] {
  const s = quoteIdentifier(schema);
  return [
    `CREATE SCHEMA ${s}`,
    `CREATE TABLE ${s}.nodes (off integer NOT NULL, id text NOT NULL, type text NOT NULL, name text NOT NULL, aliases text[] NOT NULL, text text NOT NULL, props text NOT NULL)`,
    `CREATE TABLE ${s}.edges (src integer NOT NULL, dst integer NOT NULL, type text NOT NULL)`,
    `CREATE TABLE ${s}.meta (key text PRIMARY KEY, value text NOT NULL)`,
  ];
}

export function indexDdl(schema: string): string[] {
  const s = quoteIdentifier(schema);
  return [
    `ALTER TABLE ${s}.nodes ADD PRIMARY KEY (off)`,
    `CREATE UNIQUE INDEX nodes_id ON ${s}.nodes (id)`,
    `CREATE INDEX nodes_type ON ${s}.nodes (type)`,
    `CREATE INDEX nodes_name ON ${s}.nodes (lower(name))`,
    `CREATE TABLE ${s}.node_aliases AS SELECT off, unnest(aliases) AS alias FROM ${s}.nodes`,
    `CREATE INDEX node_aliases_alias ON ${s}.node_aliases (lower(alias))`,
    `CREATE INDEX edges_src ON ${s}.edges (src, type)`,
    `CREATE INDEX edges_dst ON ${s}.edges (dst, type)`,
    `ANALYZE ${s}.nodes`,
    `ANALYZE ${s}.edges`,
    `ANALYZE ${s}.node_aliases`,
  ];
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A PostgreSQL array literal of strings (`{"a","b \\"c\\""}`). */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
}

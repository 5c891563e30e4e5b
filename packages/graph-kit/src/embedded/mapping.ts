/**
 * How an SKB maps onto a Kùzu-API engine (Kùzu, LadybugDB): one `Node` table with a `type` column and one `Edge` rel table with a
 * `type` column (see README: per-type tables were 29× slower to load and 15× larger on WordNet),
 * plus a `WeftMeta` table holding the bundle schema as JSON.
 */
export const nodeTableDdl =
  'CREATE NODE TABLE Node(id STRING, type STRING, name STRING, aliases STRING[], text STRING, props STRING, PRIMARY KEY (id))';
export const edgeTableDdl = 'CREATE REL TABLE Edge(FROM Node TO Node, type STRING)';
export const metaTableDdl = 'CREATE NODE TABLE WeftMeta(key STRING, value STRING, PRIMARY KEY (key))';

/** Separates aliases inside one CSV field; split back into `STRING[]` during COPY. */
export const aliasSeparator = '\u001f';

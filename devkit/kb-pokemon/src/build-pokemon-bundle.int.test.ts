import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBundle, validateBundle } from '@weft/skb';
import type { SkbEdge, SkbNode, SkbQuery } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPokemonBundle, type PokemonBundleReport } from './build-pokemon-bundle.ts';
import { pokemonSchema } from './pokemon-schema.ts';
import { namesSpelledIn } from './anchor-mentions.ts';
import { annotatedSetNames, readAnnotations } from './query-sets.ts';
import { candidatesOf, EdgeIndex, candidatesOfPaths, type RelationPath } from '@weft-dev/judged-queries';

const collect = async <T>(records: AsyncIterable<T>) => {
  const all: T[] = [];
  for await (const record of records) all.push(record);
  return all;
};

describe('buildPokemonBundle', () => {
  let directory: string;
  let report: PokemonBundleReport;
  let nodes: Map<string, SkbNode>;
  let edges: SkbEdge[];
  const queries: Record<string, SkbQuery[]> = {};

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'weft-kb-pokemon-'));
    report = await buildPokemonBundle({ out: directory });
    const bundle = await openBundle(directory);
    nodes = new Map((await collect(bundle.nodes())).map((node) => [node.id, node]));
    edges = await collect(bundle.edges());
    for (const set of bundle.querySets) queries[set] = await collect(bundle.queries(set));
    // Build figures for the record (never asserted: speed goals are benchmarks).
    const { statistics } = report;
    console.log(
      [
        `built in ${Math.round(report.elapsedMs)} ms: ${statistics.nodes} nodes, ${statistics.edges} edges`,
        `nodes ${JSON.stringify(statistics.nodesByType)}`,
        `edges ${JSON.stringify(statistics.edgesByType)}`,
        `hubs ${statistics.hubs.map((h) => `${h.name} ${h.degree}`).join(', ')}`,
        `queries ${JSON.stringify(report.queries)}`,
      ].join('\n'),
    );
  });

  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('writes a valid bundle with the schema, the query sets and SOURCE.md', async () => {
    const validation = await validateBundle(directory);
    expect(validation.issues).toEqual([]);
    expect(validation.summary.nodes).toBe(report.statistics.nodes);
    expect(Object.keys(queries).sort()).toEqual(['described', 'hybrid', 'text']);
    const source = await readFile(join(directory, 'SOURCE.md'), 'utf8');
    expect(source).toContain('MIT licence');
    expect(source).toContain(`All ${report.statistics.edges} edges`);
  });

  it('has every node and edge type of the schema, with the learnset hubs', () => {
    for (const type of pokemonSchema.nodeTypes)
      expect(report.statistics.nodesByType[type.name], type.name).toBeGreaterThan(0);
    for (const type of pokemonSchema.edgeTypes)
      expect(report.statistics.edgesByType[type.name], type.name).toBeGreaterThan(0);
    expect(report.statistics.nodesByType.type).toBe(18);
    expect(report.statistics.hubs[0]?.degree).toBeGreaterThan(1000);
  });

  it('answers every query with existing nodes of the target types', () => {
    const targets = new Set(pokemonSchema.targetTypes);
    for (const query of [...queries.hybrid!, ...queries.text!, ...queries.described!]) {
      for (const answer of query.answers) {
        expect(nodes.has(answer), `${query.id}: ${answer}`).toBe(true);
        expect(targets.has(nodes.get(answer)!.type), `${query.id}: ${answer}`).toBe(true);
      }
    }
  });

  for (const set of annotatedSetNames) {
    it(`recomputes every annotated ${set} candidate set from the built edges, gold answers included`, async () => {
      const index = new EdgeIndex(nodes.values(), edges);
      const annotations = new Map((await readAnnotations(set)).map((a) => [a.id, a]));
      expect(queries[set]!.length).toBe(annotations.size);
      for (const query of queries[set]!) {
        const annotation = annotations.get(query.id)!;
        const candidates = candidatesOf(annotation.relational_part, index);
        expect(candidates, query.id).toEqual(annotation.candidates.map((c) => c.id).sort());
        for (const answer of query.answers) expect(candidates, `${query.id}: ${answer}`).toContain(answer);
      }
    });

    it(`follows the gold relation paths of every ${set} query on the built graph to its candidates`, async () => {
      const index = new EdgeIndex(nodes.values(), edges);
      const annotations = new Map((await readAnnotations(set)).map((a) => [a.id, a]));
      for (const query of queries[set]!) {
        const anchors = (query.meta?.anchors ?? []) as string[];
        for (const anchor of anchors) expect(nodes.has(anchor), `${query.id}: ${anchor}`).toBe(true);
        const paths = (query.meta?.paths ?? []) as RelationPath[];
        const answerType = annotations.get(query.id)!.relational_part.answerType;
        for (const path of paths)
          for (const hop of path.hops)
            expect(
              pokemonSchema.edgeTypes.map((t) => t.name),
              query.id,
            ).toContain(hop.edgeType);
        const reached = candidatesOfPaths(paths, answerType, index);
        expect(reached, query.id).toEqual(
          annotations
            .get(query.id)!
            .candidates.map((c) => c.id)
            .sort(),
        );
        for (const answer of query.answers) expect(reached, `${query.id}: ${answer}`).toContain(answer);
      }
    });
  }

  it('never names (or aliases) an anchor of a described query in its question', () => {
    for (const query of queries.described!) {
      for (const anchor of (query.meta?.anchors ?? []) as string[]) {
        const node = nodes.get(anchor)!;
        const spelled = namesSpelledIn(query.query, [node.name, ...(node.aliases ?? [])]);
        expect(spelled, `${query.id} names ${anchor}: ${query.query}`).toEqual([]);
      }
    }
  });

  it('writes gzipped files on request', async () => {
    const gzipped = await mkdtemp(join(tmpdir(), 'weft-kb-pokemon-gz-'));
    try {
      await buildPokemonBundle({ out: gzipped, gzip: true });
      expect(existsSync(join(gzipped, 'nodes.jsonl.gz'))).toBe(true);
      expect(existsSync(join(gzipped, 'queries', 'hybrid.jsonl.gz'))).toBe(true);
    } finally {
      await rm(gzipped, { recursive: true, force: true });
    }
  });
});

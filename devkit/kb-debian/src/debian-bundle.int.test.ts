import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkbNode } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateAptLists, readAptList } from './apt-lists.ts';
import { buildDebianBundle, type DebianBundleReport } from './build-debian-bundle.ts';
import { extractDebianGraph, translationIndex } from './debian-graph.ts';
import { annotatedSetNames, readAnnotations, readQuerySet } from './query-sets.ts';
import { candidatesOf, EdgeIndex, candidatesOfPaths, type RelationPath } from '@weft-dev/judged-queries';
import { parseStanzas } from './stanzas.ts';

const lists = locateAptLists();
const missing = !lists?.packages || !lists.translation;
if (missing)
  console.warn(
    '[kb-debian] skipping the bundle checks: apt lists of Debian bookworm main (Packages and Translation-en) are missing in /var/lib/apt/lists (sudo apt-get update -o Acquire::Languages=en)',
  );

// Every query line against the graph built from the real apt lists: answers and anchors exist, every
// relation path reaches exactly the annotated candidates, answers are among them, and no described
// query spells its anchor's name.
describe.skipIf(missing)('the query sets on the graph of bookworm main', () => {
  let nodes: Map<string, SkbNode>;
  let index: EdgeIndex;

  beforeAll(async () => {
    const files = lists!;
    const graph = extractDebianGraph(
      parseStanzas(await readAptList(files.packages)),
      translationIndex(parseStanzas(await readAptList(files.translation!))),
    );
    nodes = new Map(graph.nodes.map((node) => [node.id, node]));
    index = new EdgeIndex(graph.nodes, graph.edges);
  }, 300_000);

  it('has every answer of both sets as a package node', async () => {
    for (const set of ['described', 'text', 'hybrid']) {
      for (const query of await readQuerySet(set)) {
        for (const answer of query.answers)
          expect(nodes.get(answer)?.type, `${query.id}: ${answer}`).toBe('package');
      }
    }
  });

  it('follows every relation path of the described and hybrid sets to exactly the annotated candidates', async () => {
    for (const set of annotatedSetNames) {
      const annotations = await readAnnotations(set);
      for (const [i, query] of (await readQuerySet(set)).entries()) {
        const annotation = annotations[i]!;
        for (const anchor of (query.meta?.anchors ?? []) as string[])
          expect(nodes.has(anchor), `${query.id}: ${anchor}`).toBe(true);
        const candidates = annotation.candidates.map((c) => c.id).sort();
        expect(candidatesOf(annotation.relational_part, index), query.id).toEqual(candidates);
        expect(candidatesOfPaths(query.meta?.paths as RelationPath[], 'package', index), query.id).toEqual(
          candidates,
        );
        for (const answer of query.answers) expect(candidates, query.id).toContain(answer);
      }
    }
  });

  it('never names an anchor of a described query', async () => {
    const generic = new Set(['debian', 'team', 'maintainers', 'group', 'packaging', 'the', 'and', 'for']);
    for (const query of await readQuerySet('described')) {
      const words = new Set(query.query.toLowerCase().match(/[a-z0-9+]+/g));
      for (const anchor of (query.meta?.anchors ?? []) as string[]) {
        const name = nodes.get(anchor)!.name;
        const tokens = (name.includes('::') ? name.split('::').slice(1).join(' ') : name)
          .toLowerCase()
          .split(/[^a-z0-9+]+/)
          .map((t) => t.replace(/^lib/, '').replace(/[0-9.]+$/, ''))
          .filter((t) => t.length >= 3 && !generic.has(t));
        for (const token of tokens)
          expect(words.has(token), `${query.id} names ${anchor} ("${token}")`).toBe(false);
      }
    }
  });
});

describe.skipIf(missing || !existsSync('/usr/lib/apt/apt-helper'))('buildDebianBundle', () => {
  let directory: string;
  let report: DebianBundleReport;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'weft-kb-debian-'));
    report = await buildDebianBundle({ out: directory });
    console.log(
      `built in ${Math.round(report.elapsedMs)} ms: ${report.statistics.nodes} nodes, ${report.statistics.edges} edges, ${JSON.stringify(report.statistics.nodesByType)}`,
    );
  }, 600_000);

  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('writes a valid bundle (the builder validates it) with both query sets and SOURCE.md', async () => {
    expect(report.queries).toMatchObject({
      described: expect.any(Number),
      text: expect.any(Number),
      hybrid: expect.any(Number),
    });
    expect(report.longDescriptions).toBeGreaterThan(0.9 * (report.statistics.nodesByType.package ?? 0));
    const source = await readFile(join(directory, 'SOURCE.md'), 'utf8');
    expect(source).toContain('Debian archive metadata');
    expect(source).toContain(`All ${report.statistics.edges} edges`);
  });
});

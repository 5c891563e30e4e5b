import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toySkb } from '@weft/core/test';
import { afterEach, describe, expect, it } from 'vitest';
import { BundleWriter, writeBundle } from './bundle-writer.ts';
import { openBundle } from './open-bundle.ts';
import { formatSkbIssue } from './skb-issue.ts';
import { temporaryDirectory } from './test-helpers.ts';
import { validateBundle } from './validate-bundle.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

async function toyBundle(gzip = false) {
  const dir = await temporaryDirectory();
  cleanups.push(dir.remove);
  const skb = toySkb();
  await writeBundle(
    dir.path,
    {
      ...skb,
      queries: {
        test: [
          { id: 'q1', query: 'a Nikon DSLR for wildlife', answers: ['p:d850'], split: 'test' },
          {
            id: 'q2',
            query: 'a telephoto lens',
            answers: ['p:nikkor', 'p:ef'],
            split: 'train',
            meta: { template: 'x' },
          },
        ],
      },
    },
    { gzip },
  );
  return { dir: dir.path, skb };
}

describe('writeBundle + openBundle', () => {
  it.each([false, true])('round-trips a bundle (gzip %s)', async (gzip) => {
    const { dir, skb } = await toyBundle(gzip);
    const bundle = await openBundle(dir);
    expect(bundle.schema).toEqual(skb.schema);
    expect(bundle.files.nodes!.endsWith(gzip ? '.jsonl.gz' : '.jsonl')).toBe(true);
    const nodes = [];
    for await (const node of bundle.nodes()) nodes.push(node);
    expect(nodes).toEqual(skb.nodes);
    const edges = [];
    for await (const edge of bundle.edges()) edges.push(edge);
    expect(edges).toEqual(skb.edges);
    expect(bundle.querySets).toEqual(['test']);
    const queries = [];
    for await (const query of bundle.queries('test')) queries.push(query);
    expect(queries.map((q) => q.id)).toEqual(['q1', 'q2']);
    // Streams are re-readable.
    let again = 0;
    for await (const _ of bundle.nodes()) again++;
    expect(again).toBe(skb.nodes.length);
  });

  it('reading a malformed line throws with file:line', async () => {
    const { dir } = await toyBundle();
    await appendFile(join(dir, 'nodes.jsonl'), '{"id": "x", "type": \n');
    const bundle = await openBundle(dir);
    const read = async () => {
      for await (const _ of bundle.nodes()) {
        // drain
      }
    };
    await expect(read()).rejects.toThrow(/nodes\.jsonl:16: malformed JSON/);
  });
});

describe('validateBundle', () => {
  it('accepts a valid bundle and summarises it', async () => {
    const { dir, skb } = await toyBundle(true);
    const report = await validateBundle(dir);
    expect(report.issues).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.summary.nodes).toBe(skb.nodes.length);
    expect(report.summary.edges).toBe(skb.edges.length);
    expect(report.summary.nodesByType).toEqual({ brand: 3, category: 4, product: 8 });
    expect(report.summary.edgesByType).toEqual({
      made_by: 6,
      in_category: 7,
      compatible_with: 3,
      subcategory_of: 2,
    });
    expect(report.summary.queries).toEqual({ test: 2 });
  });

  it('reports every class of problem with file, line and field, and counts them', async () => {
    const dir = await temporaryDirectory();
    cleanups.push(dir.remove);
    const skb = toySkb();
    const writer = new BundleWriter(dir.path, skb.schema);
    for (const node of skb.nodes) await writer.writeNode(node); // lines 1–15
    await writer.writeNode({ id: 'p:d850', type: 'product', name: 'again', text: '' }); // 16 duplicate
    await writer.writeNode({ id: 'x:1', type: 'gadget', name: 'G', text: '' }); // 17 undeclared type
    await writer.writeNode({ id: 'x:2', type: 'product', text: '' }); // 18 missing name
    await writer.writeNode({ id: 'x:3', type: 'product', name: 'N', text: 't', aliases: 'nope' }); // 19 bad aliases
    for (const edge of skb.edges) await writer.writeEdge(edge); // 1–18
    await writer.writeEdge({ src: 'p:d850', type: 'made_by', dst: 'b:ghost' }); // 19 dangling
    await writer.writeEdge({ src: 'p:d850', type: 'likes', dst: 'b:nikon' }); // 20 undeclared edge type
    await writer.writeEdge({ src: 'b:nikon', type: 'made_by', dst: 'p:d850' }); // 21 from/to contradict
    await writer.writeQuery('qs', { id: 'p:q2', query: 'q', answers: ['p:q2'], split: 'test' }); // 1 id = node id
    await writer.writeQuery('qs', { id: 'q2', query: 'q', answers: [], split: 'test' }); // 2 no answers
    await writer.writeQuery('qs', { id: 'q3', query: 'q', answers: ['b:nikon', 'zz'], split: 'test' }); // 3 not target, unknown
    await writer.writeQuery('qs', { id: 'q4', query: 'q', split: 'dev' }); // 4 missing answers, bad split
    await writer.close();
    await appendFile(join(dir.path, 'edges.jsonl'), '{"src": "p:d850", "type"\n'); // 22 broken JSON

    const report = await validateBundle(dir.path);
    expect(report.ok).toBe(false);
    const lines = report.issues.map(formatSkbIssue);
    const find = (code: string) => report.issues.filter((i) => i.code === code);
    expect(find('DUPLICATE_NODE')).toEqual([
      expect.objectContaining({ file: 'nodes.jsonl', line: 16, field: 'id' }),
    ]);
    expect(find('UNDECLARED_NODE_TYPE')).toEqual([
      expect.objectContaining({ file: 'nodes.jsonl', line: 17, field: 'type' }),
    ]);
    expect(find('MISSING_FIELD').map((i) => `${i.file}:${i.line}:${i.field}`)).toEqual([
      'nodes.jsonl:18:name',
      'queries/qs.jsonl:4:answers',
    ]);
    expect(find('BAD_FIELD').map((i) => `${i.file}:${i.line}:${i.field}`)).toEqual([
      'nodes.jsonl:19:aliases',
      'queries/qs.jsonl:4:split',
    ]);
    expect(find('DANGLING_EDGE')).toEqual([
      expect.objectContaining({ file: 'edges.jsonl', line: 19, field: 'dst' }),
    ]);
    expect(find('UNDECLARED_EDGE_TYPE')).toEqual([expect.objectContaining({ line: 20 })]);
    expect(find('EDGE_TYPE_MISMATCH')).toEqual([expect.objectContaining({ line: 21 })]);
    expect(find('EDGE_TYPE_MISMATCH')[0]!.message).toContain('product → brand');
    expect(find('BAD_JSON')).toEqual([expect.objectContaining({ file: 'edges.jsonl', line: 22 })]);
    expect(find('QUERY_ID_IS_NODE_ID')).toEqual([
      expect.objectContaining({ file: 'queries/qs.jsonl', line: 1 }),
    ]);
    expect(find('MISSING_ANSWERS')).toEqual([expect.objectContaining({ line: 2 })]);
    expect(find('ANSWER_NOT_TARGET')).toEqual([expect.objectContaining({ line: 3, field: 'answers[0]' })]);
    expect(find('UNKNOWN_ANSWER')).toEqual([expect.objectContaining({ line: 3, field: 'answers[1]' })]);
    expect(report.totalIssues).toBe(report.issues.length);
    expect(lines).toContain(
      'edges.jsonl:19: [dst] dst "b:ghost" is not a node id of the bundle (DANGLING_EDGE)',
    );
  });

  it('strict mode stops at the first problem', async () => {
    const { dir } = await toyBundle();
    await appendFile(
      join(dir, 'nodes.jsonl'),
      'not json\n{"id": "p:d850", "type": "product", "name": "", "text": ""}\n',
    );
    const strict = await validateBundle(dir, { strict: true });
    expect(strict.stopped).toBe(true);
    expect(strict.totalIssues).toBe(1);
    expect(strict.issues[0]).toMatchObject({ code: 'BAD_JSON', line: 16 });
    const full = await validateBundle(dir);
    expect(full.stopped).toBe(false);
    expect(full.counts).toEqual({ BAD_JSON: 1, DUPLICATE_NODE: 1 });
  });

  it('keeps a bounded number of examples but counts everything', async () => {
    const { dir } = await toyBundle();
    await appendFile(join(dir, 'edges.jsonl'), '{"src": "a", "type": "made_by", "dst": "b"}\n'.repeat(50));
    const report = await validateBundle(dir, { maxIssuesPerCode: 5 });
    expect(report.counts.DANGLING_EDGE).toBe(50);
    expect(report.issues).toHaveLength(5);
  });

  it('reports a broken schema by field and missing files', async () => {
    const dir = await temporaryDirectory();
    cleanups.push(dir.remove);
    await writeFile(
      join(dir.path, 'schema.json'),
      JSON.stringify({
        name: 's',
        version: 1,
        nodeTypes: [{ name: 'a' }],
        edgeTypes: [{ name: 'r', from: 'a', to: 'b' }],
      }),
    );
    const report = await validateBundle(dir.path);
    expect(report.issues).toEqual([
      expect.objectContaining({ code: 'BAD_SCHEMA', field: 'edgeTypes[0].to' }),
      expect.objectContaining({ code: 'BAD_FILE', file: 'nodes.jsonl' }),
      expect.objectContaining({ code: 'BAD_FILE', file: 'edges.jsonl' }),
    ]);
  });
});

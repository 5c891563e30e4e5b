import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { toySkb } from '@weft/core/test';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChangeSetTarget, readChangeSet } from './read-change-set.ts';
import { formatSkbIssue } from './skb-issue.ts';
import { temporaryDirectory } from './test-helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

/** The toy SKB as the store a change set is checked against. */
function toyTarget(): ChangeSetTarget {
  const skb = toySkb();
  const types = new Map(skb.nodes.map((node) => [node.id, node.type]));
  return { schema: skb.schema, nodeTypes: async (ids) => ids.map((id) => types.get(id)) };
}

async function changeSet(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await temporaryDirectory('weft-changes-');
  cleanups.push(dir.remove);
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir.path, name), content);
  return dir.path;
}

const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');

describe('readChangeSet', () => {
  it('reads upserts and deletions (gzipped files too) in the order they are applied', async () => {
    const dir = await changeSet({
      'nodes.jsonl': lines(
        { id: 'p:new', type: 'product', name: 'New lens', text: 'a new lens' },
        { id: 'p:d850', type: 'product', name: 'Nikon D850 II', text: 'renamed' },
      ),
      'edges.jsonl.gz': gzipSync(lines({ src: 'p:new', type: 'made_by', dst: 'b:nikon' })),
      'deletions.jsonl': lines(
        { node: 'p:q2' },
        { edge: { src: 'p:d850', type: 'made_by', dst: 'b:nikon' } },
      ),
      'schema.json': JSON.stringify(toySkb().schema),
    });
    const report = await readChangeSet(dir, toyTarget());
    expect(report.issues.map(formatSkbIssue)).toEqual([]);
    expect(report.changes).toEqual({
      nodes: [
        { id: 'p:new', type: 'product', name: 'New lens', text: 'a new lens' },
        { id: 'p:d850', type: 'product', name: 'Nikon D850 II', text: 'renamed' },
      ],
      edges: [{ src: 'p:new', type: 'made_by', dst: 'b:nikon' }],
      deleteNodes: ['p:q2'],
      deleteEdges: [{ src: 'p:d850', type: 'made_by', dst: 'b:nikon' }],
    });
  });

  it('reports every problem as file:line, refuses schema changes, and yields no changes', async () => {
    const schema = { ...toySkb().schema, nodeTypes: [...toySkb().schema.nodeTypes, { name: 'accessory' }] };
    const dir = await changeSet({
      'nodes.jsonl': lines(
        { id: 'p:new', type: 'product', name: 'a', text: '' },
        { id: 'p:new', type: 'product', name: 'b', text: '' },
        { id: 'x:strap', type: 'accessory', name: 'strap', text: '' },
        { id: 'b:nikon', type: 'product', name: 'Nikon', text: '' },
      ),
      'edges.jsonl': lines(
        { src: 'p:new', type: 'made_by', dst: 'p:q2' },
        { src: 'p:new', type: 'sold_with', dst: 'p:eos' },
        { src: 'p:new', type: 'made_by', dst: 'c:dslr' },
      ),
      'deletions.jsonl': `${lines({ node: 'p:q2' }, { node: 'p:q2' }, { nodes: 'p:eos' })}\nnot json`,
      'schema.json': JSON.stringify(schema),
    });
    const report = await readChangeSet(dir, toyTarget());
    expect(report.ok).toBe(false);
    expect(report.changes).toBeUndefined();
    const shown = report.issues.map(formatSkbIssue);
    const expected = [
      'schema.json: [nodeTypes] ',
      'deletions.jsonl:2: this node "p:q2" is deleted twice (DUPLICATE_CHANGE)',
      'deletions.jsonl:3: a deletion must be {"node": "<id>"} or {"edge": {"src", "type", "dst"}} (BAD_FIELD)',
      'deletions.jsonl:4: malformed JSON',
      'nodes.jsonl:2: [id] node "p:new" is upserted twice (DUPLICATE_CHANGE)',
      'nodes.jsonl:3: [type] node type "accessory" is not declared',
      'nodes.jsonl:4: [type] node "b:nikon" is a brand in the store; an upsert cannot change its type',
      'edges.jsonl:1: [dst] dst "p:q2" is neither a node of the store (kept by this change set) nor upserted by it (DANGLING_EDGE)',
      'edges.jsonl:2: [type] edge type "sold_with" is not declared',
      'edges.jsonl:3: [type] "made_by" edge from product to category contradicts the schema',
    ];
    for (const line of expected)
      expect(
        shown.some((issue) => issue.startsWith(line)),
        line,
      ).toBe(true);
    expect(report.counts.SCHEMA_CHANGE).toBe(1);

    const strict = await readChangeSet(dir, toyTarget(), { strict: true });
    expect(strict.totalIssues).toBe(1);
    expect(strict.stopped).toBe(true);
  });

  it('refuses a folder without any change file', async () => {
    const report = await readChangeSet(await changeSet({ 'README.md': 'nothing' }), toyTarget());
    expect(report.issues.map(formatSkbIssue)).toEqual([
      'nodes.jsonl: a change set needs nodes.jsonl, edges.jsonl or deletions.jsonl (or their .gz); none is here (BAD_FILE)',
    ]);
  });
});

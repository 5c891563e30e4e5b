import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openBundle, writeBundle, writeSyntheticBundle } from '@weft/skb';
import type { SkbEdge, SkbNode } from '@weft/spec';

/** Two bundles and the change set that turns the first into the second, for `weft update` tests. */
export interface ChangeSetFixture {
  /** Bundle A. */
  readonly before: string;
  /** Bundle B: A with the changes applied. */
  readonly after: string;
  /** The change set A → B. */
  readonly changes: string;
  /** Queries whose answers the change moves: names and text of changed, new and renamed nodes. */
  readonly queries: readonly string[];
  /** A node that the change set deletes, and one it adds. */
  readonly deleted: string;
  readonly added: string;
}

const key = (edge: SkbEdge) => `${edge.src}\u0000${edge.type}\u0000${edge.dst}`;
const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

/**
 * Writes under `root` a small synthetic scholarly KB (A), a change set that deletes nodes (hubs
 * among them), renames nodes (so their neighbours' relation text changes), rewrites texts, adds
 * nodes with edges and deletes and adds edges, and B, A with those changes (kept nodes in A's order,
 * new ones after them).
 */
export async function writeChangeSetFixture(
  root: string,
  nodeCount = 400,
  edgeCount = 1500,
): Promise<ChangeSetFixture> {
  const synthetic = join(root, 'synthetic');
  await writeSyntheticBundle({ directory: synthetic, nodes: nodeCount, edges: edgeCount, seed: 7 });
  const opened = await openBundle(synthetic);
  const nodes: SkbNode[] = [];
  for await (const node of opened.nodes()) nodes.push(node);
  // The generator may draw one edge twice; a change set's edges are a set, so the fixture's are too.
  const edges = new Map<string, SkbEdge>();
  // No node gets more neighbours of one type than relation text keeps (20 in, 50 out; the change set
  // adds at most 2 more): which ones a capped group keeps follows the bundle's edge order at ingest
  // and the graph's stored order after an update, which are not the same (docs/skb-format.md).
  const degree = new Map<string, number>();
  const within = (node: string, direction: string, type: string, limit: number) =>
    (degree.get(`${node} ${direction} ${type}`) ?? 0) < limit;
  for await (const edge of opened.edges()) {
    if (
      edges.has(key(edge)) ||
      !within(edge.src, 'out', edge.type, 40) ||
      !within(edge.dst, 'in', edge.type, 15)
    )
      continue;
    for (const [node, direction] of [
      [edge.src, 'out'],
      [edge.dst, 'in'],
    ] as const)
      degree.set(
        `${node} ${direction} ${edge.type}`,
        (degree.get(`${node} ${direction} ${edge.type}`) ?? 0) + 1,
      );
    edges.set(key(edge), edge);
  }
  const before = join(root, 'A');
  await writeBundle(before, { schema: opened.schema, nodes, edges: [...edges.values()] });

  const byId = new Map(nodes.map((node) => [node.id, node]));
  const deleteNodes = ['paper:10', 'paper:11', 'paper:12', 'author:5', 'author:6', 'field:1'].filter((id) =>
    byId.has(id),
  );
  const deleted = new Set(deleteNodes);
  const renamed = ['author:0', 'author:1', 'field:0', 'venue:0', 'paper:20'].map((id, i) => ({
    ...byId.get(id)!,
    name: `Renamed ${['Quorvath', 'Zelminda', 'Trabulon', 'Vexaria', 'Ostrakine'][i]}`,
  }));
  const rewritten = Array.from({ length: 10 }, (_, i) => ({
    ...byId.get(`paper:${30 + i}`)!,
    text: `Rewritten abstract ${i} about glimmerstone ${i % 3 === 0 ? 'lattices' : 'harmonics'} and their vexaria.`,
  }));
  const authors = nodes.filter((n) => n.type === 'author' && !deleted.has(n.id));
  const papers = nodes.filter((n) => n.type === 'paper' && !deleted.has(n.id));
  const added: SkbNode[] = Array.from({ length: 10 }, (_, i) => ({
    id: `paper:new-${i}`,
    type: 'paper',
    name: `Fresh findings on glimmerstone number ${i}`,
    text: `A new paper on glimmerstone ${i % 2 === 0 ? 'lattices' : 'harmonics'} by a new lab.`,
    props: { year: 2026 },
  }));
  added.push({
    id: 'author:new-0',
    type: 'author',
    name: 'Ysolde Marrowind',
    text: 'Researcher on glimmerstone.',
  });
  const newEdges: SkbEdge[] = [
    ...added.slice(0, 10).flatMap((paper, i) => [
      { src: paper.id, type: 'written_by', dst: i % 2 === 0 ? 'author:new-0' : authors[i]!.id },
      { src: paper.id, type: 'cites', dst: papers[i * 3]!.id },
      { src: papers[40 + i]!.id, type: 'cites', dst: paper.id },
    ]),
    ...Array.from({ length: 10 }, (_, i) => ({
      src: papers[60 + i]!.id,
      type: 'cites',
      dst: papers[100 + i]!.id,
    })),
  ].filter((edge) => !edges.has(key(edge)));
  const keptEdges = [...edges.values()].filter((e) => !deleted.has(e.src) && !deleted.has(e.dst));
  const deleteEdges = keptEdges.filter((e) => e.type === 'cites' || e.type === 'written_by').slice(0, 12);
  const removedEdges = new Set(deleteEdges.map(key));

  const changes = join(root, 'changes');
  await mkdir(changes, { recursive: true });
  await writeFile(join(changes, 'nodes.jsonl'), jsonl([...renamed, ...rewritten, ...added]));
  await writeFile(join(changes, 'edges.jsonl'), jsonl(newEdges));
  await writeFile(
    join(changes, 'deletions.jsonl'),
    jsonl([...deleteNodes.map((node) => ({ node })), ...deleteEdges.map((edge) => ({ edge }))]),
  );

  const replaced = new Map([...renamed, ...rewritten].map((node) => [node.id, node]));
  const after = join(root, 'B');
  await writeBundle(after, {
    schema: opened.schema,
    nodes: [...nodes.filter((n) => !deleted.has(n.id)).map((n) => replaced.get(n.id) ?? n), ...added],
    edges: [...keptEdges.filter((e) => !removedEdges.has(key(e))), ...newEdges],
  });
  const queries = [
    ...renamed.map((n) => n.name),
    ...rewritten.slice(0, 5).map((n) => n.text),
    ...added.map((n) => n.name),
    'glimmerstone lattices',
    'papers by Ysolde Marrowind',
    ...authors.slice(0, 15).map((n) => n.name),
    ...papers.slice(0, 15).map((n) => n.name),
    ...papers.slice(15, 25).map((n) => n.text.split(' ').slice(0, 10).join(' ')),
    ...deleteNodes.map((id) => byId.get(id)!.name),
  ];
  return { before, after, changes, queries, deleted: 'paper:10', added: 'paper:new-0' };
}

/**
 * A ranking compared across stores: candidates of equal score listed by id (their order follows
 * the index's row order, which an update changes — a rewritten row moves to the end — and which no
 * stack promises), and, when the list is full, its last group of equal scores dropped (the cut may
 * keep different members of it). Scores rounded to 5 decimals.
 */
export function comparableRanking(
  ranking: readonly { readonly id: string; readonly score: number }[],
  limit: number,
): { id: string; score: number }[] {
  const scored = ranking
    .map((c) => ({ id: c.id, score: Math.round(c.score * 1e5) / 1e5 }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const last = scored.at(-1)?.score;
  return scored.length < limit ? scored : scored.filter((c) => c.score !== last);
}

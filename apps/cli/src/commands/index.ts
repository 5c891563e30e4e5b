import type { LazyCommand } from '../command.ts';

/**
 * Every `weft` command, in the order `weft --help` lists them. Each module is imported only when
 * its command runs or shows its help: importing them all loaded LanceDB, the stacks and the server
 * before anything ran (`weft --version` took 1.2 s). The summaries are repeated here for
 * `weft --help`; `index.test.ts` keeps them equal to the modules'. Add new commands here.
 */
export const commands: readonly LazyCommand[] = [
  {
    name: 'demo',
    summary:
      'Run the WordNet demo: build the store on first run, example queries with explanations, bm25 against the default stack',
    load: async () => (await import('./demo.ts')).demoCommand,
  },
  {
    name: 'ingest',
    summary: 'Validate an SKB bundle and build a store from it (graph, text and vector indexes)',
    load: async () => (await import('./ingest.ts')).ingestCommand,
  },
  {
    name: 'update',
    summary: 'Apply a change set (node/edge upserts, deletions) to a store in place, atomically',
    load: async () => (await import('./update.ts')).updateCommand,
  },
  {
    name: 'info',
    summary: 'Describe a store: version, counts per node and edge type, indexes, embedder, trained artifacts',
    load: async () => (await import('./info.ts')).infoCommand,
  },
  {
    name: 'query',
    summary: 'Rank the nodes of a store for a question, optionally explaining the plan and the paths',
    load: async () => (await import('./query.ts')).queryCommand,
  },
  {
    name: 'ask',
    summary:
      'Answer a question from a store, citing the nodes it rests on (needs --model; without one, prints the evidence)',
    load: async () => (await import('./ask.ts')).askCommand,
  },
  {
    name: 'eval',
    summary:
      'Evaluate stacks on a query set of a bundle (Hit@1, Hit@5, Recall@20, MRR, latency), bm25 always included',
    load: async () => (await import('./eval.ts')).evalCommand,
  },
  {
    name: 'train',
    summary: "Fit the stacks' learned parts on the train split of query sets (settings chosen on val)",
    load: async () => (await import('./train.ts')).trainCommand,
  },
  {
    name: 'serve',
    summary:
      'Serve a store over HTTP (query, stacks, nodes, OpenAPI) with the explorer, a page that draws the paths',
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  {
    name: 'mcp',
    summary:
      'Serve a store to AI agents over MCP (stdio): tools search, get_node, neighbors, and ask with --model',
    load: async () => (await import('./mcp.ts')).mcpCommand,
  },
  {
    name: 'synth-queries',
    summary: 'Synthesise STaRK-style query sets (relational and text-only, train/val/test) from a store',
    load: async () => (await import('./synth-queries.ts')).synthQueriesCommand,
  },
  {
    name: 'synth-kb',
    summary: 'Write a synthetic SKB bundle (typed scholarly graph with abstracts) of a given size',
    load: async () => (await import('./synth-kb.ts')).synthKbCommand,
  },
];

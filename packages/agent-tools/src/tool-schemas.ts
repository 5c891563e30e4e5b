import { z } from 'zod';

/** The longest query or question the tools take (as `weft serve`'s `POST /query`). */
export const maxQueryChars = 1000;
/** Most results `search` and `neighbors` return. */
export const maxToolLimit = 100;

/** `search`: rank the store's nodes for a question with a retrieval stack. */
export const searchInput = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(maxQueryChars)
    .describe('What to look for, in plain words: a question or a description of the nodes wanted.'),
  stack: z
    .string()
    .min(1)
    .optional()
    .describe('Retrieval stack to rank with (e.g. "bm25", "default"); omit for the server\'s default.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(maxToolLimit)
    .optional()
    .describe('How many ranked nodes to return (default 10).'),
});

/** `get_node`: one node's document and its edges by type. */
export const getNodeInput = z.object({
  id: z.string().min(1).describe('A node id exactly as returned by search or neighbors (e.g. "p:nikkor").'),
});

/** `neighbors`: the nodes one edge away, optionally over one edge type and direction. */
export const neighborsInput = z.object({
  id: z.string().min(1).describe('The node to start from (an id returned by search, get_node or neighbors).'),
  edgeType: z
    .string()
    .min(1)
    .optional()
    .describe('Follow only edges of this type (get_node lists the types a node has); omit for every type.'),
  direction: z
    .enum(['out', 'in', 'both'])
    .optional()
    .describe('"out": edges from the node, "in": edges into it, "both" (default).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(maxToolLimit)
    .optional()
    .describe('How many neighbours to return (default 25).'),
});

/** `ask`: a grounded answer that cites the nodes it rests on. */
export const askInput = z.object({
  question: z.string().trim().min(1).max(maxQueryChars).describe('The question to answer from the store.'),
  stack: z
    .string()
    .min(1)
    .optional()
    .describe('Retrieval stack that gathers the evidence; omit for the default.'),
});

export type SearchInput = z.infer<typeof searchInput>;
export type GetNodeInput = z.infer<typeof getNodeInput>;
export type NeighborsInput = z.infer<typeof neighborsInput>;
export type AskInput = z.infer<typeof askInput>;

/** The tools' names and what a model reads to choose one: the same for MCP and the AI SDK. */
export const toolDescriptions = {
  search:
    'Search the knowledge graph: ranks its nodes for a question or description by their documents and their typed relations. Returns for each node its id, name, type, score and one line of why it matched (the graph path that reached it, or the matching text of its document). Start here; then use get_node or neighbors on the ids.',
  get_node:
    'Read one node of the knowledge graph by id: its name, type, aliases, properties, its full document, and its edges grouped by edge type and direction with a count and the first neighbours of each. Use it to check a search result or to see which relations a node has.',
  neighbors:
    'List the nodes connected to a node, optionally over one edge type (as listed by get_node) and one direction ("out": edges from the node, "in": edges into it). Use it to follow relations: parts, kinds, makers, categories.',
  ask: 'Answer a question from the knowledge graph with a language model, citing the node ids the answer rests on; each citation is checked against the evidence retrieved. Prefer search when you want the nodes themselves.',
} as const;

export type WeftToolName = keyof typeof toolDescriptions;

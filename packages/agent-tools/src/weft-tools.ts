import { type ToolSet, tool } from 'ai';
import { askInput, getNodeInput, neighborsInput, searchInput, toolDescriptions } from './tool-schemas.ts';
import {
  createWeftOperations,
  type WeftOperations,
  type WeftToolsOptions,
  type WeftToolsStore,
} from './weft-operations.ts';

/**
 * Weft as AI SDK tools for `generateText({ tools })` / `streamText`: `search`, `get_node`,
 * `neighbors`, and `ask` when `options.createOptions.languageModel` is set. Each has a zod input
 * schema; a bad argument or an unknown id throws (a `WeftError`), which the AI SDK hands back to the
 * model as the tool's error.
 */
export function weftTools(store: WeftToolsStore | WeftOperations, options: WeftToolsOptions = {}): ToolSet {
  const operations = 'search' in store ? store : createWeftOperations(store, options);
  const tools: ToolSet = {
    search: tool({
      description: toolDescriptions.search,
      inputSchema: searchInput,
      execute: (input, { abortSignal }) => operations.search(input, abortSignal ? { abortSignal } : {}),
    }),
    get_node: tool({
      description: toolDescriptions.get_node,
      inputSchema: getNodeInput,
      execute: (input, { abortSignal }) => operations.getNode(input, abortSignal ? { abortSignal } : {}),
    }),
    neighbors: tool({
      description: toolDescriptions.neighbors,
      inputSchema: neighborsInput,
      execute: (input, { abortSignal }) => operations.neighbors(input, abortSignal ? { abortSignal } : {}),
    }),
  };
  if (operations.model)
    tools.ask = tool({
      description: toolDescriptions.ask,
      inputSchema: askInput,
      execute: (input, { abortSignal }) => operations.ask(input, abortSignal ? { abortSignal } : {}),
    });
  return tools;
}

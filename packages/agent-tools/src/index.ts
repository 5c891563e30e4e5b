export {
  type AskInput,
  askInput,
  type GetNodeInput,
  getNodeInput,
  maxQueryChars,
  maxToolLimit,
  type NeighborsInput,
  neighborsInput,
  type SearchInput,
  searchInput,
  toolDescriptions,
  type WeftToolName,
} from './tool-schemas.ts';
export { createWeftMcpServer, registerWeftTools, weftMcpVersion } from './weft-mcp-server.ts';
export {
  type AskOutput,
  type CallOptions,
  createWeftOperations,
  type EdgeGroup,
  type GetNodeOutput,
  matchedText,
  type NeighbourRow,
  type NeighborsOutput,
  type SearchOutput,
  type SearchResultRow,
  type WeftOperations,
  type WeftToolsOptions,
  type WeftToolsStore,
} from './weft-operations.ts';
export { weftTools } from './weft-tools.ts';

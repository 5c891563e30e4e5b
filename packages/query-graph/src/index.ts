export {
  type QueryGraph,
  type QueryGraphOptions,
  type QueryGraphReading,
  searchQueryGraphs,
} from './query-graphs.ts';

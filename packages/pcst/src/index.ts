export {
  type PcstGraph,
  type PcstTree,
  prizeCollectingSteinerTree,
  treeValue,
} from './prize-collecting-steiner-tree.ts';

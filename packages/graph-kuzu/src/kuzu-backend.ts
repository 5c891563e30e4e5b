import { embeddedGraphBackend } from '@weft/graph-kit';
import type { GraphBackendV1 } from '@weft/spec';
import { kuzuEngine } from './kuzu-engine.ts';
import { KuzuGraphStore } from './kuzu-graph-store.ts';

/** Kùzu behind Weft's graph seam (`--graph kuzu`; manifest provider `kuzu`). */
export const kuzuBackend: GraphBackendV1 = embeddedGraphBackend(kuzuEngine, (directory, options) =>
  KuzuGraphStore.open(directory, options),
);

import { embeddedGraphBackend } from '@weft/graph-kit';
import type { GraphBackendV1 } from '@weft/spec';
import { ladybugEngine } from './ladybug-engine.ts';
import { LadybugGraphStore } from './ladybug-graph-store.ts';

/** LadybugDB behind Weft's graph seam (`--graph ladybug`; manifest provider `ladybug`). */
export const ladybugBackend: GraphBackendV1 = embeddedGraphBackend(ladybugEngine(), (directory, options) =>
  LadybugGraphStore.open(directory, options),
);

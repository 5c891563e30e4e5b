import type { LinearModel } from '@weft/kit';
import type { RouteMode } from './route-gate.ts';

/** What `trainTrajectoryReranker` fits and `TrajectoryReranker` reads. */
export interface TrajectoryRerankerModel {
  readonly linear: LinearModel;
  /**
   * The route gate over `gateFeatures`: P(the trajectory ranking beats the text ranking) for a
   * query — with `route: 'switch'` the text ranking is returned below 0.5, with `'blend'` the two
   * rankings are mixed by it. Absent when it did not help on val.
   */
  readonly gate?: LinearModel;
  /** Under the structure route, candidates reached by a planned path come first (chosen on val). */
  readonly structureFirst?: boolean;
  /** How the gate is used (default `switch`); see `routedOrder`. */
  readonly route?: RouteMode;
}

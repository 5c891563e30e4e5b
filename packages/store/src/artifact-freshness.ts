import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoreManifest } from './store-manifest.ts';
import { storeVersion } from './store-versions.ts';

/**
 * The file in a store's artefacts folder that says which store version they were fitted on. Not a
 * `.json` file: the artefact store and `weft info` take every `.json` file there for an artefact.
 */
export const fittedOnFileName = 'FITTED-ON';

/** What `weft train` records beside the artefacts it fitted. */
export interface FittedOn {
  /** The store version the artefacts were fitted on (`storeVersion` of its manifest). */
  readonly storeVersion: number;
  /** The store's `changedRecords` then: later updates add to it. */
  readonly changedRecords: number;
  readonly fittedAt: string;
}

/**
 * Changed records (upserts and deletions of `weft update`) since the artefacts were fitted, as a
 * share of the store's nodes, past which they are reported stale: the relations, types and
 * weights they learned may no longer describe the store.
 */
export const staleArtifactsShare = 0.05;

/** Writes `FITTED-ON` for artefacts fitted on the store of `manifest`. */
export async function recordFittedOn(artifactsFolder: string, manifest: StoreManifest): Promise<void> {
  const fitted: FittedOn = {
    storeVersion: storeVersion(manifest),
    changedRecords: manifest.changedRecords ?? 0,
    fittedAt: new Date().toISOString(),
  };
  await writeFile(join(artifactsFolder, fittedOnFileName), `${JSON.stringify(fitted)}\n`);
}

export interface ArtifactFreshness {
  readonly fittedOn: FittedOn;
  /** The store version now. */
  readonly storeVersion: number;
  /** Records changed by updates since the fit. */
  readonly changedSince: number;
  /** `changedSince` as a share of the store's nodes. */
  readonly share: number;
  readonly stale: boolean;
  /** For people, when stale: what happened and what to run. */
  readonly warning?: string;
}

/**
 * How far a store has moved since its trained artefacts were fitted; undefined when it has none.
 * Artefacts without `FITTED-ON` (trained before updates existed) count as fitted on version 0.
 */
export async function artifactFreshness(
  storeDirectory: string,
  manifest: StoreManifest,
): Promise<ArtifactFreshness | undefined> {
  const folder = join(storeDirectory, 'artifacts');
  if (!existsSync(folder) || !(await readdir(folder)).some((name) => name.endsWith('.json')))
    return undefined;
  const file = join(folder, fittedOnFileName);
  const fittedOn: FittedOn = existsSync(file)
    ? (JSON.parse(await readFile(file, 'utf8')) as FittedOn)
    : { storeVersion: 0, changedRecords: 0, fittedAt: 'unknown' };
  const version = storeVersion(manifest);
  const changedSince = Math.max(0, (manifest.changedRecords ?? 0) - fittedOn.changedRecords);
  const share = changedSince / Math.max(1, manifest.counts.nodes);
  const stale = version > fittedOn.storeVersion && share > staleArtifactsShare;
  return {
    fittedOn,
    storeVersion: version,
    changedSince,
    share,
    stale,
    ...(stale
      ? {
          warning: `the trained artifacts were fitted on store version ${fittedOn.storeVersion}; ${version - fittedOn.storeVersion} update(s) since changed ${changedSince.toLocaleString('en-US')} records (${(share * 100).toFixed(1)} % of the nodes): they may be stale — run weft train to refit them`,
        }
      : {}),
  };
}

/**
 * The warning `weft query`, `weft eval` and `weft serve` give when the trained artefacts are stale
 * (`artifactFreshness`), or undefined: one wording, one threshold, wherever a ranking may rest on them.
 */
export async function staleArtifactsWarning(
  storeDirectory: string,
  manifest: StoreManifest,
): Promise<string | undefined> {
  return (await artifactFreshness(storeDirectory, manifest))?.warning;
}

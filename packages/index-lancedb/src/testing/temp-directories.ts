import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Temporary directories for a test file, made under the OS's temp folder and removed together. */
export function tempDirectories(prefix: string): {
  make(): Promise<string>;
  removeAll(): Promise<void>;
} {
  const made: string[] = [];
  return {
    async make() {
      const directory = await mkdtemp(path.join(os.tmpdir(), prefix));
      made.push(directory);
      return directory;
    },
    async removeAll() {
      await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}

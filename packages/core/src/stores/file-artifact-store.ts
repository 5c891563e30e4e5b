import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactStore } from '@weft/spec';
import { WeftError } from '@weft/kit';

const validName = /^[a-z0-9][a-z0-9._-]*$/i;

/** Artefacts as JSON files in a folder of the store; each write is atomic (temp file + rename). */
export class FileArtifactStore implements ArtifactStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  private path(name: string): string {
    if (!validName.test(name)) {
      throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `invalid artefact name "${name}"` });
    }
    return join(this.directory, `${name}.json`);
  }

  async get<T = unknown>(name: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(this.path(name), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async put(name: string, value: unknown): Promise<void> {
    const path = this.path(name);
    await mkdir(this.directory, { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, path);
  }
}

import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { WeftError } from '@weft/kit';
import type { SkbEdge, SkbNode, SkbQuery, SkbSchema } from '@weft/spec';
import { type BundleFiles, locateBundleFiles } from './bundle-files.ts';
import { readJsonlLines } from './jsonl-reader.ts';
import { type Parsed, parseEdge, parseNode, parseQuery, parseSchema } from './parse-records.ts';

/**
 * An opened bundle. `nodes()`, `edges()` and `queries()` stream the files afresh on every call (so a
 * consumer may read them more than once) and throw a `WEFT_BAD_INPUT` WeftError, with file and line,
 * at the first malformed record. Run `validateBundle` first for a full report.
 */
export interface SkbBundle {
  readonly directory: string;
  readonly schema: SkbSchema;
  readonly files: BundleFiles;
  /** Names of the query sets (`queries/<name>.jsonl[.gz]`), sorted. */
  readonly querySets: readonly string[];
  nodes(): AsyncGenerator<SkbNode>;
  edges(): AsyncGenerator<SkbEdge>;
  queries(set: string): AsyncGenerator<SkbQuery>;
}

function badInput(message: string, details: Record<string, unknown>): WeftError {
  return new WeftError({ code: 'WEFT_BAD_INPUT', message, details });
}

/** Reads and checks `schema.json`; throws `WEFT_BAD_INPUT` naming the field when it is invalid. */
export async function readSchema(path: string): Promise<SkbSchema> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw badInput(`cannot read ${path}: ${(error as Error).message}`, { file: path });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw badInput(`${path}: malformed JSON: ${(error as Error).message}`, { file: path });
  }
  const parsed = parseSchema(json);
  if (!parsed.ok) {
    const first = parsed.problems[0]!;
    throw badInput(`${path}: [${first.field}] ${first.message}`, { file: path, field: first.field });
  }
  return parsed.value;
}

async function* records<T>(
  directory: string,
  path: string,
  parse: (value: unknown) => Parsed<T>,
): AsyncGenerator<T> {
  const file = relative(directory, path);
  for await (const { line, text } of readJsonlLines(path)) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw badInput(`${file}:${line}: malformed JSON: ${(error as Error).message}`, { file, line });
    }
    const parsed = parse(json);
    if (!parsed.ok) {
      const first = parsed.problems[0]!;
      throw badInput(`${file}:${line}: [${first.field}] ${first.message}`, {
        file,
        line,
        field: first.field,
      });
    }
    yield parsed.value;
  }
}

export async function openBundle(directory: string): Promise<SkbBundle> {
  const files = locateBundleFiles(directory);
  const schema = await readSchema(files.schema);
  const need = (path: string | undefined, base: string): string => {
    if (!path)
      throw badInput(`${directory}: missing ${base}.jsonl (or ${base}.jsonl.gz)`, { file: `${base}.jsonl` });
    return path;
  };
  const nodesPath = need(files.nodes, 'nodes');
  const edgesPath = need(files.edges, 'edges');
  return {
    directory,
    schema,
    files,
    querySets: [...files.queries.keys()],
    nodes: () => records(directory, nodesPath, parseNode),
    edges: () => records(directory, edgesPath, parseEdge),
    queries: (set: string) => {
      const path = files.queries.get(set);
      if (!path)
        throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `no query set "${set}" in ${directory}` });
      return records(directory, path, parseQuery);
    },
  };
}

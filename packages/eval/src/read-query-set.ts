import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { WeftError } from '@weft/kit';
import type { SkbQuery, SkbSplit } from '@weft/spec';

const splits: readonly string[] = ['train', 'val', 'test'];

/** Names of the query sets of a bundle (`queries/<set>.jsonl[.gz]`), sorted. */
export async function listQuerySets(bundle: string): Promise<string[]> {
  const folder = path.join(bundle, 'queries');
  if (!existsSync(folder)) return [];
  const names = (await readdir(folder))
    .map((file) => /^(.+)\.jsonl(\.gz)?$/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)].sort();
}

/**
 * Reads one query set of a bundle, optionally one split, checking each line against SKB-FORMAT.md
 * (id, query, non-empty answers, split). Bad lines are WEFT_BAD_INPUT errors naming file and line.
 */
export async function readQuerySet(
  bundle: string,
  set: string,
  options: { readonly split?: SkbSplit } = {},
): Promise<SkbQuery[]> {
  const plain = path.join(bundle, 'queries', `${set}.jsonl`);
  const file = existsSync(plain) ? plain : `${plain}.gz`;
  if (!existsSync(file)) {
    const known = await listQuerySets(bundle);
    throw new WeftError({
      code: 'WEFT_BAD_INPUT',
      message: `no query set "${set}" in ${bundle} (sets: ${known.length ? known.join(', ') : 'none'})`,
    });
  }
  const raw = await readFile(file);
  const text = (file.endsWith('.gz') ? await promisify(gunzip)(raw) : raw).toString('utf8');
  const queries: SkbQuery[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const fail = (reason: string): never => {
      throw new WeftError({
        code: 'WEFT_BAD_INPUT',
        message: `${path.basename(file)}:${i + 1}: ${reason}`,
        details: { file, line: i + 1 },
      });
    };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      fail('not valid JSON');
    }
    const q = value as Record<string, unknown>;
    if (typeof q !== 'object' || q === null) fail('not a JSON object');
    if (typeof q.id !== 'string' || q.id === '') fail('"id" must be a non-empty string');
    if (typeof q.query !== 'string') fail('"query" must be a string');
    if (
      !Array.isArray(q.answers) ||
      q.answers.length === 0 ||
      !q.answers.every((a) => typeof a === 'string')
    ) {
      fail('"answers" must be a non-empty array of node ids');
    }
    if (typeof q.split !== 'string' || !splits.includes(q.split)) fail('"split" must be train, val or test');
    if (seen.has(q.id as string)) fail(`duplicate query id "${q.id}"`);
    seen.add(q.id as string);
    if (options.split && q.split !== options.split) continue;
    queries.push(q as unknown as SkbQuery);
  }
  return queries;
}

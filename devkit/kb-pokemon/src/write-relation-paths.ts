/**
 * Writes the gold relation paths into the committed hybrid and described query files: for every
 * query, `meta.paths` derived from its annotation's relational part (`relationPaths`), placed after
 * `meta.anchors`. Fails when a query's `meta.anchors` differ from its relational part's anchors.
 * Run after adding or changing a query (query-sets.test.ts fails until the paths are current):
 *
 *   ../../dev node --conditions=@weft/source src/write-relation-paths.ts
 */
import { readFile, writeFile } from 'node:fs/promises';
import { annotatedSetNames, queriesDirectory, readAnnotations } from './query-sets.ts';
import { relationPaths } from '@weft-dev/judged-queries';

for (const set of annotatedSetNames) {
  const path = `${queriesDirectory}/${set}.jsonl`;
  const annotations = new Map((await readAnnotations(set)).map((a) => [a.id, a]));
  const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const written = lines.map((line) => {
    const query = JSON.parse(line) as { id: string; meta?: Record<string, unknown> };
    const annotation = annotations.get(query.id);
    if (!annotation) throw new Error(`${set}: no annotation for ${query.id}`);
    const anchors = [...new Set(annotation.relational_part.constraints.map((c) => c.anchor))];
    const meta = query.meta ?? {};
    const given = meta.anchors as string[] | undefined;
    if (given && JSON.stringify([...given].sort()) !== JSON.stringify([...anchors].sort()))
      throw new Error(
        `${query.id}: meta.anchors ${JSON.stringify(given)} differ from the relational part's ${JSON.stringify(anchors)}`,
      );
    const { anchors: _anchors, paths: _paths, ...rest } = meta;
    const entries = Object.entries(rest);
    // Keep the key order: anchors and paths where anchors stood (after hops), else after template/hops.
    const at = Math.max(0, Object.keys(meta).indexOf('anchors'));
    const position = given ? at : Math.min(entries.length, 2);
    entries.splice(
      position,
      0,
      ['anchors', given ?? anchors],
      ['paths', relationPaths(annotation.relational_part)],
    );
    return JSON.stringify({ ...query, meta: Object.fromEntries(entries) });
  });
  await writeFile(path, `${written.join('\n')}\n`);
  console.log(`${set}: meta.paths written for ${written.length} queries`);
}

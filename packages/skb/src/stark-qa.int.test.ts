import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importStarkQa } from './stark-qa.ts';

// The team's STaRK query files (../shared). @weft-dev/test-data's describeWithShared is not used
// here: it builds on @weft/kb-wordnet, which depends on this package.
function sharedDirectory(): string {
  if (process.env.WEFT_SHARED) return process.env.WEFT_SHARED;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) dir = dirname(dir);
  return resolve(dir, '../shared');
}
const stark = join(sharedDirectory(), 'datasets', 'stark-qa');
const name = 'importStarkQa on the real STaRK files';

// Skipped, saying why, on a machine without the shared data (a fresh clone has none).
(existsSync(stark) ? describe : describe.skip)(
  existsSync(stark) ? name : `${name} — skipped: needs ${stark}, which this machine lacks`,
  () => {
    it.each([
      ['amazon', 9100, 5910, 1548, 1642, true],
      ['mag', 13323, 7993, 2665, 2665, false],
      ['primekg', 11204, 6162, 2241, 2801, true],
    ])(
      '%s: every query, split sizes from the index files, multi-line queries intact',
      async (kb, total, train, val, test, multiline) => {
        const { queries, skipped } = await importStarkQa({
          csv: join(stark, kb, 'stark_qa', 'stark_qa.csv'),
          splitDirectory: join(stark, kb, 'split'),
        });
        expect(queries.length + skipped).toBe(total);
        const bySplit = (s: string) => queries.filter((q) => q.split === s).length;
        expect([bySplit('train'), bySplit('val'), bySplit('test')]).toEqual([train, val, test]);
        expect(new Set(queries.map((q) => q.id)).size).toBe(queries.length);
        expect(queries.every((q) => q.answers.length > 0 && q.answers.every((a) => /^\d+$/.test(a)))).toBe(
          true,
        );
        // Quoted newlines in a query must not split it (amazon and primekg have such queries in their splits).
        expect(queries.some((q) => q.query.includes('\n'))).toBe(multiline);
      },
    );

    it('reads the human-generated set with its extra column in meta', async () => {
      const { queries } = await importStarkQa({
        csv: join(stark, 'mag', 'stark_qa', 'stark_qa_human_generated_eval.csv'),
        defaultSplit: 'test',
      });
      expect(queries).toHaveLength(84);
      expect(queries[0]!.meta).toHaveProperty('answer_ids_source');
    });
  },
);

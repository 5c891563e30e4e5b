import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCsvRecords } from './csv-records.ts';
import { importStarkQa, starkResultsCsv } from './stark-qa.ts';
import { temporaryDirectory } from './test-helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

async function starkFiles(csv: string) {
  const dir = await temporaryDirectory();
  cleanups.push(dir.remove);
  await writeFile(join(dir.path, 'stark_qa.csv'), csv);
  await mkdir(join(dir.path, 'split'));
  await writeFile(join(dir.path, 'split', 'train.index'), '7\n');
  await writeFile(join(dir.path, 'split', 'test.index'), '12\n3\n');
  return dir.path;
}

describe('readCsvRecords', () => {
  it('handles quotes, doubled quotes, commas, CRLF and quoted newlines, with start lines', async () => {
    const dir = await starkFiles('a,b\r\n1,"x, ""y"""\r\n2,"multi\nline"\n3,plain\n');
    const records = [];
    for await (const record of readCsvRecords(join(dir, 'stark_qa.csv'))) records.push(record);
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', 'x, "y"'] },
      { line: 3, fields: ['2', 'multi\nline'] },
      { line: 5, fields: ['3', 'plain'] },
    ]);
  });
});

describe('importStarkQa', () => {
  it('maps ids, answers and splits; prefixes query ids; skips unlisted queries', async () => {
    const dir = await starkFiles(
      'id,query,answer_ids\n7,"Which lens, for birds?","[7, 42]"\n12,Another,[5]\n99,Unlisted,[1]\n',
    );
    const { queries, skipped } = await importStarkQa({
      csv: join(dir, 'stark_qa.csv'),
      splitDirectory: join(dir, 'split'),
      nodeId: (i) => `amazon:${i}`,
    });
    expect(skipped).toBe(1);
    expect(queries).toEqual([
      {
        id: 'stark-q7',
        query: 'Which lens, for birds?',
        answers: ['amazon:7', 'amazon:42'],
        split: 'train',
        meta: { starkId: 7 },
      },
      { id: 'stark-q12', query: 'Another', answers: ['amazon:5'], split: 'test', meta: { starkId: 12 } },
    ]);
    const withDefault = await importStarkQa({ csv: join(dir, 'stark_qa.csv'), defaultSplit: 'test' });
    expect(withDefault.queries.map((q) => [q.id, q.split, q.answers])).toEqual([
      ['stark-q7', 'test', ['7', '42']],
      ['stark-q12', 'test', ['5']],
      ['stark-q99', 'test', ['1']],
    ]);
  });

  it('rejects malformed answer lists with file:line', async () => {
    const dir = await starkFiles('id,query,answer_ids\n7,ok,[1]\n8,bad,"[1, x]"\n');
    await expect(importStarkQa({ csv: join(dir, 'stark_qa.csv'), defaultSplit: 'test' })).rejects.toThrow(
      /stark_qa\.csv:3: answer_ids/,
    );
  });

  it('exports rankings in STaRK eval CSV layout', () => {
    const csv = starkResultsCsv(
      [
        { queryId: 'stark-q7', ranked: ['42', '7', '9'] },
        { queryId: 'stark-q12', ranked: [] },
      ],
      { topK: 2 },
    );
    expect(csv).toBe('idx,query_id,pred_rank\n0,7,"[42, 7]"\n1,12,"[]"\n');
    expect(() => starkResultsCsv([{ queryId: 'q', ranked: ['a'] }])).toThrow(/STaRK integer/);
  });
});

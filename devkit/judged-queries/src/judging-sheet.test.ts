import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgingSheet } from './judging-sheet.ts';
import { querySetReaders } from './query-sets.ts';

const node = (id: string, type: string, text: string) => ({ id, type, name: id.slice(2), text });
const nodes = [
  node('p:a', 'package', 'a file manager\nwith two panes'),
  node('p:b', 'package', 'an image viewer'),
  node('l:z', 'library', 'a compression library'),
];
const edges = [
  { src: 'p:a', type: 'depends', dst: 'l:z' },
  { src: 'p:b', type: 'depends', dst: 'l:z' },
];
const part = {
  answerType: 'package',
  constraints: [{ anchor: 'l:z', path: [{ edge: 'depends', direction: 'out' }] }],
};

describe('judgingSheet', () => {
  it('lists every candidate of a relational part with its text', async () => {
    const sheet = await judgingSheet({
      argument: JSON.stringify(part),
      nodes,
      edges,
      readers: querySetReaders('/nowhere'),
      describedPrefix: 'x-des-',
    });
    expect(sheet).toEqual([
      '2 candidates\n',
      'p:a\n    a file manager\n    with two panes\n',
      'p:b\n    an image viewer\n',
    ]);
  });

  it('shows a committed query with each candidate beside its judgment', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'judging-sheet-'));
    try {
      await writeFile(
        join(directory, 'described.jsonl'),
        `${JSON.stringify({ id: 'x-des-1', query: 'file managers built on the compression library', answers: ['p:a'], split: 'val', meta: { textual_requirement: 'a file manager' } })}\n`,
      );
      await writeFile(
        join(directory, 'described.annotations.jsonl'),
        `${JSON.stringify({ id: 'x-des-1', relational_part: part, candidates: [{ id: 'p:a', gold: true, reason: 'a file manager' }] })}\n`,
      );
      const sheet = await judgingSheet({
        argument: 'x-des-1',
        nodes,
        edges,
        readers: querySetReaders(directory),
        describedPrefix: 'x-des-',
        show: (n) => `${n.id} | ${n.name}`,
      });
      expect(sheet).toEqual([
        'x-des-1 [val] file managers built on the compression library\nrequirement: a file manager\n',
        '2 candidates\n',
        'p:a | a  => GOLD: a file manager\n',
        'p:b | b  => NOT JUDGED\n',
      ]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

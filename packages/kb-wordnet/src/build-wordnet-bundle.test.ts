import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBundle, validateBundle } from '@weft/skb';
import type { SkbEdge, SkbNode } from '@weft/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWordnetBundle } from './build-wordnet-bundle.ts';
import { WordnetDataError } from './wordnet-data-error.ts';

const licence = [
  '  1 This software and database is being provided to you, the LICENSEE, by  ',
  '  2   ',
  '  3 WordNet 3.1 Copyright 2011 by Princeton University.  All rights reserved.  ',
];

// A tiny WordNet: every data line ends in two spaces, as in the real files. Offsets need not be byte
// offsets here; the builder only uses them as names.
const dict: Record<string, string[]> = {
  'data.noun': [
    '00000100 03 n 01 entity 0 002 ~ 00000200 n 0000 -c 00000300 n 0000 | that which exists  ',
    // @ here and ~ on entity state one edge; the + to the verb is lexical and stated back by the verb.
    '00000200 05 n 02 big_cat 0 cat 0 004 @ 00000100 n 0000 + 00000100 v 0101 %p 00000300 n 0000 + 00000200 n 0102 | a large wild feline; "the big cat roared"  ',
    '00000300 08 n 02 claw 0 talon 0 002 #p 00000200 n 0000 ;c 00000100 n 0000 | a sharp curved nail  ',
  ],
  'data.verb': [
    '00000100 29 v 01 roar 0 004 + 00000200 n 0101 * 00000200 v 0000 $ 00000200 v 0000 ^ 00000200 v 0000 01 + 02 00 | make a loud deep sound  ',
    '00000200 29 v 01 growl 0 001 $ 00000100 v 0000 02 + 02 00 + 08 01 | make a low throaty sound  ',
  ],
  'data.adj': [
    '00000100 00 a 01 hot(a) 0 002 ! 00000300 a 0101 & 00000200 a 0000 | high in temperature  ',
    '00000200 00 s 01 red-hot(ip) 0 001 & 00000100 a 0000 | extremely hot  ',
    '00000300 00 a 01 cold 0 001 ! 00000100 a 0101 | low in temperature  ',
    '00000400 01 a 01 feline 0 001 \\ 00000200 n 0101 | of cats  ',
  ],
  'data.adv': ['00000100 02 r 01 hotly 0 001 \\ 00000100 a 0101 | in a hot manner  '],
};

async function writeDict(directory: string, files: Record<string, string[]>): Promise<void> {
  await mkdir(directory, { recursive: true });
  for (const [file, lines] of Object.entries(files))
    await writeFile(join(directory, file), [...licence, ...lines].map((line) => `${line}\n`).join(''));
}

async function readAll<T>(records: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('buildWordnetBundle on a tiny dictionary', () => {
  let root: string;
  let dictDirectory: string;
  let out: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'weft-kb-wordnet-'));
    dictDirectory = join(root, 'dict');
    out = join(root, 'bundle');
    await writeDict(dictDirectory, dict);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes a valid bundle with one node per synset and one edge per distinct relation', async () => {
    const progress: string[] = [];
    const summary = await buildWordnetBundle({
      out,
      dictDirectory,
      demoQueries: false,
      onProgress: (file, synsets) => progress.push(`${file} ${synsets}`),
    });
    expect(progress).toEqual(['data.noun 3', 'data.verb 2', 'data.adj 4', 'data.adv 1']);

    const report = await validateBundle(out);
    expect(report.issues).toEqual([]);
    expect(report.summary.nodes).toBe(summary.nodes);
    expect(report.summary.edgesByType).toEqual(summary.edgesByType);
    expect(summary.nodesByPos).toEqual({ n: 3, v: 2, a: 3, s: 1, r: 1 });
    expect(summary.selfLoopsDropped).toBe(1);

    const bundle = await openBundle(out);
    const nodes = await readAll<SkbNode>(bundle.nodes());
    expect(nodes.find((node) => node.id === 'wn31:00000200-n')).toEqual({
      id: 'wn31:00000200-n',
      type: 'noun.animal',
      name: 'big cat',
      aliases: ['cat'],
      text: 'a large wild feline; "the big cat roared"',
      props: { pos: 'n', lexname: 'noun.animal' },
    });
    expect(nodes.find((node) => node.id === 'wn31:00000200-a')).toMatchObject({
      name: 'red-hot',
      props: { pos: 's', lexname: 'adj.all' },
    });

    const edges = (await readAll<SkbEdge>(bundle.edges())).map((e) => `${e.src} ${e.type} ${e.dst}`);
    expect(edges.sort()).toEqual(
      [
        'wn31:00000200-n hypernym wn31:00000100-n',
        'wn31:00000200-n part_meronym wn31:00000300-n',
        'wn31:00000300-n domain_topic wn31:00000100-n',
        'wn31:00000200-n derivationally_related wn31:00000100-v',
        'wn31:00000100-v entailment wn31:00000200-v',
        'wn31:00000100-v verb_group wn31:00000200-v',
        // Stated by roar only, so kept as stated.
        'wn31:00000100-v also_see wn31:00000200-v',
        'wn31:00000100-a antonym wn31:00000300-a',
        'wn31:00000100-a similar_to wn31:00000200-a',
        'wn31:00000400-a pertainym wn31:00000200-n',
        'wn31:00000100-r derived_from_adjective wn31:00000100-a',
      ].sort(),
    );
  });

  it('writes SOURCE.md with the licence header and the counts', async () => {
    await buildWordnetBundle({ out, dictDirectory, demoQueries: false });
    const source = await readFile(join(out, 'SOURCE.md'), 'utf8');
    expect(source).toContain(
      'This software and database is being provided to you, the LICENSEE, by\n\nWordNet 3.1 Copyright 2011',
    );
    expect(source).toContain(`the folder \`${dictDirectory}\``);
    expect(source).toContain('One node per synset: 10 nodes (a 3, n 3, r 1, s 1, v 2');
    expect(source).toContain('| hypernym | @ (inverse ~ folded in) | 1 |');
    expect(source).not.toContain('## Queries');
  });

  it('writes gzipped files on request', async () => {
    await buildWordnetBundle({ out, dictDirectory, demoQueries: false, gzip: true });
    expect(existsSync(join(out, 'nodes.jsonl.gz'))).toBe(true);
    expect(existsSync(join(out, 'edges.jsonl.gz'))).toBe(true);
    expect((await validateBundle(out)).ok).toBe(true);
  });

  it('writes the demo queries by default', async () => {
    await buildWordnetBundle({ out, dictDirectory });
    expect(existsSync(join(out, 'queries', 'demo.jsonl'))).toBe(true);
    expect(await readFile(join(out, 'SOURCE.md'), 'utf8')).toContain('## Queries');
  });

  it('refuses a folder that is not empty', async () => {
    await mkdir(out);
    await writeFile(join(out, 'nodes.jsonl'), '');
    await expect(buildWordnetBundle({ out, dictDirectory })).rejects.toThrow(`${out} is not empty`);
  });

  it('names file and line of a malformed data line and leaves no half-written bundle', async () => {
    await writeDict(dictDirectory, {
      'data.verb': [dict['data.verb']![0]!, '00000200 29 v 01 growl 0 000 | no frames  '],
    });
    const error = await buildWordnetBundle({ out, dictDirectory }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WordnetDataError);
    // Three licence lines, then the synsets: the second synset is line 5.
    expect((error as WordnetDataError).where).toBe(`${join(dictDirectory, 'data.verb')}:5`);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses data files without the licence header', async () => {
    await writeFile(join(dictDirectory, 'data.noun'), `${dict['data.noun']!.join('\n')}\n`);
    await expect(buildWordnetBundle({ out, dictDirectory })).rejects.toThrow(
      'data.noun:1: no licence header',
    );
  });
});

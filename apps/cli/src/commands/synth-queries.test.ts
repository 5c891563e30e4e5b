import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createStackRegistry } from '@weft/stacks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.ts';
import { captureIo } from '../testing/capture-io.ts';
import { toyOpener } from '../testing/toy-store.ts';
import { createSynthQueriesCommand, synthesisNotes } from './synth-queries.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'weft-synth-queries-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('weft synth-queries', () => {
  it('on a tiny KB says that it wrote fewer queries than asked and why, and that test is too small', async () => {
    const command = createSynthQueriesCommand({
      openStore: toyOpener().open,
      registry: createStackRegistry(),
    });
    const out = path.join(root, 'synth');
    const c = captureIo();
    expect(
      await runCli(
        ['synth-queries', '--db', 'store', '--out', out, '--n', '300', '--described', '0', '--text', '0'],
        c.io,
        [command],
      ),
    ).toBe(0);
    const written = (await readFile(path.join(out, 'queries', 'hybrid.jsonl'), 'utf8')).trim().split('\n');
    expect(written.length).toBeLessThan(300);
    expect(c.err()).toContain(
      `note: wrote ${written.length} of the 300 hybrid queries asked for: the store has`,
    );
    expect(c.err()).toMatch(
      /note: the hybrid set has only \d+ test quer(y|ies): too few to tell two stacks apart/,
    );
    // The text and described sets were not asked for: nothing said about them, no file.
    expect(c.err()).not.toContain('text set');
    expect(c.err()).not.toContain('described');
    expect(existsSync(path.join(out, 'queries', 'described.jsonl'))).toBe(false);

    const j = captureIo();
    const again = path.join(root, 'again');
    expect(
      await runCli(['synth-queries', '--db', 'store', '--out', again, '--n', '300', '--json'], j.io, [
        command,
      ]),
    ).toBe(0);
    const summary = JSON.parse(j.out());
    expect(summary.asked).toEqual({ hybrid: 300, described: 150, text: 150 });
    const described = (await readFile(path.join(again, 'queries', 'described.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(described.length).toBe(summary.described.train + summary.described.val + summary.described.test);
    expect(described.every((q) => q.meta.synthesized === 'described')).toBe(true);
    expect(summary.notes.length).toBeGreaterThanOrEqual(2);
  });

  it('says nothing when it wrote what was asked and test is large enough', () => {
    const made = { train: 180, val: 60, test: 60 };
    expect(
      synthesisNotes({
        asked: { hybrid: 300, text: 300 },
        made: { hybrid: made, text: made },
        answerNodes: 5000,
      }),
    ).toEqual([]);
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinStacks } from './builtin-stacks.ts';
import {
  stackTable,
  stackTableCommand,
  stackTableMarkers,
  stackTableReadmes,
  withStackTable,
} from './stack-table.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('stack tables', () => {
  for (const readme of stackTableReadmes) {
    it(`${readme} shows the listing's stacks as it is (else: ${stackTableCommand})`, async () => {
      const text = await readFile(path.join(root, readme), 'utf8');
      expect(
        withStackTable(text, builtinStacks()) === text,
        `${readme}'s stack table is stale; rewrite it with ${stackTableCommand}`,
      ).toBe(true);
    });
  }

  it('has a row per stack, in listing order, saying which ask an LLM and which train', () => {
    const rows = stackTable(builtinStacks()).split('\n').slice(2);
    expect(rows.map((row) => row.split(' | ')[0])).toEqual(builtinStacks().map((s) => `| \`${s.name}\``));
    expect(rows.find((row) => row.startsWith('| `mor` |'))).toMatch(/\| yes \| yes \|$/);
    expect(rows.find((row) => row.startsWith('| `bm25` |'))).toMatch(/\| no \| no \|$/);
  });

  it('replaces only what lies between the markers, and names them when a README has none', () => {
    const stacks = builtinStacks().slice(0, 1);
    const { begin, end } = stackTableMarkers;
    const written = withStackTable(`x\n${begin}\nold row\n${end}\ny\n`, stacks);
    expect(written).toBe(`x\n${begin}\n${stackTable(stacks)}\n${end}\ny\n`);
    expect(() => withStackTable('no table here', stacks)).toThrow(begin);
  });
});

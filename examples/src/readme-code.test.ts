// Every TypeScript block of the READMEs (root, packages/*, examples/) either is an example file,
// shown verbatim under an `<!-- example: <path> -->` marker, or type-checks on its own.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CodeBlock,
  codeBlocks,
  readmePaths,
  repositoryRoot,
  typecheckBlocks,
} from './testing/readme-code.ts';

const blocks: CodeBlock[] = [];
beforeAll(async () => {
  for (const readme of await readmePaths()) {
    blocks.push(...codeBlocks(readme, await readFile(path.join(repositoryRoot, readme), 'utf8')));
  }
});

describe('README code', () => {
  it('finds the READMEs and their blocks', () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(new Set(blocks.map((b) => b.readme))).toContain('packages/store/README.md');
  });

  it('shows each marked example file exactly as it is', async () => {
    const marked = blocks.filter((block) => block.example);
    expect(marked.length).toBeGreaterThan(0);
    for (const block of marked) {
      const file = await readFile(path.join(repositoryRoot, block.example!), 'utf8');
      expect(block.code, `${block.readme}:${block.line} differs from ${block.example}`).toBe(file);
    }
  });

  it('type-checks every other block', async () => {
    const errors = await typecheckBlocks(blocks.filter((block) => !block.example));
    expect(errors.map((e) => `${e.where}: ${e.message}`)).toEqual([]);
  }, 120_000);

  it('reports a block that does not compile, at its README line', async () => {
    const [block] = codeBlocks(
      'BROKEN.md',
      "# x\n\n```ts\nimport { retrieve } from '@weft/core';\nconst n: number = retrieve;\n```\n",
    );
    const errors = await typecheckBlocks([block!]);
    expect(errors.map((e) => e.where)).toEqual(['BROKEN.md:5:7']);
  }, 120_000);

  it('reads the example marker and the line of the code', () => {
    const text =
      'a\n<!-- example: examples/src/evaluate.ts -->\n```ts\nconst a = 1;\n```\n\n```sh\nls\n```\n';
    expect(codeBlocks('X.md', text)).toEqual([
      { readme: 'X.md', line: 4, code: 'const a = 1;\n', example: 'examples/src/evaluate.ts' },
    ]);
  });
});

// Test support (not an example): finds the TypeScript blocks of READMEs and type-checks them, so that
// code a reader copies from a README compiles against the packages as they are.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The checkout's root (this file is examples/src/testing/readme-code.ts). */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const examplesRoot = path.join(repositoryRoot, 'examples');

/**
 * A README shows an example file verbatim when the line before its code block is this marker, with
 * the file's path from the repository root.
 */
export const exampleMarker = /^<!-- example: (\S+) -->$/;

export interface CodeBlock {
  /** The README, relative to the repository root. */
  readonly readme: string;
  /** README line of the block's first line of code (1-based). */
  readonly line: number;
  readonly code: string;
  /** The example file the block must equal, when a marker precedes it. */
  readonly example?: string;
}

/** The `ts` / `typescript` fenced blocks of one README's text. */
export function codeBlocks(readme: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`${readme}:${i + 1}: a code block that never ends`);
    const example = exampleMarker.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({
      readme,
      line: i + 2,
      code: `${lines.slice(i + 1, end).join('\n')}\n`,
      ...(example ? { example } : {}),
    });
    i = end;
  }
  return blocks;
}

/** The READMEs whose code is checked: the root's, every package's, the examples'. */
export async function readmePaths(): Promise<string[]> {
  const packages = (await readdir(path.join(repositoryRoot, 'packages'))).map((name) =>
    path.join('packages', name, 'README.md'),
  );
  return ['README.md', 'examples/README.md', ...packages.sort()].filter((file) =>
    existsSync(path.join(repositoryRoot, file)),
  );
}

/** One problem tsc found, placed in the README. */
export interface BlockError {
  readonly where: string;
  readonly message: string;
}

/**
 * Type-checks each block as a module of its own (an `export {}` is appended, so top-level await and
 * local names work as in a file) with the examples' compiler settings, resolving `@weft/*` through
 * the examples package. Returns tsc's errors as `README:line:column` positions.
 */
export async function typecheckBlocks(blocks: readonly CodeBlock[]): Promise<BlockError[]> {
  if (blocks.length === 0) return [];
  // Inside examples/ so that imports resolve through its node_modules; .cache/ is ignored by git.
  const folder = path.join(examplesRoot, '.cache', `readme-code-${process.pid}-${Date.now()}`);
  await mkdir(folder, { recursive: true });
  try {
    const files = new Map<string, CodeBlock>();
    for (const [i, block] of blocks.entries()) {
      const file = `block-${i}-${block.readme.replace(/[^a-z0-9]+/gi, '-')}.ts`;
      files.set(file, block);
      await writeFile(path.join(folder, file), `${block.code}export {};\n`);
    }
    const tsconfig = {
      extends: path.relative(folder, path.join(repositoryRoot, 'tooling/tsconfig/library.json')),
      compilerOptions: { rootDir: '.', noUnusedLocals: false },
      include: ['*.ts'],
    };
    await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = path.join(examplesRoot, 'node_modules/typescript/bin/tsc');
    const output = await promisify(execFile)(process.execPath, [tsc, '-p', folder, '--pretty', 'false'], {
      cwd: folder,
    }).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    const errors: BlockError[] = [];
    for (const line of output.split('\n').filter(Boolean)) {
      const last = errors.at(-1);
      // tsc indents the elaboration of an error on the lines after it.
      if (/^\s/.test(line) && last) {
        errors[errors.length - 1] = { ...last, message: `${last.message}\n${line}` };
        continue;
      }
      const match = /^(block-[^(]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
      const block = match ? files.get(match[1]!) : undefined;
      if (!match || !block) {
        errors.push({ where: 'tsc', message: line });
        continue;
      }
      errors.push({
        where: `${block.readme}:${block.line + Number(match[2]) - 1}:${match[3]}`,
        message: match[4]!,
      });
    }
    return errors;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

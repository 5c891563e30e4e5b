// A stack from a package outside the workspace takes part in `weft train` and `weft eval` with no
// edit to Weft: outside-stack.ts is copied into a package in a temp folder whose node_modules links
// only @weft/kit (as installing it would), and the real `weft` runs with `--stacks <that package>`.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeToyBundle } from './toy-bundle.ts';

const source = fileURLToPath(new URL('.', import.meta.url));
const main = path.resolve(source, '../../apps/cli/src/main.ts');
let root: string;
let bundle: string;
let store: string;
let module: string;

/** `weft <args>` in `cwd`: the exit code and both streams. */
function weft(
  args: readonly string[],
  cwd = root,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@weft/source', '--disable-warning=ExperimentalWarning', main, ...args],
      { cwd, env: { ...process.env, LANCEDB_LOG: 'error' }, timeout: 180_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'weft-outside-'));
  bundle = path.join(root, 'bundle');
  store = path.join(root, 'store');
  await writeToyBundle(bundle);
  const pkg = path.join(root, 'my-weft-stack');
  await mkdir(path.join(pkg, 'node_modules', '@weft'), { recursive: true });
  await writeFile(
    path.join(pkg, 'package.json'),
    `${JSON.stringify({ name: 'my-weft-stack', type: 'module', exports: './index.ts' }, null, 2)}\n`,
  );
  await copyFile(path.join(source, 'outside-stack.ts'), path.join(pkg, 'index.ts'));
  await symlink(
    await realpath(path.resolve(source, '../node_modules/@weft/kit')),
    path.join(pkg, 'node_modules', '@weft', 'kit'),
  );
  module = path.join(pkg, 'index.ts');
  expect((await weft(['ingest', bundle, '--db', store])).code).toBe(0);
}, 180_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a stack from outside the workspace (weft --stacks)', () => {
  it('is trained by weft train, reads what it learned, and is evaluated beside the built-in stacks', async () => {
    const args = ['--db', store, '--stacks', module, '--stack', 'type-weighted-bm25'];
    // A package name is resolved from where the command runs, as an import there would be.
    const top = async () => {
      const answer = await weft(
        [
          'query',
          'Nikon lens for birds',
          '--db',
          store,
          '--stacks',
          'my-weft-stack',
          '--stack',
          'type-weighted-bm25',
          '--json',
        ],
        path.join(root, 'my-weft-stack'),
      );
      expect(answer.code).toBe(0);
      return (JSON.parse(answer.stdout) as { results: { id: string; score: number }[] }).results[0]!;
    };
    const untrained = await top();

    const trained = await weft(['train', bundle, ...args, '--text-queries', '0', '--json']);
    expect(trained.code).toBe(0);
    const step = (JSON.parse(trained.stdout) as { steps: { step: string; summary: string }[] }).steps.find(
      (s) => s.step === 'type-weighted-bm25',
    );
    const rate = Number(/product (\d\.\d+)/.exec(step?.summary ?? '')?.[1]);
    expect(rate).toBeGreaterThan(0);
    // Trained, the traverser weighs a product's BM25 score by 0.5 + the rate it learned (0.5 + 0.24 on the toy).
    const after = await top();
    expect(after.id).toBe(untrained.id);
    expect(after.score / untrained.score).toBeCloseTo(0.5 + rate, 1);

    const evaluated = await weft(['eval', bundle, ...args, '--set', 'toy', '--split', 'test', '--json']);
    expect(evaluated.code).toBe(0);
    const summary = JSON.parse(evaluated.stdout) as { stacks: { stack: string; hit1: number }[] };
    expect(summary.stacks.map((s) => s.stack)).toEqual(['bm25', 'type-weighted-bm25']);
  }, 300_000);

  it('refuses a module that exports no stacks, and a stack name already taken, naming the module', async () => {
    const empty = path.join(root, 'empty.mjs');
    await writeFile(empty, 'export const nothing = 1;\n');
    const refused = await weft(['eval', bundle, '--db', store, '--stacks', empty, '--stack', 'bm25']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--stacks ${empty}: the module must export \`stacks\``);
    const twice = await weft(['eval', bundle, '--db', store, '--stacks', module, '--stacks', module]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('stack "type-weighted-bm25" is registered twice');
    const missing = await weft(['eval', bundle, '--db', store, '--stacks', './nowhere.ts']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--stacks ./nowhere.ts: no such file');
  }, 120_000);
});

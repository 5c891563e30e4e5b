// `./dev new` into a scratch copy of the files it reads and edits: what it writes has the shape of the
// packages it copies, the stage package and the stack it adds type-check against the workspace, and
// the command runs without a terminal.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingMarker, loaderMarker, newPackage, withKey } from './new-package.ts';
import { stageNames } from './templates.ts';

const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '../../..');
/** The package the scaffold copies the shape of. */
const model = path.join(repository, 'packages', 'traverser-ppr');
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

let root: string;

/** A scratch checkout: the files `./dev new` edits, copied; what type-checking reads, linked. */
async function scratchCheckout(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'weft-dev-new-'));
  await mkdir(path.join(dir, '.changeset'));
  await mkdir(path.join(dir, 'examples'));
  await mkdir(path.join(dir, 'tooling'));
  await cp(path.join(repository, 'examples', 'package.json'), path.join(dir, 'examples', 'package.json'));
  await cp(path.join(repository, 'LICENSE'), path.join(dir, 'LICENSE'));
  for (const file of ['package.json', 'tsconfig.json', 'src'])
    await cp(path.join(repository, 'packages', 'stacks', file), path.join(dir, 'packages', 'stacks', file), {
      recursive: true,
    });
  await symlink(path.join(repository, 'tsconfig.base.json'), path.join(dir, 'tsconfig.base.json'));
  await symlink(path.join(repository, 'tooling', 'tsconfig'), path.join(dir, 'tooling', 'tsconfig'));
  return dir;
}

/**
 * Gives a scratch package a node_modules of links: `like`'s dependencies (an installed package of the
 * workspace), plus `extra` (npm name → folder).
 */
async function linkModules(to: string, like: string, extra: Record<string, string> = {}): Promise<void> {
  const modules = path.join(to, 'node_modules');
  const from = path.join(like, 'node_modules');
  await mkdir(modules, { recursive: true });
  for (const entry of await readdir(from)) {
    if (entry.startsWith('.')) continue;
    if (!entry.startsWith('@')) {
      await symlink(path.join(from, entry), path.join(modules, entry));
      continue;
    }
    await mkdir(path.join(modules, entry));
    for (const child of await readdir(path.join(from, entry)))
      await symlink(path.join(from, entry, child), path.join(modules, entry, child));
  }
  for (const [name, folder] of Object.entries(extra)) await symlink(folder, path.join(modules, name));
}

async function typecheck(project: string): Promise<string> {
  const tsc = path.join(repository, 'node_modules', '.bin', 'tsc');
  try {
    await run(tsc, ['-p', path.join(project, 'tsconfig.json')], { cwd: project });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}` || String(error);
  }
}

beforeAll(async () => {
  root = await scratchCheckout();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('./dev new traverser demo --stack demo', () => {
  let created: readonly string[] = [];
  let edited: readonly string[] = [];
  beforeAll(async () => {
    ({ created, edited } = await newPackage({
      root,
      kind: 'traverser',
      name: 'demo',
      description: 'A demonstration traverser.',
      stack: 'demo',
      stackDescription: "the demo traverser alone; it's BM25",
    }));
  });

  it('writes the package, its conformance test, the changeset and the stack, and says what it edited', () => {
    expect(created).toEqual([
      'packages/traverser-demo/package.json',
      'packages/traverser-demo/tsconfig.json',
      'packages/traverser-demo/tsconfig.build.json',
      'packages/traverser-demo/vitest.config.ts',
      'packages/traverser-demo/README.md',
      'packages/traverser-demo/LICENSE',
      'packages/traverser-demo/src/index.ts',
      'packages/traverser-demo/src/demo-traverser.ts',
      'packages/traverser-demo/src/demo-traverser.test.ts',
      '.changeset/traverser-demo-package.md',
      'packages/stacks/src/demo-stack.ts',
      'packages/stacks/src/demo-stack.test.ts',
    ]);
    expect(edited).toEqual([
      'examples/package.json',
      'packages/stacks/src/stack-listing.ts',
      'packages/stacks/src/builtin-stacks.ts',
      'packages/stacks/src/index.ts',
      'packages/stacks/package.json',
    ]);
    for (const file of created) expect(existsSync(path.join(root, file)), file).toBe(true);
  });

  it("has packages/traverser-ppr's shape: manifest fields, exports, scripts, tsconfigs, vitest config", async () => {
    const written = await readJson(path.join(root, 'packages/traverser-demo/package.json'));
    const ppr = await readJson(path.join(model, 'package.json'));
    expect(Object.keys(written)).toEqual(Object.keys(ppr));
    for (const field of ['version', 'license', 'type', 'sideEffects', 'files', 'engines', 'publishConfig'])
      expect(written[field], field).toEqual(ppr[field]);
    expect(written.exports).toEqual(ppr.exports);
    expect(written.scripts).toEqual(ppr.scripts);
    expect(written.dependencies).toEqual({ '@weft/kit': 'workspace:^', '@weft/spec': 'workspace:^' });
    const { '@weft/core': _tests, ...devDependencies } = ppr.devDependencies as Record<string, string>;
    expect(written.devDependencies).toEqual(devDependencies);
    expect(written).toMatchObject({
      name: '@weft/traverser-demo',
      description: 'A demonstration traverser.',
    });
    for (const file of ['tsconfig.json', 'tsconfig.build.json', 'vitest.config.ts'])
      expect(await readFile(path.join(root, 'packages/traverser-demo', file), 'utf8'), file).toBe(
        await readFile(path.join(model, file), 'utf8'),
      );
  });

  it('lists the stack above the marker, exports it, and adds the dependencies where they sort', async () => {
    const listing = await readFile(path.join(root, 'packages/stacks/src/stack-listing.ts'), 'utf8');
    expect(listing).toContain(
      `  {\n    name: 'demo',\n    description: "the demo traverser alone; it's BM25",\n    trains: false,\n    module: 'demo-stack',\n  },\n${listingMarker}`,
    );
    const loaders = await readFile(path.join(root, 'packages/stacks/src/builtin-stacks.ts'), 'utf8');
    expect(loaders).toContain(
      `  'demo-stack': () => import('./demo-stack.ts').then((m) => [m.demoStack]),\n${loaderMarker}`,
    );
    expect(await readFile(path.join(root, 'packages/stacks/src/index.ts'), 'utf8')).toMatch(
      /\nexport \{ demoStack \} from '\.\/demo-stack\.ts';\n$/,
    );
    const stacks = Object.keys(
      (await readJson(path.join(root, 'packages/stacks/package.json'))).dependencies!,
    );
    expect(
      stacks.slice(stacks.indexOf('@weft/traverser-bank'), stacks.indexOf('@weft/traverser-bank') + 3),
    ).toEqual(['@weft/traverser-bank', '@weft/traverser-demo', '@weft/traverser-fields']);
    const examples = (await readJson(path.join(root, 'examples/package.json'))).devDependencies;
    expect(examples).toMatchObject({ '@weft/traverser-demo': 'workspace:*' });
    expect(await readFile(path.join(root, '.changeset/traverser-demo-package.md'), 'utf8')).toMatch(
      /^---\n"@weft\/traverser-demo": minor\n"@weft\/stacks": minor\n---\n\nNew package `@weft\/traverser-demo`/,
    );
  });

  it('writes a package and a stack that type-check against the workspace', async () => {
    const stage = path.join(root, 'packages/traverser-demo');
    const stacks = path.join(root, 'packages/stacks');
    await linkModules(stage, model);
    await linkModules(stacks, path.join(repository, 'packages/stacks'), { '@weft/traverser-demo': stage });
    expect(await typecheck(stage)).toBe('');
    expect(await typecheck(stacks)).toBe('');
  }, 120_000);

  it('refuses to write over what is there, and leaves the checkout as it was', async () => {
    const before = await readFile(path.join(root, 'examples/package.json'), 'utf8');
    await expect(newPackage({ root, kind: 'traverser', name: 'demo' })).rejects.toThrow(
      'already there: packages/traverser-demo',
    );
    await expect(newPackage({ root, kind: 'reranker', name: 'other', stack: 'demo' })).rejects.toThrow(
      'already there: packages/stacks/src/demo-stack.ts',
    );
    expect(existsSync(path.join(root, 'packages/reranker-other'))).toBe(false);
    expect(await readFile(path.join(root, 'examples/package.json'), 'utf8')).toBe(before);
  });
});

describe('./dev new, the other kinds and the command', () => {
  it('scaffolds a reranker and a planner that type-check, each with its conformance suite', async () => {
    for (const kind of ['reranker', 'planner'] as const) {
      const { created } = await newPackage({ root, kind, name: `demo-${kind}s` });
      const folder = path.join(root, 'packages', `${kind}-demo-${kind}s`);
      const suite = kind === 'reranker' ? 'runRerankerSuite' : 'runPlannerSuite';
      expect(created).toContain(`packages/${kind}-demo-${kind}s/src/demo-${kind}s-${kind}.test.ts`);
      expect(await readFile(path.join(folder, `src/demo-${kind}s-${kind}.test.ts`), 'utf8')).toContain(suite);
      await linkModules(folder, model);
      expect(await typecheck(folder), kind).toBe('');
    }
  }, 120_000);

  it('runs from flags alone (no terminal), and answers a bad kind with its usage', async () => {
    const main = path.join(import.meta.dirname, 'main.ts');
    const { stdout } = await run(process.execPath, [
      main,
      'traverser',
      'traverser-flags',
      '--root',
      root,
      '--no-install',
      '--description',
      'From flags.',
    ]);
    expect(stdout).toContain('packages/traverser-flags/src/flags-traverser.ts');
    expect(stdout).toContain('./dev install');
    expect(await readJson(path.join(root, 'packages/traverser-flags/package.json'))).toMatchObject({
      description: 'From flags.',
    });
    await expect(run(process.execPath, [main, 'critic', 'x', '--root', root])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: ./dev new <traverser|reranker|planner> <name>'),
    });
  });

  it('names the class and file after the short name, and refuses names that are not kebab-case', () => {
    expect(stageNames('traverser', 'two-words')).toMatchObject({
      folder: 'traverser-two-words',
      packageName: '@weft/traverser-two-words',
      className: 'TwoWordsTraverser',
      fileName: 'two-words-traverser',
    });
    expect(stageNames('reranker', 'reranker-x').folder).toBe('reranker-x');
    expect(() => stageNames('planner', 'Bad_Name')).toThrow(/kebab-case/);
  });

  it('adds a key after the last smaller one, keeping the others in place', () => {
    expect(Object.keys(withKey({ b: '1', a: '2', d: '3' }, 'c', '4'))).toEqual(['b', 'a', 'c', 'd']);
    expect(Object.keys(withKey({ b: '1' }, 'a', '2'))).toEqual(['a', 'b']);
  });
});

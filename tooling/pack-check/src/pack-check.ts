// The proof that "install the packages you need" works: builds every public package (turbo: tsc to
// dist/ and publint), packs each with pnpm (which rewrites workspace: and catalog: ranges), checks
// the tarballs, installs them with plain npm into a scratch project in the temp folder (no
// workspace links, no @weft/source condition), imports every entry point, compiles an example there
// with tsc against the published types and runs it as JavaScript on a toy bundle it writes; then a
// stage contributed from outside (examples/src/contributed-stage.ts) is compiled there too and
// trained by trainStacks beside the built-in stacks, from the published packages alone.
//
//   node tooling/pack-check/src/pack-check.ts [--keep] [--skip <package>]...
//
// Progress goes to stderr; stdout gets one line, `pack-check: N packages packed, example ran in X s`.
// Exits 1 on any problem (each printed), 0 otherwise. --keep leaves the scratch project for a look;
// --skip leaves a package out (one still being written in a working copy; never in CI).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { exportTargets, type PackedManifest, tarballProblems, tarballWarnings } from './tarball-problems.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The example run in the scratch project, and the program that writes its bundle. */
const exampleFile = 'examples/src/open-store-and-query.ts';
const toyBundleFile = 'examples/src/toy-bundle.ts';
/** A stage contributed from outside: compiled against the published types and trained by trainStacks. */
const contributedStageFile = 'examples/src/contributed-stage.ts';
const exampleQuery = 'telephoto zoom lens for birds';
const exampleAnswer = /^1\. p:nikkor /m;

class PackCheckError extends Error {}

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (line: string) => process.stderr.write(`[pack-check ${elapsed()}] ${line}\n`);

/**
 * The environment of everything run in the scratch project: nothing of the workspace leaks in (no
 * NODE_OPTIONS conditions, nothing a `pnpm run` sets about the running script or package). The
 * machine's npm configuration (npm_config_registry, _cache, proxies) stays: CI may need it.
 */
function outsideEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      key === 'NODE_OPTIONS' ||
      /^(npm_package_|npm_lifecycle_|npm_execpath|npm_node_execpath|pnpm_|PNPM_)/i.test(key)
    )
      continue;
    env[key] = value;
  }
  return { ...env, LANCEDB_LOG: 'error', RUST_LOG: 'error' };
}

async function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 << 20,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim().split('\n').slice(-60).join('\n');
    throw new PackCheckError(
      `${command} ${args.join(' ')} (in ${options.cwd}) failed: ${failed.message.split('\n')[0]}\n${output}`,
    );
  }
}

/** Workspace packages that are published: every package.json under the workspace globs without `private`. */
async function publicPackages(): Promise<{ name: string; directory: string }[]> {
  const found: { name: string; directory: string }[] = [];
  for (const group of ['packages', 'apps', 'devkit', 'tooling']) {
    for (const entry of await readdir(path.join(root, group))) {
      const file = path.join(root, group, entry, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(await readFile(file, 'utf8')) as { name: string; private?: boolean };
      if (manifest.private !== true) found.push({ name: manifest.name, directory: path.dirname(file) });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

async function listFiles(directory: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(directory, entry.name), relative)));
    else out.push(relative);
  }
  return out;
}

/** Runs `task` over `items`, `limit` at a time. */
async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}

interface Packed {
  readonly name: string;
  readonly tarball: string;
  readonly manifest: PackedManifest;
}

/** Packs one package and checks what the tarball holds. */
async function packOne(
  pkg: { name: string; directory: string },
  scratch: string,
): Promise<Packed & { problems: string[]; warnings: string[] }> {
  const destination = path.join(scratch, 'tarballs', pkg.name.replace(/[@/]/g, '_'));
  await mkdir(destination, { recursive: true });
  await run('pnpm', ['pack', '--pack-destination', destination], { cwd: pkg.directory });
  const [tarball] = (await readdir(destination)).filter((file) => file.endsWith('.tgz'));
  if (!tarball) throw new PackCheckError(`${pkg.name}: pnpm pack wrote no tarball`);
  const unpacked = path.join(destination, 'unpacked');
  await mkdir(unpacked);
  await run('tar', ['-xzf', path.join(destination, tarball), '-C', unpacked], { cwd: scratch });
  const files = await listFiles(path.join(unpacked, 'package'));
  const manifest = JSON.parse(
    await readFile(path.join(unpacked, 'package', 'package.json'), 'utf8'),
  ) as PackedManifest;
  const sources = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
    sources.set(file, await readFile(path.join(unpacked, 'package', file), 'utf8'));
  }
  const packed = { manifest, files, sources };
  return {
    name: pkg.name,
    tarball: path.join(destination, tarball),
    manifest,
    problems: tarballProblems(packed),
    warnings: tarballWarnings(packed),
  };
}

/** Every `@weft/*` package the install placed must come from a tarball of this run, once. */
async function checkInstalledFromTarballs(project: string, packed: readonly Packed[]): Promise<string[]> {
  const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; resolved?: string }>;
  };
  const problems: string[] = [];
  const names = new Set(packed.map((p) => p.name));
  for (const [location, entry] of Object.entries(lock.packages)) {
    const name = location.split('node_modules/').at(-1)!;
    if (!names.has(name)) continue;
    if (location !== `node_modules/${name}`)
      problems.push(
        `${name} installed a second time at ${location} (${entry.version}): a dependency range the packed version does not satisfy`,
      );
    else if (!entry.resolved?.startsWith('file:'))
      problems.push(`${name} came from ${entry.resolved ?? 'nowhere'}, not from its tarball`);
  }
  for (const name of names)
    if (!lock.packages[`node_modules/${name}`]) problems.push(`${name} was not installed`);
  return problems;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      keep: { type: 'boolean', default: false },
      skip: { type: 'string', multiple: true, default: [] },
    },
  });
  const keep = values.keep;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'weft-pack-check-'));
  let failed = false;
  try {
    const packages = (await publicPackages()).filter((pkg) => !values.skip.includes(pkg.name));
    for (const name of values.skip) log(`warning: ${name} left out (--skip)`);
    // What a fresh clone would publish: no file left in dist/ by an earlier build (tsc never deletes
    // what it no longer emits), and no cached turbo output.
    for (const pkg of packages) await rm(path.join(pkg.directory, 'dist'), { recursive: true, force: true });
    log('pnpm build (turbo: tsc to dist/, publint)');
    const filters = values.skip.map((name) => `--filter=!${name}`);
    await run('pnpm', ['-s', 'build', '--force', '--output-logs=errors-only', ...filters], {
      cwd: root,
      timeoutMs: 600_000,
    });

    log(`pnpm pack: ${packages.length} public packages`);
    const packed = await inBatches(packages, 4, (pkg) => packOne(pkg, scratch));
    for (const warning of packed.flatMap((p) => p.warnings)) log(`warning: ${warning}`);
    const problems = packed.flatMap((p) => p.problems);
    if (problems.length) throw new PackCheckError(`tarball problems:\n  ${problems.join('\n  ')}`);

    // A project outside the workspace: nothing above it resolves @weft/* or sets conditions.
    const project = path.join(scratch, 'project');
    await mkdir(path.join(project, 'src'), { recursive: true });
    await writeFile(
      path.join(project, 'package.json'),
      `${JSON.stringify(
        {
          name: 'weft-pack-check',
          private: true,
          type: 'module',
          // kuzu's and @ladybugdb/core's install scripts put their native binaries in place; npm 11
          // asks for this consent.
          allowScripts: { kuzu: true, '@ladybugdb/core': true },
        },
        null,
        2,
      )}\n`,
    );
    const typesNode = JSON.parse(
      await readFile(path.join(root, 'node_modules/@types/node/package.json'), 'utf8'),
    ) as {
      version: string;
    };
    log('npm install of the tarballs (plain npm, registry for third-party dependencies)');
    const env = outsideEnv();
    // No --omit=optional: LanceDB's native binaries are optional dependencies too, and would go with it.
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...packed.map((p) => p.tarball),
        `@types/node@${typesNode.version}`,
      ],
      { cwd: project, env, timeoutMs: 600_000 },
    );
    const installProblems = await checkInstalledFromTarballs(project, packed);
    if (installProblems.length)
      throw new PackCheckError(`install problems:\n  ${installProblems.join('\n  ')}`);

    log('importing every entry point with plain node');
    const entries = packed.flatMap((p) =>
      Object.keys(
        typeof p.manifest.exports === 'object' && p.manifest.exports ? p.manifest.exports : { '.': '' },
      )
        .filter(
          (subpath) =>
            subpath !== './package.json' &&
            exportTargets((p.manifest.exports as Record<string, unknown>)[subpath]).length > 0,
        )
        .map((subpath) => (subpath === '.' ? p.name : `${p.name}/${subpath.slice(2)}`)),
    );
    await writeFile(
      path.join(project, 'import-all.mjs'),
      `${entries.map((entry) => `await import(${JSON.stringify(entry)});`).join('\n')}\nconsole.log('imported ${entries.length} entry points');\n`,
    );
    await run(process.execPath, ['import-all.mjs'], { cwd: project, env });

    log(`tsc: ${exampleFile}, ${toyBundleFile} and ${contributedStageFile} against the published types`);
    for (const file of [exampleFile, toyBundleFile, contributedStageFile])
      await copyFile(path.join(root, file), path.join(project, 'src', path.basename(file)));
    await writeFile(
      path.join(project, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            target: 'es2023',
            lib: ['es2023'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            types: ['node'],
            strict: true,
            // As most projects do: third-party declarations (the AI SDK's want DOM types) are not ours
            // to check; the example is checked against what @weft/* declares.
            skipLibCheck: true,
            rootDir: 'src',
            outDir: 'dist',
          },
          include: ['src'],
        },
        null,
        2,
      )}\n`,
    );
    await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
      cwd: project,
      env,
    });

    const bundle = path.join(scratch, 'toy-bundle');
    await run(process.execPath, ['dist/toy-bundle.js', bundle], { cwd: project, env });
    log('running the example as JavaScript');
    const exampleStarted = performance.now();
    const output = await run(
      process.execPath,
      [
        'dist/open-store-and-query.js',
        '--bundle',
        bundle,
        '--store',
        path.join(scratch, 'store'),
        '--query',
        exampleQuery,
      ],
      { cwd: project, env },
    );
    const exampleSeconds = (performance.now() - exampleStarted) / 1000;
    if (!exampleAnswer.test(output) || !output.includes('Explanation:'))
      throw new PackCheckError(
        `the example ran but printed no ranking with p:nikkor first and an explanation:\n${output}`,
      );
    log('training the contributed stage with trainStacks, from the published packages');
    await writeFile(
      path.join(project, 'train-contributed.mjs'),
      [
        "import { createStackRegistry, loadTrainingSets, trainStacks } from '@weft/stacks';",
        "import { openStore, replaceArtifacts } from '@weft/store';",
        "import { typePriorStack } from './dist/contributed-stage.js';",
        'const [bundle, directory] = process.argv.slice(2);',
        'const registry = createStackRegistry().register(typePriorStack);',
        'const sets = await loadTrainingSets(bundle);',
        'const store = await openStore(directory);',
        'try {',
        '  const trained = await replaceArtifacts(directory, (artifacts) =>',
        '    trainStacks({ registry, store, sets, artifacts, stacks: [typePriorStack.name] }),',
        '  );',
        "  for (const step of trained.steps) console.log(step.step + ': ' + step.summary);",
        '} finally {',
        '  await store.close();',
        '}',
        '',
      ].join('\n'),
    );
    const trainedOutput = await run(
      process.execPath,
      ['train-contributed.mjs', bundle, path.join(scratch, 'store')],
      { cwd: project, env },
    );
    if (!/^bm25-type-prior: answer rate by type/m.test(trainedOutput))
      throw new PackCheckError(`the contributed stage did not train:\n${trainedOutput}`);
    log(`done in ${elapsed()}`);
    console.log(
      `pack-check: ${packed.length} packages packed, example ran in ${exampleSeconds.toFixed(1)} s`,
    );
  } catch (error) {
    failed = true;
    process.stderr.write(
      `pack-check FAILED: ${error instanceof PackCheckError ? error.message : (error as Error).stack}\n`,
    );
    console.log(`pack-check: failed after ${elapsed()}`);
  } finally {
    if (keep) log(`scratch project kept in ${scratch}`);
    else await rm(scratch, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

await main();

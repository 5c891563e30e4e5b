// A release, end to end, without touching the repository: in a throw-away copy of the workspace
// (the files git tracks or would track, in the temp folder, dependencies installed from pnpm's store)
// `changeset version` applies the pending changesets (versions, a CHANGELOG.md per package), `pnpm
// build` builds, and `changeset publish` publishes every public package to a Verdaccio registry this
// check starts on 127.0.0.1. The published tarballs are checked (tarball-problems.ts); then, outside
// the workspace, with plain npm and that registry:
//   1. README.md's lines, exactly: a new project, the `npm install` of single packages, and the
//      README's program, run on a tiny WordNet-shaped bundle put where it looks for WordNet (kuzu's
//      install script must have put its native binary in place);
//   2. one traverser alone (@weft/traverser-ppr): only it and what it depends on are installed, and
//      its walk runs;
//   3. every other public package added to the first project: every entry point imported, examples
//      compiled with tsc against the published types and run, a stage from outside trained.
//
//   node tooling/release-check/src/release-check.ts [--keep] [--serve] [--port N]
//
// Progress goes to stderr; stdout gets one line, `release-check: N packages published …`. Exits 1 on
// any problem (each printed), 0 otherwise. --keep leaves the temp folder for a look; --serve leaves
// the registry running (until Ctrl-C) so that the README's lines can be tried against it.
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { readmeInstall } from './readme-install.ts';
import { exportTargets, type PackedManifest, tarballProblems, tarballWarnings } from './tarball-problems.ts';
import { eyeParts, writeTinyBundle } from './tiny-bundle.ts';
import { type Registry, startVerdaccio } from './verdaccio.ts';
import { changesetProblems, type WorkspacePackage, workspacePackages } from './workspace.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** Where README.md's program writes WordNet and builds its store: the check moves both into its folder. */
const readmeTmp = '/tmp/';
const readmeBundle = '/tmp/wordnet-3.1';
/** The traverser installed alone. */
const loneTraverser = '@weft/traverser-ppr';
/** Compiled against the published types in the project with every package, then run. */
const exampleFile = 'examples/src/open-store-and-query.ts';
const toyBundleFile = 'examples/src/toy-bundle.ts';
const contributedStageFile = 'examples/src/contributed-stage.ts';
const exampleQuery = 'telephoto zoom lens for birds';
const exampleAnswer = /^1\. p:nikkor /m;

class ReleaseCheckError extends Error {}

const started = performance.now();
const seconds = (since = started) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const log = (line: string) => process.stderr.write(`[release-check ${seconds()}] ${line}\n`);

async function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 600_000,
      maxBuffer: 64 << 20,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim().split('\n').slice(-60).join('\n');
    throw new ReleaseCheckError(
      `${command} ${args.join(' ')} (in ${options.cwd}) failed: ${failed.message.split('\n')[0]}\n${output}`,
    );
  }
}

/**
 * The environment of everything run outside the workspace: nothing of the workspace leaks in (no
 * NODE_OPTIONS conditions, nothing a `pnpm run` sets), and npm's registry is ours. The machine's
 * other npm configuration (cache, proxies) stays.
 */
function outsideEnv(registry: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      key === 'NODE_OPTIONS' ||
      /^(npm_package_|npm_lifecycle_|npm_execpath|npm_node_execpath|npm_config_registry|pnpm_|PNPM_)/i.test(
        key,
      )
    )
      continue;
    env[key] = value;
  }
  return { ...env, npm_config_registry: registry, LANCEDB_LOG: 'error', RUST_LOG: 'error' };
}

/** The files git tracks or would track (not ignored), copied into `destination`: no node_modules, dist/, caches. */
async function copyWorkspace(destination: string, scratch: string): Promise<number> {
  const listed = (
    await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })
  )
    .split('\0')
    .filter((file) => file && existsSync(path.join(root, file)));
  const list = path.join(scratch, 'workspace-files');
  await writeFile(list, `${listed.join('\0')}\0`);
  const archive = path.join(scratch, 'workspace.tar');
  await run('tar', ['--null', '-T', list, '-cf', archive], { cwd: root });
  await mkdir(destination, { recursive: true });
  await run('tar', ['-xf', archive, '-C', destination], { cwd: scratch });
  await rm(archive);
  return listed.length;
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

/** `changeset version` in the copy: what it bumped, each bumped package with a CHANGELOG.md that starts with it. */
async function versionPackages(
  workspace: string,
): Promise<{ before: WorkspacePackage[]; after: WorkspacePackage[]; problems: string[] }> {
  const before = await workspacePackages(workspace);
  await run('pnpm', ['exec', 'changeset', 'version'], { cwd: workspace });
  const after = await workspacePackages(workspace);
  const was = new Map(before.map((pkg) => [pkg.name, pkg.version]));
  const problems: string[] = [];
  for (const pkg of after) {
    if (pkg.private) {
      if (pkg.version !== was.get(pkg.name))
        problems.push(`${pkg.name} is private, yet changeset version moved it to ${pkg.version}`);
      continue;
    }
    if (pkg.version === was.get(pkg.name)) continue;
    const changelog = await readFile(path.join(pkg.directory, 'CHANGELOG.md'), 'utf8').catch(() => '');
    if (!new RegExp(`^## ${pkg.version.replace(/\./g, '\\.')}$`, 'm').test(changelog))
      problems.push(`${pkg.name}@${pkg.version}: CHANGELOG.md has no "## ${pkg.version}" section`);
  }
  const left = (await readdir(path.join(workspace, '.changeset'))).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  if (left.length) problems.push(`changeset version left ${left.length} changesets: ${left.join(', ')}`);
  return { before, after, problems };
}

interface Published {
  readonly name: string;
  readonly manifest: PackedManifest;
  /** The tarball's `dist.integrity`: what an install from the registry records in its lockfile. */
  readonly integrity: string;
}

/**
 * What the registry holds after `changeset publish`: every public package at its new version, with
 * a tarball that passes tarballProblems; no private package.
 */
async function checkRegistry(
  registry: Registry,
  packages: readonly WorkspacePackage[],
  scratch: string,
): Promise<{ published: Published[]; problems: string[] }> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const published: Published[] = [];
  await inBatches(packages, 6, async (pkg) => {
    const response = await fetch(`${registry.url}${pkg.name.replace('/', '%2f')}`);
    if (pkg.private) {
      if (response.ok) problems.push(`${pkg.name} is private, yet the registry serves it`);
      return;
    }
    if (!response.ok) {
      problems.push(`${pkg.name}@${pkg.version} was not published (the registry answers ${response.status})`);
      return;
    }
    const packument = (await response.json()) as {
      'dist-tags': Record<string, string>;
      versions: Record<string, { dist: { tarball: string; integrity: string } }>;
    };
    const version = packument.versions[pkg.version];
    if (!version) {
      problems.push(
        `${pkg.name}@${pkg.version} was not published (the registry has ${Object.keys(packument.versions)})`,
      );
      return;
    }
    if (packument['dist-tags'].latest !== pkg.version)
      problems.push(`${pkg.name}: latest is ${packument['dist-tags'].latest}, not ${pkg.version}`);
    const tarball = await fetch(version.dist.tarball);
    if (!tarball.ok) {
      problems.push(`${pkg.name}@${pkg.version}: its tarball answers ${tarball.status}`);
      return;
    }
    const destination = path.join(scratch, 'tarballs', pkg.name.replace(/[@/]/g, '_'));
    await mkdir(destination, { recursive: true });
    const file = path.join(destination, 'package.tgz');
    await writeFile(file, Buffer.from(await tarball.arrayBuffer()));
    await run('tar', ['-xzf', file, '-C', destination], { cwd: scratch });
    const unpacked = path.join(destination, 'package');
    const files = await listFiles(unpacked);
    const manifest = JSON.parse(
      await readFile(path.join(unpacked, 'package.json'), 'utf8'),
    ) as PackedManifest;
    const sources = new Map<string, string>();
    for (const f of files.filter((f) => f.endsWith('.js') || f.endsWith('.d.ts')))
      sources.set(f, await readFile(path.join(unpacked, f), 'utf8'));
    const packed = { manifest, files, sources };
    problems.push(...tarballProblems(packed));
    warnings.push(...tarballWarnings(packed));
    published.push({ name: pkg.name, manifest, integrity: version.dist.integrity });
  });
  for (const warning of warnings) log(`warning: ${warning}`);
  return { published: published.sort((a, b) => a.name.localeCompare(b.name)), problems };
}

/**
 * Every `@weft/*` package the project installed is the tarball the release published (same
 * integrity; lockfiles may omit `resolved`, e.g. with omit-lockfile-registry-resolved), installed
 * once (no second copy nested), and nothing but `expected` was installed.
 */
async function checkInstalledFromRegistry(
  project: string,
  registry: Registry,
  published: readonly Published[],
  expected: ReadonlySet<string>,
): Promise<string[]> {
  const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; resolved?: string; integrity?: string }>;
  };
  const integrity = new Map(published.map((p) => [p.name, p.integrity]));
  const problems: string[] = [];
  const installed = new Set<string>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    const name = location.split('node_modules/').at(-1)!;
    if (!/^@(weft|weft-dev|internal)\//.test(name)) continue;
    installed.add(name);
    if (location !== `node_modules/${name}`)
      problems.push(
        `${name} installed a second time at ${location} (${entry.version}): a range the published version does not satisfy`,
      );
    else if (
      entry.integrity !== integrity.get(name) ||
      (entry.resolved && !entry.resolved.startsWith(registry.url))
    )
      problems.push(
        `${name} is not the tarball the release published (from ${entry.resolved ?? 'elsewhere'})`,
      );
  }
  for (const name of expected) if (!installed.has(name)) problems.push(`${name} was not installed`);
  for (const name of installed)
    if (!expected.has(name)) problems.push(`${name} was installed, though nothing asked for it`);
  return problems;
}

/** The `@weft/*` packages npm installs with `names`: their dependencies and required peers, transitively. */
function closure(names: readonly string[], published: readonly Published[]): Set<string> {
  const manifests = new Map(published.map((p) => [p.name, p.manifest]));
  const out = new Set<string>();
  const visit = (name: string) => {
    if (out.has(name) || !name.startsWith('@weft')) return;
    out.add(name);
    const manifest = manifests.get(name) as
      | (PackedManifest & { peerDependenciesMeta?: Record<string, { optional?: boolean }> })
      | undefined;
    for (const dep of Object.keys(manifest?.dependencies ?? {})) visit(dep);
    for (const peer of Object.keys(manifest?.peerDependencies ?? {}))
      if (!manifest?.peerDependenciesMeta?.[peer]?.optional) visit(peer);
  };
  for (const name of names) visit(name);
  return out;
}

/** README.md's lines, exactly, in a new project; its program run on the tiny bundle. */
async function readmeProject(
  scratch: string,
  registry: Registry,
  published: readonly Published[],
): Promise<{ project: string; output: string }> {
  const readme = readmeInstall(await readFile(path.join(root, 'README.md'), 'utf8'));
  if (!readme.program.includes(readmeBundle))
    throw new ReleaseCheckError(
      `README.md's program no longer reads ${readmeBundle}: the check puts its tiny bundle there (tooling/release-check)`,
    );
  const project = path.join(scratch, 'readme-project');
  const tmp = path.join(scratch, 'readme-tmp/');
  await mkdir(project, { recursive: true });
  await writeTinyBundle(path.join(tmp, path.basename(readmeBundle)));
  await writeFile(path.join(project, 'main.ts'), readme.program.replaceAll(readmeTmp, tmp));
  const env = outsideEnv(registry.url);
  let output = '';
  for (const command of readme.commands) {
    log(`readme project: $ ${command}`);
    output = await run('bash', ['-c', command], { cwd: project, env });
    if (command === readme.install) {
      // kuzu's install script copies its prebuilt native binary into place: without it, no Kùzu.
      if (!existsSync(path.join(project, 'node_modules/kuzu/kuzujs.node')))
        throw new ReleaseCheckError(
          `after "${command}" kuzu has no kuzujs.node: npm did not run its install script`,
        );
      const expected = closure(readme.packages, published);
      const problems = await checkInstalledFromRegistry(project, registry, published, expected);
      if (problems.length) throw new ReleaseCheckError(`README install:\n  ${problems.join('\n  ')}`);
    }
  }
  const first = /^Results:\n\s+1\. .*\[([^\]]+)\]/m.exec(output);
  if (!first || !(eyeParts as readonly string[]).includes(first[1]!))
    throw new ReleaseCheckError(
      `README.md's program ran but did not rank a part of the eye (${eyeParts.join(', ')}) first:\n${output}`,
    );
  return { project, output };
}

/** One traverser installed alone: only it and what it depends on, and its walk runs. */
async function loneTraverserProject(scratch: string, registry: Registry, published: readonly Published[]) {
  const project = path.join(scratch, 'traverser-project');
  await mkdir(project, { recursive: true });
  const env = outsideEnv(registry.url);
  for (const command of [
    'npm init -y',
    'npm pkg set type=module',
    `npm install --no-audit --no-fund ${loneTraverser}`,
  ])
    await run('bash', ['-c', command], { cwd: project, env });
  const problems = await checkInstalledFromRegistry(
    project,
    registry,
    published,
    closure([loneTraverser], published),
  );
  if (problems.length) throw new ReleaseCheckError(`${loneTraverser} alone:\n  ${problems.join('\n  ')}`);
  await writeFile(
    path.join(project, 'walk.js'),
    [
      `import { PprTraverser, pushPersonalizedPageRank } from '${loneTraverser}';`,
      "const edges = [['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']];",
      'const neighbors = async (nodes) => new Map(nodes.map((node) => [node, [',
      "  ...edges.filter(([s]) => s === node).map(([, d]) => ({ node: d, nodeType: 't', edgeType: 'e', direction: 'out' })),",
      "  ...edges.filter(([, d]) => d === node).map(([s]) => ({ node: s, nodeType: 't', edgeType: 'e', direction: 'in' })),",
      ']]));',
      "const walk = await pushPersonalizedPageRank({ seeds: new Map([['a', 1]]), neighbors });",
      'const order = [...walk.rank].sort((x, y) => y[1] - x[1]).map(([node]) => node);',
      'console.log(JSON.stringify({ stopped: walk.stopped, order, traverser: new PprTraverser().name }));',
      '',
    ].join('\n'),
  );
  const output = JSON.parse(await run(process.execPath, ['walk.js'], { cwd: project, env })) as {
    stopped: string;
    order: string[];
    traverser: string;
  };
  if (
    output.stopped !== 'converged' ||
    output.order[0] !== 'a' ||
    output.order.length !== 4 ||
    !output.traverser
  )
    throw new ReleaseCheckError(`${loneTraverser}'s walk from a: ${JSON.stringify(output)}`);
  return closure([loneTraverser], published).size;
}

/** Every other public package added to the README's project: entry points, examples, a stage from outside. */
async function everyPackage(
  project: string,
  scratch: string,
  registry: Registry,
  published: readonly Published[],
): Promise<number> {
  const env = outsideEnv(registry.url);
  const typesNode = JSON.parse(
    await readFile(path.join(root, 'node_modules/@types/node/package.json'), 'utf8'),
  ) as {
    version: string;
  };
  // No --omit=optional: LanceDB's native binaries are optional dependencies and would go with it.
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...published.map((p) => p.name),
      `@types/node@${typesNode.version}`,
    ],
    { cwd: project, env },
  );
  const problems = await checkInstalledFromRegistry(
    project,
    registry,
    published,
    new Set(published.map((p) => p.name)),
  );
  if (problems.length) throw new ReleaseCheckError(`every package:\n  ${problems.join('\n  ')}`);

  log('every package: importing every entry point with plain node');
  const entries = published.flatMap((p) =>
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

  log(
    `every package: tsc ${exampleFile}, ${toyBundleFile}, ${contributedStageFile} against the published types`,
  );
  await mkdir(path.join(project, 'src'), { recursive: true });
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
          // to check; the examples are checked against what @weft/* declares.
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
  const store = path.join(scratch, 'toy-store');
  await run(process.execPath, ['dist/toy-bundle.js', bundle], { cwd: project, env });
  log('every package: running the example as JavaScript');
  const output = await run(
    process.execPath,
    ['dist/open-store-and-query.js', '--bundle', bundle, '--store', store, '--query', exampleQuery],
    { cwd: project, env },
  );
  if (!exampleAnswer.test(output) || !output.includes('Explanation:'))
    throw new ReleaseCheckError(
      `the example ran but printed no ranking with p:nikkor first and an explanation:\n${output}`,
    );
  log('every package: training the contributed stage with trainStacks');
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
  const trained = await run(process.execPath, ['train-contributed.mjs', bundle, store], {
    cwd: project,
    env,
  });
  if (!/^bm25-type-prior: answer rate by type/m.test(trained))
    throw new ReleaseCheckError(`the contributed stage did not train:\n${trained}`);
  return entries.length;
}

/** The registry the machine's npm uses: Verdaccio's uplink for third-party packages. */
async function upstreamRegistry(): Promise<string> {
  const env = { ...process.env };
  delete env.npm_config_registry;
  const configured = (
    await run('npm', ['config', 'get', 'registry'], { cwd: os.tmpdir(), env }).catch(() => '')
  )
    .trim()
    .replace(/\/?$/, '/');
  return /^https?:\/\//.test(configured) ? configured : 'https://registry.npmjs.org/';
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      keep: { type: 'boolean', default: false },
      serve: { type: 'boolean', default: false },
      port: { type: 'string' },
    },
  });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'weft-release-check-'));
  // Interrupted (Ctrl-C, a CI timeout): the registry stops (verdaccio.ts) and the temp folder goes.
  const interrupted = (signal: NodeJS.Signals) => {
    process.stderr.write(`release-check: ${signal}, stopping\n`);
    if (!values.keep) rmSync(scratch, { recursive: true, force: true });
    process.exit(1);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, interrupted);
  let registry: Registry | undefined;
  let failed = false;
  try {
    const pending = await changesetProblems(root);
    if (pending.length) throw new ReleaseCheckError(`pending changesets:\n  ${pending.join('\n  ')}`);

    const workspace = path.join(scratch, 'workspace');
    const copied = await copyWorkspace(workspace, scratch);
    log(`copied the workspace (${copied} files git tracks or would track) to ${workspace}`);
    log('pnpm install --frozen-lockfile --prefer-offline (in the copy)');
    await run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], {
      cwd: workspace,
    });

    log('changeset version (in the copy)');
    const versioned = await versionPackages(workspace);
    if (versioned.problems.length)
      throw new ReleaseCheckError(`changeset version:\n  ${versioned.problems.join('\n  ')}`);
    const was = new Map(versioned.before.map((pkg) => [pkg.name, pkg.version]));
    const publics = versioned.after.filter((pkg) => !pkg.private);
    const bumped = publics.filter((pkg) => pkg.version !== was.get(pkg.name));
    log(
      `changeset version: ${bumped.length} of ${publics.length} public packages bumped, each with a CHANGELOG.md`,
    );

    log('pnpm build (in the copy: turbo, tsc to dist/, publint)');
    const buildStarted = performance.now();
    await run('pnpm', ['-s', 'build', '--output-logs=errors-only'], { cwd: workspace, timeoutMs: 900_000 });
    log(`built in ${seconds(buildStarted)}`);

    const upstream = await upstreamRegistry();
    registry = await startVerdaccio({
      directory: path.join(scratch, 'registry'),
      upstream,
      ...(values.port ? { port: Number(values.port) } : {}),
    });
    log(`Verdaccio on ${registry.url} (third-party packages from ${upstream})`);

    log('changeset publish (in the copy, to Verdaccio)');
    const publishStarted = performance.now();
    await appendFile(path.join(workspace, '.npmrc'), `\n${registry.npmrc()}`);
    await run('pnpm', ['exec', 'changeset', 'publish', '--no-git-tag'], {
      cwd: workspace,
      env: { ...process.env, npm_config_registry: registry.url },
      timeoutMs: 900_000,
    });
    log(`changeset publish done in ${seconds(publishStarted)}`);
    const { published, problems } = await checkRegistry(registry, versioned.after, scratch);
    if (problems.length) throw new ReleaseCheckError(`published packages:\n  ${problems.join('\n  ')}`);
    log(`the registry holds ${published.length} packages, no private one; their tarballs pass`);

    log(`README.md's lines in a new project, and ${loneTraverser} alone in another (plain npm)`);
    const [readme, lone] = await Promise.all([
      readmeProject(scratch, registry, published),
      loneTraverserProject(scratch, registry, published),
    ]);
    log(`${loneTraverser} alone: ${lone} @weft packages installed, its walk ran`);
    log('every other public package added to the README project');
    const entries = await everyPackage(readme.project, scratch, registry, published);
    log(`done in ${seconds()}`);
    console.log(
      `release-check: ${published.length} packages published (${bumped.length} bumped), README install ran, ${loneTraverser} alone ran, ${entries} entry points imported, in ${seconds()}`,
    );

    if (values.serve) {
      const names = readmeInstall(await readFile(path.join(root, 'README.md'), 'utf8')).packages;
      process.stderr.write(
        `\nThe registry stays up until Ctrl-C: ${registry.url}\n  npm install --registry ${registry.url} ${names.join(' ')}\n`,
      );
      process.off('SIGINT', interrupted);
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    }
  } catch (error) {
    failed = true;
    process.stderr.write(
      `release-check FAILED: ${error instanceof ReleaseCheckError ? error.message : (error as Error).stack}\n`,
    );
    if (registry) {
      const tail = (await readFile(registry.logFile, 'utf8').catch(() => '')).trim().split('\n').slice(-20);
      if (tail.join('')) process.stderr.write(`Verdaccio's log, last lines:\n  ${tail.join('\n  ')}\n`);
    }
    console.log(`release-check: failed after ${seconds()}`);
  } finally {
    await registry?.stop();
    if (values.keep) log(`temp folder kept: ${scratch}`);
    else await rm(scratch, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

await main();

// `./dev new <traverser|reranker|planner> <name> [--stack <stack>]`: writes a stage package in the
// repository's shape, its changeset, and optionally a built-in stack that uses it (its module, its
// entry in the listing of packages/stacks/src/stack-listing.ts, its loader in builtin-stacks.ts, the
// export and the dependency).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  changeset,
  indexTs,
  json,
  listingEntry,
  loaderEntry,
  packageJson,
  readme,
  type StackNames,
  type StageKind,
  type StageNames,
  stackNames,
  stackTestTs,
  stackTs,
  stageKinds,
  stageNames,
  stageTestTs,
  stageTs,
  tsconfigBuildJson,
  tsconfigJson,
  vitestConfig,
} from './templates.ts';

export interface NewPackageOptions {
  /** The repository root to write into (a scratch copy in tests). */
  readonly root: string;
  readonly kind: StageKind;
  /** The package's short name (`demo` → packages/traverser-demo), or its folder name. */
  readonly name: string;
  /** One line on the stage: package.json, README, changeset (default: a TODO). */
  readonly description?: string;
  /** Also add a built-in stack of this name that uses the stage. */
  readonly stack?: string;
  /** The stack's one line for `--help` and the stack tables (default: a TODO). */
  readonly stackDescription?: string;
}

export interface NewPackageResult {
  readonly stage: StageNames;
  readonly stack?: StackNames;
  /** Files written, relative to the root. */
  readonly created: readonly string[];
  /** Existing files changed, relative to the root. */
  readonly edited: readonly string[];
}

/** Where `./dev new` adds a stack in the listing of stack-listing.ts. */
export const listingMarker = '  // ./dev new … --stack <name> adds a stack above this line.\n';

/** Where `./dev new` adds the stack's module among the loaders of builtin-stacks.ts. */
export const loaderMarker = '  // ./dev new … --stack <name> adds a module above this line.\n';

export function isStageKind(kind: string): kind is StageKind {
  return Object.hasOwn(stageKinds, kind);
}

/**
 * `record` with `key` added where it sorts among the keys (after the last smaller one), keeping the
 * order of the others as the file had it.
 */
export function withKey(
  record: Readonly<Record<string, string>>,
  key: string,
  value: string,
): Record<string, string> {
  const entries = Object.entries(record).filter(([k]) => k !== key);
  let at = 0;
  for (const [i, [k]] of entries.entries()) if (k < key) at = i + 1;
  entries.splice(at, 0, [key, value]);
  return Object.fromEntries(entries);
}

/** Writes the package (and stack); refuses before writing anything when a target exists or a marker is missing. */
export async function newPackage(options: NewPackageOptions): Promise<NewPackageResult> {
  const { root } = options;
  const stage = stageNames(options.kind, options.name, options.description);
  const stack = options.stack ? stackNames(options.stack, stage, options.stackDescription) : undefined;
  const at = (...parts: string[]) => path.join(root, ...parts);
  const packageDir = path.join('packages', stage.folder);
  const changesetFile = path.join('.changeset', `${stage.folder}-package.md`);

  // Every check first: a refused run leaves the checkout as it was.
  const taken = [packageDir, changesetFile, ...(stack ? [stackFile(stack)] : [])].filter((file) =>
    existsSync(at(file)),
  );
  if (taken.length > 0) throw new Error(`already there: ${taken.join(', ')}`);
  const listingFile = path.join('packages', 'stacks', 'src', 'stack-listing.ts');
  const loaderFile = path.join('packages', 'stacks', 'src', 'builtin-stacks.ts');
  let listing: string | undefined;
  let loaders: string | undefined;
  if (stack) {
    listing = await readFile(at(listingFile), 'utf8');
    if (!listing.includes(listingMarker)) {
      throw new Error(`${listingFile} has no line "${listingMarker.trim()}" to add the stack above`);
    }
    if (listing.includes(`name: '${stack.name}',`)) {
      throw new Error(`${listingFile} already lists a stack "${stack.name}"`);
    }
    loaders = await readFile(at(loaderFile), 'utf8');
    if (!loaders.includes(loaderMarker)) {
      throw new Error(`${loaderFile} has no line "${loaderMarker.trim()}" to add the module above`);
    }
  }

  // Read before anything is written: a checkout without it is refused whole.
  const license = await readFile(at('LICENSE'), 'utf8');

  const created: string[] = [];
  const edited: string[] = [];
  const create = async (file: string, text: string) => {
    await mkdir(path.dirname(at(file)), { recursive: true });
    await writeFile(at(file), text, { flag: 'wx' });
    created.push(file);
  };
  const editJson = async (file: string, edit: (manifest: Record<string, unknown>) => void) => {
    const manifest = JSON.parse(await readFile(at(file), 'utf8')) as Record<string, unknown>;
    edit(manifest);
    await writeFile(at(file), json(manifest));
    edited.push(file);
  };

  await create(path.join(packageDir, 'package.json'), packageJson(stage));
  await create(path.join(packageDir, 'tsconfig.json'), tsconfigJson);
  await create(path.join(packageDir, 'tsconfig.build.json'), tsconfigBuildJson);
  await create(path.join(packageDir, 'vitest.config.ts'), vitestConfig);
  await create(path.join(packageDir, 'README.md'), readme(stage));
  // npm packs a package's own LICENSE only: each carries a copy of the repository's.
  await create(path.join(packageDir, 'LICENSE'), license);
  await create(path.join(packageDir, 'src', 'index.ts'), indexTs(stage));
  await create(path.join(packageDir, 'src', `${stage.fileName}.ts`), stageTs(stage));
  await create(path.join(packageDir, 'src', `${stage.fileName}.test.ts`), stageTestTs(stage));
  await create(changesetFile, changeset(stage, stack));
  // The README's example is type-checked through examples/ (examples/src/readme-code.test.ts).
  await editJson(path.join('examples', 'package.json'), (manifest) => {
    manifest.devDependencies = withKey(
      (manifest.devDependencies ?? {}) as Record<string, string>,
      stage.packageName,
      'workspace:*',
    );
  });

  if (stack && listing && loaders) {
    await create(stackFile(stack), stackTs(stack, stage));
    await create(stackFile(stack).replace(/\.ts$/, '.test.ts'), stackTestTs(stack));
    await writeFile(
      at(listingFile),
      listing.replace(listingMarker, `${listingEntry(stack)}${listingMarker}`),
    );
    edited.push(listingFile);
    await writeFile(at(loaderFile), loaders.replace(loaderMarker, `${loaderEntry(stack)}${loaderMarker}`));
    edited.push(loaderFile);
    const indexFile = path.join('packages', 'stacks', 'src', 'index.ts');
    const index = await readFile(at(indexFile), 'utf8');
    await writeFile(at(indexFile), `${index}export { ${stack.exportName} } from './${stack.fileName}.ts';\n`);
    edited.push(indexFile);
    await editJson(path.join('packages', 'stacks', 'package.json'), (manifest) => {
      manifest.dependencies = withKey(
        (manifest.dependencies ?? {}) as Record<string, string>,
        stage.packageName,
        'workspace:^',
      );
    });
  }
  return { stage, ...(stack ? { stack } : {}), created, edited };
}

function stackFile(stack: StackNames): string {
  return path.join('packages', 'stacks', 'src', `${stack.fileName}.ts`);
}

// ./dev new <traverser|reranker|planner> <name> [--description "<line>"] [--stack <stack>]
//           [--stack-description "<line>"] [--root <dir>] [--no-install]
//
// Writes the package (see new-package.ts). On this checkout (no --root) it then runs `pnpm install`
// (links the package, updates pnpm-lock.yaml), formats what it wrote with biome and, with --stack,
// rewrites the READMEs' stack tables; --no-install leaves those steps to you.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isStageKind, newPackage } from './new-package.ts';
import { stageKinds } from './templates.ts';

const repository = path.resolve(import.meta.dirname, '../../..');
const usage = `usage: ./dev new <${Object.keys(stageKinds).join('|')}> <name> [--description "<one line>"]
               [--stack <stack name>] [--stack-description "<one line>"] [--root <dir>] [--no-install]

  <name>               kebab-case: "demo" writes packages/traverser-demo (@weft/traverser-demo, DemoTraverser)
  --description        the package's one line (package.json, README, changeset); default a TODO
  --stack              also a built-in stack of @weft/stacks that uses the stage: its module, its
                       entry in stack-listing.ts, its loader in builtin-stacks.ts, the export, the
                       dependency, a conformance test
  --stack-description  the stack's one line for --help and the stack tables; default a TODO
  --root               write into another checkout (default: this one)
  --no-install         skip pnpm install, biome and the stack tables afterwards`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    description: { type: 'string' },
    stack: { type: 'string' },
    'stack-description': { type: 'string' },
    root: { type: 'string' },
    'no-install': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const [kind, name, ...rest] = positionals;
if (!kind || !name || rest.length > 0 || !isStageKind(kind)) {
  console.error(usage);
  process.exit(2);
}
const root = path.resolve(values.root ?? repository);

let result: Awaited<ReturnType<typeof newPackage>>;
try {
  result = await newPackage({
    root,
    kind,
    name,
    ...(values.description ? { description: values.description } : {}),
    ...(values.stack ? { stack: values.stack } : {}),
    ...(values['stack-description'] ? { stackDescription: values['stack-description'] } : {}),
  });
} catch (error) {
  console.error(`dev new: ${(error as Error).message}`);
  process.exit(1);
}
const { stage, stack, created, edited } = result;
console.log(`wrote ${created.length} files:\n${created.map((f) => `  ${f}`).join('\n')}`);
console.log(`edited:\n${edited.map((f) => `  ${f}`).join('\n')}`);

const run = (command: string, args: string[]) => {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`dev new: ${command} exited with ${status}; the files are written, run it again by hand`);
    process.exit(1);
  }
};
const followUps = root === repository && !values['no-install'];
if (followUps) {
  run('pnpm', ['install']);
  const code = [...created, ...edited].filter((f) => f.endsWith('.ts'));
  run(path.join(root, 'node_modules', '.bin', 'biome'), ['check', '--write', ...code]);
  if (stack)
    run(process.execPath, ['--conditions=@weft/source', 'packages/stacks/scripts/write-stack-tables.ts']);
}

const stageFile = path.join('packages', stage.folder, 'src', `${stage.fileName}.ts`);
const steps = [
  ...(followUps
    ? []
    : [
        './dev install   # links the package, updates pnpm-lock.yaml',
        ...(stack
          ? ['./dev node --conditions=@weft/source packages/stacks/scripts/write-stack-tables.ts']
          : []),
      ]),
  `write the stage in ${stageFile} (its test: ${stageFile.replace(/\.ts$/, '.test.ts')})`,
  ...(values.description
    ? []
    : [`describe it: packages/${stage.folder}/package.json, README.md, the changeset`]),
  ...(stack && !values['stack-description']
    ? [
        `describe the stack in packages/stacks/src/stack-listing.ts, then rewrite the tables (${'./dev node --conditions=@weft/source packages/stacks/scripts/write-stack-tables.ts'})`,
      ]
    : []),
  `./dev pnpm exec vitest run packages/${stage.folder}${stack ? ` packages/stacks/src/${stack.fileName}.test.ts packages/stacks/src/stack-table.test.ts` : ''} --maxWorkers=1`,
];
console.log(`\nnext:\n${steps.map((s) => `  ${s}`).join('\n')}`);

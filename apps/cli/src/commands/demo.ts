import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { retrieve, WeftError } from '@weft/core';
import { evaluationMarkdown } from '@weft/eval';
import { type Command, stringOption } from '../command.ts';
import { buildStack, defaultStackName } from '../stacks/index.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';
import { baselineStack, runEvaluation } from './eval.ts';
import { fetchLabels, mentionedIds, renderExplanation } from './explain-retrieval.ts';

/** The checkout's root: the nearest folder above this file holding pnpm-workspace.yaml. */
export function repositoryRoot(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let folder = start;
  while (!existsSync(path.join(folder, 'pnpm-workspace.yaml'))) {
    const parent = path.dirname(folder);
    if (parent === folder)
      throw new WeftError({ code: 'WEFT_NOT_FOUND', message: `no pnpm-workspace.yaml above ${start}` });
    folder = parent;
  }
  return folder;
}

export function sharedDirectory(root = repositoryRoot()): string {
  return process.env.WEFT_SHARED ?? path.resolve(root, '../shared');
}

/** Questions whose answers need both the structure and the text of WordNet. */
export const demoQueries = [
  'In ice hockey, what is the way play gets started, with the referee dropping the puck between two opponents?',
  'a small domesticated feline kept as a pet that hunts mice',
  'a musical instrument with strings that is played with a bow',
];

export interface DemoDeps extends CommandDeps {
  /** Builds the store (runs `weft ingest <bundle> --db <dir>`); injectable for tests. */
  readonly ingest?: (bundle: string, directory: string, stderr: NodeJS.WritableStream) => Promise<void>;
  /** Fits the stacks (runs `weft train <bundle> --db <dir>`); injectable for tests. */
  readonly train?: (bundle: string, directory: string, stderr: NodeJS.WritableStream) => Promise<void>;
}

/** Runs another weft command with its report on stderr, so that the demo's stdout stays its own. */
async function runCommand(
  name: 'ingest' | 'train',
  bundle: string,
  directory: string,
  stderr: NodeJS.WritableStream,
): Promise<void> {
  const { commands } = await import('./index.ts');
  const command = commands.find((c) => c.name === name);
  if (!command)
    throw new WeftError({ code: 'WEFT_UNSUPPORTED', message: `this build of weft has no ${name} command` });
  const code = await command.run(
    { positionals: [bundle], values: { db: directory } },
    { stdout: stderr, stderr, cwd: process.cwd() },
  );
  if (code !== 0)
    throw new WeftError({
      code: 'WEFT_STORE_FAILED',
      message: `weft ${name} ${bundle} --db ${directory} exited with ${code}`,
    });
}

/** Whether `weft train` has fitted anything into the store yet. */
function trained(directory: string): boolean {
  const artifacts = path.join(directory, 'artifacts');
  return existsSync(artifacts) && readdirSync(artifacts).some((file) => file.endsWith('.json'));
}

export function createDemoCommand(deps: DemoDeps = defaultDeps): Command {
  return {
    name: 'demo',
    summary:
      'Run the WordNet demo: ingest and train if needed, example queries with explanations, a small evaluation',
    usage: 'weft demo [--db <dir>] [--bundle <dir>] [--set hybrid] [--json]',
    details: [
      '--db <dir>       store directory (default <repo>/.weft/wordnet, built and trained on first run)',
      '--bundle <dir>   WordNet bundle (default $WEFT_SHARED/datasets/wordnet or ../shared/datasets/wordnet)',
      '--set <name>     query set evaluated on its test split (default hybrid)',
      '--json           one JSON object: the example results and the evaluation summary',
    ],
    examples: ['weft demo', 'weft demo --db /tmp/wordnet-store'],
    options: { db: { type: 'string' }, bundle: { type: 'string' }, set: { type: 'string' } },
    async run(args, io) {
      const root = repositoryRoot();
      const db = path.resolve(io.cwd, stringOption(args, 'db') ?? path.join(root, '.weft', 'wordnet'));
      const bundleOption = stringOption(args, 'bundle');
      const bundle = bundleOption
        ? path.resolve(io.cwd, bundleOption)
        : path.join(sharedDirectory(root), 'datasets', 'wordnet');
      const set = stringOption(args, 'set') ?? 'hybrid';
      const json = args.values.json === true;
      const say = (text: string) => {
        if (!json) io.stdout.write(`${text}\n`);
      };
      if (!existsSync(path.join(bundle, 'schema.json'))) {
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `no WordNet bundle at ${bundle} (set WEFT_SHARED or --bundle)`,
        });
      }

      if (!existsSync(path.join(db, 'store.json'))) {
        io.stderr.write(`Building the WordNet store in ${db} (first run only)…\n`);
        await mkdir(path.dirname(db), { recursive: true });
        await (deps.ingest ?? ((b, d, e) => runCommand('ingest', b, d, e)))(bundle, db, io.stderr);
      }
      if (!trained(db)) {
        io.stderr.write(`Training the default stack on the bundle's train queries (first run only)…\n`);
        await (deps.train ?? ((b, d, e) => runCommand('train', b, d, e)))(bundle, db, io.stderr);
      }
      const store = await deps.openStore(db);
      try {
        const stack = defaultStackName();
        say(
          `Store: ${db} (${store.manifest.counts.nodes.toLocaleString('en-US')} nodes, ${store.manifest.counts.edges.toLocaleString('en-US')} edges)`,
        );
        if (stack !== 'default')
          say(
            `Stack: ${stack} (no "default" stack is registered in this build, so the hybrid baseline stands in)`,
          );
        else say(`Stack: ${stack}`);
        const retriever = await buildStack(stack, store);
        const examples = [];
        for (const query of demoQueries) {
          const result = await retrieve(retriever, { query, limit: 5 });
          const labels = await fetchLabels(store.graph, mentionedIds(result));
          examples.push({
            query,
            results: result.ranking.map((c) => ({
              id: c.id,
              type: c.type ?? labels.get(c.id)?.type,
              name: labels.get(c.id)?.name,
              score: c.score,
            })),
          });
          say(
            `\n=== weft query "${query}" --stack ${stack} --limit 5 --explain\n${renderExplanation(result, labels, { maxResults: 3 })}`,
          );
        }

        say(
          `\n=== weft eval ${bundle} --db ${db} --set ${set} --split test --stack ${baselineStack} --stack ${stack}`,
        );
        const summary = await runEvaluation({
          bundle,
          store,
          set,
          split: 'test',
          stacks: stack === baselineStack ? [baselineStack] : [baselineStack, stack],
          listLength: 100,
          concurrency: 4,
          stderr: io.stderr,
        });
        if (json) {
          io.stdout.write(`${JSON.stringify({ store: db, stack, examples, evaluation: summary })}\n`);
          return 0;
        }
        say(evaluationMarkdown(summary));
        say(
          [
            '',
            'Next:',
            `  weft query "<your question>" --db ${path.relative(io.cwd, db) || '.'} --explain`,
            `  weft eval ${path.relative(io.cwd, bundle)} --db ${path.relative(io.cwd, db) || '.'} --set wn18rr --max-queries 1000`,
          ].join('\n'),
        );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const demoCommand = createDemoCommand();

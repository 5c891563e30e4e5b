import { existsSync } from 'node:fs';
import path from 'node:path';
import { WeftError } from '@weft/core';
import {
  loadTrainingSets,
  synthesizedTextSet,
  type TrainingSet,
  type TrainStacksResult,
  trainStacks,
} from '@weft/stacks';
import { artifactsDirectory, replaceArtifacts } from '@weft/store';
import { type Command, listOption, requiredOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

export interface TrainResult extends TrainStacksResult {
  /** Where the fitted parts now are. */
  readonly artifacts: string;
}

export function createTrainCommand(deps: CommandDeps = defaultDeps): Command {
  const trainable = () =>
    deps.registry
      .list()
      .filter((e) => e.train)
      .map((e) => e.name);
  return {
    name: 'train',
    summary: "Fit the stacks' learned parts on the train split of query sets (settings chosen on val)",
    usage: 'weft train <bundle> --db <dir> [--set S]... [--stack S]... [--text-queries N] [--json]',
    details: [
      '<bundle>          the SKB bundle the store was built from (its query sets are the training material)',
      '--db <dir>        store directory; the result goes to <dir>/artifacts, replacing an earlier one',
      '                  only when every stack has trained',
      '--set S           a query set to train on; repeat for several (default: every set with a train split)',
      '--stack S         a stack to train; repeat for several (default: every stack with learned parts)',
      '--text-queries N  text-only queries synthesised from node descriptions (default 200; 0 = none):',
      '                  they teach when the text alone should decide',
      '--json            one JSON object: the sets used and each stack’s report',
      '',
      `Trainable stacks: ${trainable().join(', ') || 'none'}`,
    ],
    examples: [
      'weft train my-bundle --db .weft/my-store',
      'weft train my-bundle --db .weft/my-store --set hybrid --stack default --json',
    ],
    options: {
      db: { type: 'string' },
      set: { type: 'string', multiple: true },
      stack: { type: 'string', multiple: true },
      'text-queries': { type: 'string' },
    },
    async run(args, io) {
      if (args.positionals.length !== 1) throw new UsageError('expected one bundle directory');
      const bundle = path.resolve(io.cwd, args.positionals[0]!);
      if (!existsSync(bundle)) throw new UsageError(`bundle not found: ${bundle}`);
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const json = args.values.json === true;
      const textQueries = Number(args.values['text-queries'] ?? 200);
      if (!Number.isInteger(textQueries) || textQueries < 0)
        throw new UsageError(`--text-queries must be a whole number ≥ 0, got ${args.values['text-queries']}`);
      const stacks = listOption(args, 'stack');
      for (const name of stacks) deps.registry.get(name);
      const sets: TrainingSet[] = await loadTrainingSets(bundle, listOption(args, 'set'));
      if (sets.length === 0)
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `no query set of ${bundle} has a train split`,
        });
      if (textQueries > 0) sets.push(await synthesizedTextSet(bundle, textQueries));
      const used = (list: readonly { name: string; train: number; val: number }[]) =>
        list.map((s) => `${s.name} (${s.train} train, ${s.val} val)`).join(', ');
      if (trainable().length === 0) {
        const counts = sets.map((s) => ({ name: s.name, train: s.train.length, val: s.val.length }));
        if (json) io.stdout.write(`${JSON.stringify({ sets: counts, stacks: [] })}\n`);
        else io.stdout.write(`No stack has learned parts; nothing to train (sets: ${used(counts)}).\n`);
        return 0;
      }
      const store = await deps.openStore(db);
      try {
        const progress = new Map<string, Progress>();
        const result = await replaceArtifacts(store.directory, (artifacts) =>
          trainStacks({
            registry: deps.registry,
            store,
            sets,
            artifacts,
            ...(stacks.length ? { stacks } : {}),
            log: (stack, line) => io.stderr.write(`[${stack}] ${line}\n`),
            onProgress: (stack, _label, done) => {
              const bar = progress.get(stack) ?? new Progress({ stream: io.stderr, label: `train ${stack}` });
              progress.set(stack, bar);
              bar.update(done);
            },
          }),
        );
        for (const bar of progress.values()) bar.finish();
        const report: TrainResult = { ...result, artifacts: artifactsDirectory(store.directory) };
        if (json) {
          io.stdout.write(`${JSON.stringify(report)}\n`);
          return 0;
        }
        io.stdout.write(
          `${[`Trained on ${used(report.sets)}:`, ...report.stacks.map((s) => `  ${s.stack}: ${s.summary}`), `Stored in ${report.artifacts}`].join('\n')}\n`,
        );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const trainCommand = createTrainCommand();

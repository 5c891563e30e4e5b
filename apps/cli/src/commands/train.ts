import { existsSync } from 'node:fs';
import path from 'node:path';
import { WeftError } from '@weft/core';
import {
  loadTrainingSets,
  synthesizedSets,
  type TrainingSet,
  type TrainStacksResult,
  trainStacks,
  stackTrains,
} from '@weft/stacks';
import { artifactsDirectory, replaceArtifacts } from '@weft/store';
import { type Command, integerOption, listOption, requiredOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

export interface TrainResult extends TrainStacksResult {
  /** Where the fitted parts now are. */
  readonly artifacts: string;
}

/**
 * Synthesised training queries when none are asked for. Relational ones only without labelled
 * queries: beside people's questions they did not help on either development KB. Text-only ones
 * always: they teach when the text alone should decide, which hybrid train sets do not show.
 */
const defaultSynth = 300;
const defaultDescribed = 150;
const defaultTextQueries = 150;

export function createTrainCommand(deps: CommandDeps = defaultDeps): Command {
  const trainable = () =>
    deps.registry
      .list()
      .filter(stackTrains)
      .map((e) => e.name);
  return {
    name: 'train',
    summary: "Fit the stacks' learned parts on the train split of query sets (settings chosen on val)",
    usage:
      'weft train [<bundle>] --db <dir> [--set S]... [--stack S]... [--synth N] [--text-queries N] [--seed S] [--json]',
    details: [
      '<bundle>          optional: the SKB bundle the store was built from; its labelled query sets are',
      '                  added to the training material (without it, the store alone teaches)',
      '--db <dir>        store directory; the result goes to <dir>/artifacts, replacing an earlier one',
      '                  only when every stack has trained',
      '--set S           a labelled query set of the bundle; repeat for several (default: every set with a train split)',
      '--stack S         a stack to train; repeat for several (default: every stack with learned parts);',
      '                  the other stacks keep their trained parts',
      `--synth N         relational queries synthesised from the store (default ${defaultSynth} without a bundle, 0 with one)`,
      `--described N     relational queries synthesised with the related node described by words of its`,
      `                  text instead of named (default ${defaultDescribed} without a bundle, 0 with one)`,
      `--text-queries N  text-only queries synthesised from the store (default ${defaultTextQueries}); 0 = none`,
      '--seed S          seed of the synthesis (default 1)',
      '--json            one JSON object: the sets used and each training step’s report',
      '',
      `Trainable stacks: ${trainable().join(', ') || 'none'}`,
    ],
    examples: [
      'weft train --db .weft/my-store',
      'weft train my-bundle --db .weft/my-store --set hybrid --stack default --json',
    ],
    options: {
      db: { type: 'string' },
      set: { type: 'string', multiple: true },
      stack: { type: 'string', multiple: true },
      synth: { type: 'string' },
      described: { type: 'string' },
      'text-queries': { type: 'string' },
      seed: { type: 'string' },
    },
    async run(args, io) {
      if (args.positionals.length > 1) throw new UsageError('expected at most one bundle directory');
      const bundle =
        args.positionals[0] === undefined ? undefined : path.resolve(io.cwd, args.positionals[0]);
      if (bundle && !existsSync(bundle)) throw new UsageError(`bundle not found: ${bundle}`);
      const named = listOption(args, 'set');
      if (!bundle && named.length > 0)
        throw new UsageError('--set names a query set of a bundle: give the bundle');
      const db = path.resolve(io.cwd, requiredOption(args, 'db'));
      const json = args.values.json === true;
      const synth = integerOption(args, 'synth', bundle ? 0 : defaultSynth, 0);
      const described = integerOption(args, 'described', bundle ? 0 : defaultDescribed, 0);
      const textQueries = integerOption(args, 'text-queries', defaultTextQueries, 0);
      const seed = integerOption(args, 'seed', 1, 0);
      const stacks = listOption(args, 'stack');
      for (const name of stacks) deps.registry.get(name);
      const labelled: TrainingSet[] = bundle ? await loadTrainingSets(bundle, named) : [];
      if (bundle && labelled.length === 0 && named.length === 0 && synth + described + textQueries === 0)
        throw new WeftError({
          code: 'WEFT_BAD_INPUT',
          message: `no query set of ${bundle} has a train split`,
        });
      if (!bundle && synth + described + textQueries === 0)
        throw new UsageError(
          'nothing to train on: give a bundle with labelled queries, or --synth, --described or --text-queries above 0',
        );
      const used = (list: readonly { name: string; train: number; val: number }[]) =>
        list.map((s) => `${s.name} (${s.train} train, ${s.val} val)`).join(', ');
      if (trainable().length === 0) {
        const counts = labelled.map((s) => ({ name: s.name, train: s.train.length, val: s.val.length }));
        if (json) io.stdout.write(`${JSON.stringify({ sets: counts, steps: [] })}\n`);
        else
          io.stdout.write(
            `No stack has learned parts; nothing to train (sets: ${used(counts) || 'none'}).\n`,
          );
        return 0;
      }
      const store = await deps.openStore(db);
      try {
        const synthesis =
          synth + described + textQueries > 0
            ? new Progress({
                stream: io.stderr,
                label: 'synthesise queries',
                total: synth + described + textQueries,
              })
            : undefined;
        const sets = [
          ...labelled,
          ...(synthesis
            ? await synthesizedSets(store, {
                hybrid: synth,
                described,
                text: textQueries,
                seed,
                onProgress: (made) => synthesis.update(made),
              })
            : []),
        ];
        synthesis?.finish();
        const progress = new Map<string, Progress>();
        const result = await replaceArtifacts(
          store.directory,
          (artifacts) =>
            trainStacks({
              registry: deps.registry,
              store,
              sets,
              artifacts,
              ...(stacks.length ? { stacks } : {}),
              log: (step, line) => io.stderr.write(`[${step}] ${line}\n`),
              onProgress: (step, _label, done) => {
                const bar = progress.get(step) ?? new Progress({ stream: io.stderr, label: `train ${step}` });
                progress.set(step, bar);
                bar.update(done);
              },
            }),
          // Training named stacks keeps what the others learned.
          { keepExisting: stacks.length > 0 },
        );
        for (const bar of progress.values()) bar.finish();
        const report: TrainResult = {
          ...result,
          artifacts: artifactsDirectory(store.directory),
        };
        if (json) {
          io.stdout.write(`${JSON.stringify(report)}\n`);
          return 0;
        }
        io.stdout.write(
          `${[`Trained on ${used(report.sets)}:`, ...report.steps.map((s) => `  ${s.step}: ${s.summary}`), `Stored in ${report.artifacts}`].join('\n')}\n`,
        );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const trainCommand = createTrainCommand();

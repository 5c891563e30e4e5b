import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { FileArtifactStore, WeftError } from '@weft/core';
import { listQuerySets, readQuerySet } from '@weft/eval';
import { openBundle, synthesizeTextQueries } from '@weft/skb';
import { type Command, listOption, requiredOption, UsageError } from '../command.ts';
import { Progress } from '../progress.ts';
import { type StackEntry, type StackTrainReport, stackEntries, type TrainingSet } from '../stacks/index.ts';
import type { OpenedStore } from '../store/store-manifest.ts';
import { type CommandDeps, defaultDeps } from './command-deps.ts';

export interface TrainResult {
  readonly sets: readonly { readonly name: string; readonly train: number; readonly val: number }[];
  readonly stacks: readonly ({ readonly stack: string } & StackTrainReport)[];
  /** Where the fitted parts now are; absent when nothing was trainable. */
  readonly artifacts?: string;
}

/** Text-only queries made from the bundle's node descriptions (see `synthesizeTextQueries`). */
export async function synthesizedTextSet(bundle: string, count: number): Promise<TrainingSet> {
  const queries = await synthesizeTextQueries(await openBundle(bundle), { count });
  return {
    name: 'text (synthesised)',
    train: queries.filter((q) => q.split === 'train'),
    val: queries.filter((q) => q.split === 'val'),
    textOnly: true,
  };
}

/** Loads the named sets (or every set with a train split) as train/val pairs. */
export async function loadTrainingSets(bundle: string, names: readonly string[]): Promise<TrainingSet[]> {
  const chosen = names.length ? names : await listQuerySets(bundle);
  const sets: TrainingSet[] = [];
  for (const name of chosen) {
    const queries = await readQuerySet(bundle, name);
    const train = queries.filter((q) => q.split === 'train');
    const val = queries.filter((q) => q.split === 'val');
    if (train.length === 0) {
      if (names.length)
        throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `query set "${name}" has no train split` });
      continue;
    }
    sets.push({ name, train, val });
  }
  if (sets.length === 0)
    throw new WeftError({ code: 'WEFT_BAD_INPUT', message: `no query set of ${bundle} has a train split` });
  return sets;
}

/**
 * Calls every registered stack's `train` hook on the sets, writing into a fresh artifacts folder that
 * replaces `<store>/artifacts` only when all of them succeed (so a failed run leaves the old one).
 */
export async function trainStacks(options: {
  readonly store: OpenedStore;
  readonly sets: readonly TrainingSet[];
  readonly stderr: NodeJS.WritableStream;
  /** The stacks to train (default: every registered stack with a `train` hook). */
  readonly stacks?: readonly StackEntry[];
}): Promise<TrainResult> {
  const sets = options.sets.map((s) => ({ name: s.name, train: s.train.length, val: s.val.length }));
  const trainable = (options.stacks ?? stackEntries()).filter((entry) => entry.train);
  if (trainable.length === 0) return { sets, stacks: [] };
  const final = path.join(options.store.directory, 'artifacts');
  const next = `${final}.next-${process.pid}`;
  await rm(next, { recursive: true, force: true });
  const artifacts = new FileArtifactStore(next);
  const reports: ({ stack: string } & StackTrainReport)[] = [];
  try {
    for (const entry of trainable) {
      const progress = new Progress({ stream: options.stderr, label: `train ${entry.name}` });
      const report = await entry.train!(options.store, {
        sets: options.sets,
        artifacts,
        log: (line) => options.stderr.write(`[${entry.name}] ${line}\n`),
        onProgress: (_label, done) => progress.update(done),
      });
      progress.finish(`train ${entry.name}: ${report.summary}`);
      reports.push({ stack: entry.name, ...report });
    }
    const old = `${final}.old-${process.pid}`;
    if (existsSync(final)) await rename(final, old);
    if (existsSync(next)) await rename(next, final);
    await rm(old, { recursive: true, force: true });
  } finally {
    await rm(next, { recursive: true, force: true });
  }
  return { sets, stacks: reports, artifacts: final };
}

export function createTrainCommand(
  deps: CommandDeps & { readonly stacks?: () => readonly StackEntry[] } = defaultDeps,
): Command {
  return {
    name: 'train',
    summary: "Fit the stacks' learned parts on the train split of query sets (settings chosen on val)",
    usage: 'weft train <bundle> --db <dir> [--set S]... [--json]',
    details: [
      '<bundle>        the SKB bundle the store was built from',
      '--db <dir>      store directory; the result goes to <dir>/artifacts, replacing an earlier one',
      '--set S         a query set to train on; repeat for several (default: every set with a train split)',
      '--text-queries N  text-only queries synthesised from node descriptions (default 200; 0 = none):',
      '                the route gate learns from them when the text alone should decide',
      '--json          one JSON object: the sets used and each stack’s report',
      '',
      `Trainable stacks: ${
        stackEntries()
          .filter((e) => e.train)
          .map((e) => e.name)
          .join(', ') || 'none yet'
      }`,
    ],
    examples: [
      'weft train ../shared/datasets/wordnet --db .weft/wordnet',
      'weft train ../shared/datasets/wordnet --db .weft/wordnet --set hybrid --set wn18rr --json',
    ],
    options: {
      db: { type: 'string' },
      set: { type: 'string', multiple: true },
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
      const sets = await loadTrainingSets(bundle, listOption(args, 'set'));
      if (textQueries > 0) sets.push(await synthesizedTextSet(bundle, textQueries));
      const store = await deps.openStore(db);
      try {
        const result = await trainStacks({
          store,
          sets,
          stderr: io.stderr,
          ...(deps.stacks ? { stacks: deps.stacks() } : {}),
        });
        if (json) {
          io.stdout.write(`${JSON.stringify(result)}\n`);
          return 0;
        }
        const used = result.sets.map((s) => `${s.name} (${s.train} train, ${s.val} val)`).join(', ');
        if (result.stacks.length === 0) {
          io.stdout.write(`No registered stack has learned parts; nothing to train (sets: ${used}).\n`);
          return 0;
        }
        io.stdout.write(
          `${[`Trained on ${used}:`, ...result.stacks.map((s) => `  ${s.stack}: ${s.summary}`), `Stored in ${result.artifacts}`].join('\n')}\n`,
        );
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const trainCommand = createTrainCommand();

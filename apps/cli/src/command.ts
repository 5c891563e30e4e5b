import type { ParseArgsConfig } from 'node:util';
import { defaultLimits } from '@weft/server/limits';

/** Where a command writes: stdout for results (JSON with --json), stderr for people. */
export interface CommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** The repository or working folder relative paths are resolved against. */
  readonly cwd: string;
}

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
}

/** One `weft <name>` command. Register it in `commands/index.ts`. */
export interface Command {
  readonly name: string;
  /** One line for `weft --help`. */
  readonly summary: string;
  /** e.g. `weft ingest <bundle> --db <dir> [--json]`. */
  readonly usage: string;
  /** Lines of `--help` describing each option. */
  readonly details: readonly string[];
  readonly examples: readonly string[];
  readonly options: CommandOptions;
  /** Resolves to the exit code. Throw `UsageError` for bad usage (exit 2). */
  run(args: ParsedArgs, io: CommandIo): Promise<number>;
}

/**
 * A command whose module is imported only when it runs or shows its own help: `weft --version`,
 * `weft --help` and every other command then start without loading its engines.
 */
export interface LazyCommand {
  readonly name: string;
  readonly summary: string;
  load(): Promise<Command>;
}

/** Bad usage or bad input: exit code 2, one clear line. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${name} needs a value`);
  return value;
}

export function requiredOption(args: ParsedArgs, name: string): string {
  const value = stringOption(args, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

/**
 * An integer option within `[min, max]`; anything else (`-1`, `1.5`, `1e9` beyond `max`, `ten`) is a
 * usage error that names the allowed range.
 */
export function integerOption(
  args: ParsedArgs,
  name: string,
  fallback: number,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  const range =
    max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max.toLocaleString('en-US')}`;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`--${name} must be an integer ${range}, got "${raw}"`);
  return value;
}

/** The longest query or question the CLI takes: the same limit as the server's (`POST /query`). */
export const maxQueryChars = defaultLimits.maxQueryChars;

/** Most results `weft query` and `weft ask` return: the same limit as the server's `limit`. */
export const maxResultLimit = defaultLimits.maxLimit;

/** The one query text of `weft query`/`weft ask`: present, not blank, and within `maxQueryChars`. */
export function queryText(args: ParsedArgs, what: 'query text' | 'question'): string {
  if (args.positionals.length !== 1) throw new UsageError(`expected exactly one ${what} (quote it)`);
  const text = args.positionals[0]!;
  if (text.trim() === '') throw new UsageError(`the ${what} is empty`);
  if (text.length > maxQueryChars)
    throw new UsageError(
      `the ${what} is ${text.length.toLocaleString('en-US')} characters long; at most ${maxQueryChars.toLocaleString('en-US')} are allowed (as by weft serve)`,
    );
  return text;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => {
    if (typeof v !== 'string') throw new UsageError(`--${name} needs a value`);
    return v;
  });
}

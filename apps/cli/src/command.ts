import type { ParseArgsConfig } from 'node:util';

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

export function integerOption(args: ParsedArgs, name: string, fallback: number, min = 1): number {
  const raw = stringOption(args, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => {
    if (typeof v !== 'string') throw new UsageError(`--${name} needs a value`);
    return v;
  });
}

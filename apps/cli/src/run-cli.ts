import { parseArgs } from 'node:util';
import { type Command, type CommandIo, type LazyCommand, UsageError } from './command.ts';
import { commandHelp, helpText } from './help.ts';

const version = '0.1.0';

/** Runs `weft` with `argv` (without node and script); resolves to the exit code. Never throws. */
export async function runCli(
  argv: readonly string[],
  io: CommandIo,
  commands: readonly (Command | LazyCommand)[],
): Promise<number> {
  const verbose = argv.includes('--verbose');
  const json = argv.includes('--json');
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${helpText(commands)}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const found = commands.find((c) => c.name === name);
  if (!found) {
    io.stderr.write(
      `weft: unknown command "${name}" (commands: ${commands.map((c) => c.name).join(', ')})\n`,
    );
    return 2;
  }
  const command = 'load' in found ? await found.load() : found;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  try {
    const parsed = parseArgs({
      args: joinNegativeValues(rest, command),
      options: {
        ...command.options,
        json: { type: 'boolean' },
        verbose: { type: 'boolean' },
        stacks: { type: 'string', multiple: true },
      },
      allowPositionals: true,
      strict: true,
    });
    const { stacks, ...values } = parsed.values;
    if (stacks?.length) {
      // Stacks from outside Weft join the built-in registry every command names stacks from.
      const [{ registerExternalStacks }, { defaultDeps }] = await Promise.all([
        import('./external-stacks.ts'),
        import('./commands/command-deps.ts'),
      ]);
      await registerExternalStacks(defaultDeps.registry, stacks as string[], io.cwd);
    }
    return await command.run({ positionals: parsed.positionals, values }, io);
  } catch (error) {
    // Imported here, not at the top: `@weft/core` is most of what `weft --version` would load.
    const { WeftError } = await import('@weft/core');
    const code = exitCode(error, WeftError);
    const message = error instanceof Error ? error.message : String(error);
    if (json)
      io.stdout.write(`${JSON.stringify({ error: { code: errorCode(error, WeftError), message } })}\n`);
    io.stderr.write(`weft ${name}: ${message}\n`);
    if (code === 2 && !(error instanceof WeftError))
      io.stderr.write(`Run 'weft ${name} --help' for usage.\n`);
    if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return code;
  }
}

/**
 * `--limit -1` reads as `--limit=-1`: a value that looks like a negative number belongs to the string
 * option before it (parseArgs would call it ambiguous), so that the option's own check explains the range.
 */
function joinNegativeValues(args: readonly string[], command: Command): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const option = arg.startsWith('--') ? command.options[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-\d|^-\.\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function isArgError(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    String((error as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')
  );
}

function exitCode(error: unknown, WeftError: typeof import('@weft/core').WeftError): number {
  if (error instanceof UsageError || isArgError(error)) return 2;
  // Bad input, a missing store or set, a store built with another embedder: the caller must change the command.
  if (
    WeftError.is(error, 'WEFT_BAD_INPUT') ||
    WeftError.is(error, 'WEFT_NOT_FOUND') ||
    WeftError.is(error, 'WEFT_EMBEDDER_MISMATCH')
  )
    return 2;
  return 1;
}

function errorCode(error: unknown, WeftError: typeof import('@weft/core').WeftError): string {
  if (error instanceof WeftError) return error.code;
  if (error instanceof UsageError || isArgError(error)) return 'WEFT_BAD_USAGE';
  return 'WEFT_RUNTIME';
}

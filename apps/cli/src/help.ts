import type { Command } from './command.ts';

const globalLines = [
  'Global options:',
  '  --json       machine-readable output on stdout (one JSON object)',
  '  --verbose    stack traces on errors',
  '  --stacks M   add the stacks module M exports (`stacks`: StackEntry[] of @weft/stacks) to the',
  '               stacks query, ask, eval, train and serve can name; a file path or an installed',
  '               package; repeat for several (CONTRIBUTING.md: a stack from outside Weft)',
  '  -h, --help   help for weft or for one command',
  '  --version    print the version',
  '',
  'Exit codes: 0 ok, 1 runtime failure, 2 bad usage or bad input.',
];

export function helpText(commands: readonly Pick<Command, 'name' | 'summary'>[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'weft — hybrid structural-and-textual retrieval over text-rich knowledge graphs',
    '',
    'Usage: weft <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    ...globalLines,
    '',
    "Run 'weft <command> --help' for a command's options and examples.",
  ].join('\n');
}

export function commandHelp(command: Command): string {
  return [
    command.summary,
    '',
    `Usage: ${command.usage}`,
    ...(command.details.length ? ['', 'Options:', ...command.details.map((line) => `  ${line}`)] : []),
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
  ].join('\n');
}

#!/usr/bin/env node
import { commands } from './commands/index.ts';
import { runCli } from './run-cli.ts';

process.env.LANCEDB_LOG ??= 'error';
const code = await runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() },
  commands,
);
process.exitCode = code;

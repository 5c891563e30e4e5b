#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node's compile cache (V8 code cache and the type-stripped sources, kept in
// `$NODE_COMPILE_CACHE` or `<tmpdir>/node-compile-cache`, keyed by each file's content) halves what a
// command spends importing its modules: `weft query` imported ~1 s of modules before any work at
// 10^6 nodes, ~0.45 s with the cache. `NODE_DISABLE_COMPILE_CACHE=1` turns it off. Only modules
// imported after this call use it, hence the dynamic imports below. `bin/weft.mjs`, the command,
// turns it on before this file loads; the call here serves a start on this file directly.
enableCompileCache();
const [{ commands }, { runCli }] = await Promise.all([import('./commands/index.ts'), import('./run-cli.ts')]);

process.env.LANCEDB_LOG ??= 'error';
const code = await runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() },
  commands,
);
process.exitCode = code;

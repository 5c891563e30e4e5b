#!/usr/bin/env node
// The `weft` command. A JavaScript file on purpose: it turns on Node's compile cache before any
// TypeScript loads, so that the CLI's own sources come type-stripped from the cache too. Started on
// `src/main.ts` directly, Node loads its type stripper (~0.12 s, more on a busy machine) for that one
// file on every run; from here it does not load it at all once the cache is warm.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('../src/main.ts');

// Runs every example as a user would (a child process, Node stripping the types) on the toy bundle,
// each with its own store in a temp folder, and checks what it prints.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeToyBundle } from './toy-bundle.ts';

const source = fileURLToPath(new URL('.', import.meta.url));
let root: string;
let bundle: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'weft-examples-'));
  bundle = path.join(root, 'bundle');
  await writeToyBundle(bundle);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Runs `examples/src/<file>` on the toy bundle with a store of its own; resolves with its stdout. */
async function run(file: string, args: readonly string[] = []): Promise<{ stdout: string; store: string }> {
  const store = path.join(root, `store-${path.basename(file, '.ts')}`);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=@weft/source', path.join(source, file), '--bundle', bundle, '--store', store, ...args],
    { cwd: source, env: { ...process.env, LANCEDB_LOG: 'error' }, timeout: 120_000 },
  );
  return { stdout, store };
}

describe('examples on the toy bundle', () => {
  it('open-store-and-query: builds the store, ranks, explains', async () => {
    const { stdout, store } = await run('open-store-and-query.ts', [
      '--query',
      'telephoto zoom lens for birds',
    ]);
    expect(stdout).toMatch(/^Built .+: 15 nodes, 18 edges in /m);
    expect(stdout).toMatch(/^1\. p:nikkor {2}AF-S Nikkor 200-500mm \(product\)/m);
    expect(stdout).toContain('Stack: default');
    // The explanation: the plan, the stages that ran, and why each result is there.
    expect(stdout).toMatch(/^Plan:$/m);
    expect(stdout).toMatch(/^Stages \(1 round, /m);
    expect(stdout).toMatch(/^ {2}1\. AF-S Nikkor 200-500mm \(product\) \[p:nikkor\]/m);
    expect(existsSync(path.join(store, 'store.json'))).toBe(true);
  });

  it('open-store-and-query: opens an existing store without building it again', async () => {
    const { stdout } = await run('open-store-and-query.ts', ['--query', 'entry level dslr', '--limit', '2']);
    expect(stdout).not.toMatch(/^Built /m);
    expect(stdout).toMatch(/^1\. p:d3500 /m);
    expect(stdout).not.toMatch(/^3\. /m);
  });

  it('custom-stack: trains its reranker on the train split, stores it, and answers with it', async () => {
    const { stdout, store } = await run('custom-stack.ts', ['--query', 'Nikon zoom lens for birds']);
    expect(stdout).toContain('Trained on toy (8 train, 3 val)');
    expect(stdout).toMatch(/^ {2}fields-bm25: reranker: (fitted|untrained) weights kept/m);
    expect(stdout).toContain('Stack: fields-bm25');
    expect(stdout).toMatch(/^1\. p:nikkor /m);
    expect(existsSync(path.join(store, 'artifacts', 'fields-bm25.reranker-linear.json'))).toBe(true);
    // The model was found: no "not found" warning from the reranker.
    expect(stdout).not.toMatch(/warning: linear: .*not found/);
  });

  it('custom-traverser: ranks the neighbours of the node the query names first', async () => {
    const { stdout } = await run('custom-traverser.ts', ['--query', 'Nikon gear for wildlife']);
    expect(stdout).toContain('Stack: lexical+neighbours');
    expect(stdout).toMatch(/^1\. p:d850 {2}Nikon D850 .* via anchor b:nikon → made_by p:d850$/m);
    const ranked = stdout.split('\n').filter((line) => /^\d+\. /.test(line));
    expect(ranked).toHaveLength(5);
  });

  it('agent-tools: generateText with the mock model calls the search tool of weftTools and answers from it', async () => {
    const { stdout } = await run('agent-tools.ts', ['--query', 'telephoto zoom lens for birds']);
    expect(stdout).toMatch(/^Built .+: 15 nodes, 18 edges$/m);
    expect(stdout).toContain('Tools: search, get_node, neighbors');
    expect(stdout).toContain('Tool call: search {"query":"telephoto zoom lens for birds","limit":3}');
    expect(stdout).toContain('Tool result: 3 nodes from stack default');
    expect(stdout).toMatch(/^ {2}1\. p:nikkor {2}AF-S Nikkor 200-500mm \(product\) {2}(path|text): /m);
    expect(stdout).toMatch(/^Answer: The best match is AF-S Nikkor 200-500mm \[p:nikkor\] — /m);
  });

  it('evaluate: prints the table of bm25 against the default stack, with the paired comparison', async () => {
    const { stdout } = await run('evaluate.ts', ['--split', 'val']);
    expect(stdout).toContain('**toy** (val), 3 queries, rankings of 100');
    expect(stdout).toMatch(/^\| bm25 \| [\d.]+ \|/m);
    expect(stdout).toMatch(/^\| default \| [\d.]+ \|/m);
    expect(stdout).toContain('| default vs bm25 |');
  });
});

/**
 * Which store calls a stack's first queries make in a new process, and what each costs (wall ms, and
 * the process's RSS after it): what is left of a cold `weft query` once the modules are imported.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/trace-first-query.ts --db /tmp/synth-1m-store --query "Kaqui tracyn sa" [--stack default] [--args]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createStack } from '@weft/stacks';
import { openStore } from '@weft/store';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    query: { type: 'string' },
    stack: { type: 'string', default: 'default' },
    args: { type: 'boolean', default: false },
  },
});
if (!values.db || !values.query) throw new Error('give --db <store> --query <text>');
const started = performance.now();
const store = await openStore(path.resolve(values.db));
console.log(`open store: ${(performance.now() - started).toFixed(0)} ms`);

/** Replaces each `do…` method of `target` by one that logs its time. */
function trace(label: string, target: object): void {
  const seen = new Set<string>();
  for (
    let prototype = Object.getPrototypeOf(target) as object | null;
    prototype && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  )
    for (const key of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      if (!key.startsWith('do') || seen.has(key) || typeof descriptor?.value !== 'function') continue;
      seen.add(key);
      const method = descriptor.value as (...args: unknown[]) => Promise<unknown>;
      Object.defineProperty(target, key, {
        value: async (...args: unknown[]) => {
          const at = performance.now();
          const result = await method.apply(target, args);
          const shown = values.args
            ? ` ${JSON.stringify(args[0], (k, v: unknown) => (k === 'vectors' ? `[${(v as unknown[]).length} vectors]` : v)).slice(0, 300)}`
            : '';
          console.log(
            `  ${label}.${key}: ${(performance.now() - at).toFixed(0)} ms (from ${((at - started) / 1000).toFixed(2)} s, rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB)${shown}`,
          );
          return result;
        },
      });
    }
}
trace('graph', store.graph);
trace('text', store.context.text);
if (store.context.vector) trace('vector', store.context.vector);
if (store.context.embeddingModel) trace('embed', store.context.embeddingModel);
try {
  const retriever = await createStack(values.stack!, store);
  for (const query of [values.query, `${values.query} again`]) {
    const at = performance.now();
    await retriever.doRetrieve({ query, limit: 20 });
    console.log(`${values.stack} query "${query}": ${(performance.now() - at).toFixed(0)} ms`);
  }
} finally {
  await store.close();
}

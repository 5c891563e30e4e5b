// The README's example is src/readme-example.test.ts, which runs: the two must not drift apart.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';

it('shows, in the README, the example that runs in readme-example.test.ts', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const example = await readFile(new URL('./readme-example.test.ts', import.meta.url), 'utf8');
  const shown = readme.match(/```ts\n([\s\S]*?)```/)?.[1];
  // The file's first line says what it is; the rest is the example as printed.
  expect(shown).toBe(example.split('\n').slice(1).join('\n'));
});

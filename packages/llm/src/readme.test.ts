// The README's example is src/readme-example.ts, which this test runs: the two must not drift apart.
import { readFile } from 'node:fs/promises';
import { expect, it, vi } from 'vitest';

it('shows, in the README, the example that runs', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const example = await readFile(new URL('./readme-example.ts', import.meta.url), 'utf8');
  const shown = readme.match(/```ts\n([\s\S]*?)```/)?.[1];
  expect(shown).toBe(example.split('\n').slice(1).join('\n'));
});

it('replays the recorded verdict through the metering, with no network', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const { verdict } = await import('./readme-example.ts');
  expect(verdict).toMatchObject({ ok: true, value: { score: 8 }, repairs: ['code fence removed'] });
  expect(log.mock.calls[0]![1]).toMatchObject({ calls: 1, inputTokens: 41, outputTokens: 17 });
  log.mockRestore();
});

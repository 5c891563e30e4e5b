import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Progress } from './progress.ts';

const stream = (isTTY: boolean) => {
  const out = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (isTTY) out.isTTY = true;
  const chunks: string[] = [];
  out.on('data', (chunk) => chunks.push(String(chunk)));
  return { out, text: () => chunks.join('') };
};

describe('Progress', () => {
  it('draws bars on a terminal only: a pipe or a log gets none, but a finishing message', async () => {
    for (const tty of [true, false]) {
      const s = stream(tty);
      const bar = new Progress({ stream: s.out, label: 'ingest nodes', total: 10 });
      for (let i = 0; i < 10; i++) bar.tick();
      bar.finish();
      const done = new Progress({ stream: s.out, label: 'write', total: 2 });
      done.update(2);
      done.finish('wrote 2 files');
      await new Promise((resolve) => setImmediate(resolve));
      if (tty) expect(s.text()).toMatch(/\ringest nodes █+ 100% 10\/10/);
      else expect(s.text()).toBe('wrote 2 files\n');
    }
  });
});

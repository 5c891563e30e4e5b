import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Progress, phaseProgress } from './progress.ts';

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

  it('phaseProgress draws one bar for a phase reported by two sources, and notes on a line of their own', async () => {
    for (const tty of [true, false]) {
      const s = stream(tty);
      const progress = phaseProgress(s.out, { embed: 'embed the upserted documents' });
      // applyChanges reports the embed phase's start and end, a hosted embedder its texts in between.
      progress.onProgress('embed', 0, 4);
      progress.onProgress('embed', 2, 4);
      progress.note('embedding call failed (HTTP 429); retrying in 0.5 s\n');
      progress.onProgress('embed', 4, 4);
      await new Promise((resolve) => setTimeout(resolve, 120)); // past the bar's redraw interval
      progress.onProgress('embed', 4, 4);
      progress.finish();
      await new Promise((resolve) => setImmediate(resolve));
      if (tty) {
        expect(s.text()).toContain('\r\u001b[Kembedding call failed (HTTP 429); retrying in 0.5 s\n');
        expect(s.text().match(/100% 4\/4/g)).toHaveLength(1);
      } else expect(s.text()).toBe('embedding call failed (HTTP 429); retrying in 0.5 s\n');
    }
  });
});

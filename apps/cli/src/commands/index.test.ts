import { describe, expect, it } from 'vitest';
import { commands } from './index.ts';

describe('the lazy command list', () => {
  it('names and summarises each command as its module does', async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({
        name: entry.name,
        summary: entry.summary,
      });
    }
  }, 120_000);
});

import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { type Command, integerOption, UsageError } from './command.ts';
import { runCli } from './run-cli.ts';
import { captureIo } from './testing/capture-io.ts';

const capture = () => captureIo();

const echo: Command = {
  name: 'echo',
  summary: 'Echo things',
  usage: 'weft echo <word> [--times N]',
  details: ['--times N   how often (default 1)'],
  examples: ['weft echo hi --times 2'],
  options: { times: { type: 'string' }, fail: { type: 'string' } },
  async run(args, io) {
    const fail = args.values.fail;
    if (fail === 'usage') throw new UsageError('bad word');
    if (fail === 'input') throw new WeftError({ code: 'WEFT_BAD_INPUT', message: 'nodes.jsonl:3: bad' });
    if (fail === 'runtime') throw new Error('disk on fire');
    const times = integerOption(args, 'times', 1);
    const words = Array.from({ length: times }, () => args.positionals[0]);
    io.stdout.write(args.values.json ? `${JSON.stringify({ words })}\n` : `${words.join(' ')}\n`);
    return 0;
  },
};

describe('runCli', () => {
  it('runs a command with options and --json', async () => {
    const c = capture();
    expect(await runCli(['echo', 'hi', '--times', '2'], c.io, [echo])).toBe(0);
    expect(c.out()).toBe('hi hi\n');
    const j = capture();
    expect(await runCli(['echo', 'hi', '--json'], j.io, [echo])).toBe(0);
    expect(JSON.parse(j.out())).toEqual({ words: ['hi'] });
  });

  it('prints help for weft and for each command', async () => {
    const c = capture();
    expect(await runCli(['--help'], c.io, [echo])).toBe(0);
    expect(c.out()).toContain('echo  Echo things');
    const d = capture();
    expect(await runCli(['echo', '--help'], d.io, [echo])).toBe(0);
    expect(d.out()).toContain('Usage: weft echo <word> [--times N]');
    expect(d.out()).toContain('weft echo hi --times 2');
  });

  it('exits 2 with one clear line on bad usage and bad input, 1 on runtime failure', async () => {
    const unknown = capture();
    expect(await runCli(['nope'], unknown.io, [echo])).toBe(2);
    expect(unknown.err()).toContain('unknown command "nope"');
    const badOption = capture();
    expect(await runCli(['echo', '--bogus'], badOption.io, [echo])).toBe(2);
    const badValue = capture();
    expect(await runCli(['echo', 'x', '--times', 'many'], badValue.io, [echo])).toBe(2);
    expect(badValue.err()).toContain('--times must be an integer');
    const input = capture();
    expect(await runCli(['echo', '--fail', 'input', '--json'], input.io, [echo])).toBe(2);
    expect(JSON.parse(input.out())).toEqual({
      error: { code: 'WEFT_BAD_INPUT', message: 'nodes.jsonl:3: bad' },
    });
    const runtime = capture();
    expect(await runCli(['echo', '--fail', 'runtime'], runtime.io, [echo])).toBe(1);
    expect(runtime.err()).toBe('weft echo: disk on fire\n');
    const verbose = capture();
    await runCli(['echo', '--fail', 'runtime', '--verbose'], verbose.io, [echo]);
    expect(verbose.err()).toContain('at ');
  });
});

/**
 * What importing modules costs, each in a new process: wall and CPU ms of `await import(spec)` after
 * the `--base` modules were imported (so the figure is what `spec` adds to them), median of --runs.
 * Specifiers resolve from --cwd (a package folder that depends on them). Set NODE_COMPILE_CACHE to
 * a folder to measure with Node's compile cache (run twice: the first run fills it).
 *
 *   ./dev node apps/cli/bench/import-cost.ts --cwd apps/cli ./src/commands/query.ts @weft/stacks @weft/store
 *   ./dev node apps/cli/bench/import-cost.ts --cwd packages/stacks --base @weft/core,@weft/kit,@weft/spec,@weft/llm ./src/builtin-stacks.ts ./src/default-stack.ts
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    cwd: { type: 'string', default: 'apps/cli' },
    base: { type: 'string', default: '' },
    runs: { type: 'string', default: '3' },
  },
  allowPositionals: true,
});
const base = values.base!.split(',').filter(Boolean);
const cwd = path.resolve(values.cwd!);
for (const spec of positionals) {
  const times: { wall: number; cpu: number }[] = [];
  for (let run = 0; run < Number(values.runs); run++) {
    const code = `for (const b of ${JSON.stringify(base)}) await import(b);
const cpu = process.cpuUsage(); const at = performance.now();
await import(${JSON.stringify(spec)});
const wall = performance.now() - at; const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000 }));`;
    const ran = spawnSync(
      process.execPath,
      [
        '--conditions=@weft/source',
        '--disable-warning=ExperimentalWarning',
        '--input-type=module',
        '-e',
        code,
      ],
      { cwd, encoding: 'utf8' },
    );
    if (ran.status !== 0) throw new Error(`importing ${spec} failed: ${ran.stderr.slice(-1000)}`);
    times.push(JSON.parse(ran.stdout.trim().split('\n').pop()!) as { wall: number; cpu: number });
  }
  times.sort((a, b) => a.wall - b.wall);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `import-cost ${spec}${base.length ? ` (after ${base.join(', ')})` : ''}: wall ${median.wall.toFixed(0)} ms, cpu ${median.cpu.toFixed(0)} ms (runs: ${times.map((t) => t.wall.toFixed(0)).join(', ')} ms)`,
  );
}

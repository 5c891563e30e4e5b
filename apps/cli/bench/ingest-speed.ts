/**
 * Ingest time and peak memory (`weft ingest --json`, each in its own process so peak RSS is the
 * ingest's): WordNet 3.1 (goal < 30 s) and a synthetic KB of 135,000 nodes and 724,000 edges with
 * hubs (goal < 40 s), peak RSS < 2 GiB each.
 *
 *   ./dev node --conditions=@weft/source apps/cli/bench/ingest-speed.ts [--skip-synthetic]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repositoryRoot } from '../src/commands/demo.ts';
import { benchWordnetBundle, benchWordnetStore } from './bench-store.ts';

const { values } = parseArgs({ options: { 'skip-synthetic': { type: 'boolean' } } });
const weft = path.join(repositoryRoot(), 'weft');
const run = (args: string[]) =>
  execFileSync(weft, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

await benchWordnetStore();
const scratch = await mkdtemp(path.join(os.tmpdir(), 'weft-ingest-bench-'));
try {
  const kbs: [string, string][] = [['WordNet 3.1', benchWordnetBundle()]];
  if (!values['skip-synthetic']) {
    const synthetic = path.join(scratch, 'synthetic');
    run(['synth-kb', '--out', synthetic, '--nodes', '135000', '--edges', '724000', '--seed', '1']);
    kbs.push(['synthetic 135k nodes / 724k edges', synthetic]);
  }
  for (const [name, bundle] of kbs) {
    const report = JSON.parse(
      run(['ingest', bundle, '--db', path.join(scratch, `store-${name.replace(/\W+/g, '-')}`), '--json']),
    ) as {
      nodes: number;
      edges: number;
      seconds: number;
      peakRssMiB: number;
    };
    console.log(
      `ingest-speed ${name}: ${report.nodes.toLocaleString('en-US')} nodes, ${report.edges.toLocaleString('en-US')} edges in ${report.seconds} s, peak RSS ${report.peakRssMiB} MiB`,
    );
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
